/**
 * The memory-under-load figures of `npm run bench`: coord's server (its own
 * app and listener, as `coord serve` runs them; run logs on, so each request writes its log
 * directory) on the scripted team gets {@link WARMUP_WAVES} waves of {@link WAVE} concurrent
 * requests to warm up; then a full garbage collection, and its resident set size (RSS) and V8
 * heap are the baseline. After {@link WAVES} more waves and another collection, RSS should be
 * back within 20 % of that baseline, and the heap with it: finished runs must not stay in
 * memory. The peak RSS during the waves (without a forced collection) is shown beside them.
 * Figures only (the machines are shared): PASS/MISS is informational.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { load, questionBodies, startTarget } from "./serve-load.js";
import type { Row } from "./table.js";

const WAVE = 32;
const WARMUP_WAVES = 5;
const WAVES = 20;

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const percent = (ratio: number) => `${ratio >= 0 ? "+" : ""}${(ratio * 100).toFixed(1)} %`;

/** Resident set size of a process (bytes), from /proc; undefined elsewhere than Linux. */
async function rssBytes(pid: number | undefined): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** `process.memoryUsage()` of the server right after a full garbage collection. */
function collected(probeUrl: string): Promise<NodeJS.MemoryUsage> {
  return new Promise((resolve, reject) => {
    httpRequest(probeUrl, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve(JSON.parse(text) as NodeJS.MemoryUsage));
    })
      .on("error", reject)
      .end();
  });
}

/** Runs the memory bench and returns its table rows. */
export async function memoryRows(): Promise<Row[]> {
  const { bodies } = questionBodies(WAVE);
  const logRoot = await mkdtemp(join(tmpdir(), "coord-bench-logs-"));
  const server = await startTarget(["--expose-gc", "dist/bench/memory-server.js", logRoot]);
  try {
    const probe = /memory on (http:\/\/\S+)/.exec(server.banner)?.[1];
    if (probe === undefined) throw new Error(`no memory probe in:\n${server.banner}`);
    const url = `${server.url}/v1/chat/completions`;
    const wave = () => load({ url, bodies, concurrency: WAVE, requests: WAVE });
    let errors = 0;
    for (let index = 0; index < WARMUP_WAVES; index++) errors += (await wave()).errors;
    const before = await collected(probe);
    let peak = before.rss;
    for (let index = 0; index < WAVES; index++) {
      errors += (await wave()).errors;
      peak = Math.max(peak, (await rssBytes(server.child.pid)) ?? 0);
    }
    const after = await collected(probe);
    const rssGrowth = (after.rss - before.rss) / before.rss;
    const heapGrowth = (after.heapUsed - before.heapUsed) / before.heapUsed;
    return [
      {
        figure: `serve RSS after ${WARMUP_WAVES} warm-up waves of ${WAVE}, GC'd`,
        value: mb(before.rss),
        note: `the baseline; V8 heap ${mb(before.heapUsed)} (scripted team, run logs on)`,
      },
      {
        figure: `  peak RSS during ${WAVES} more waves`,
        value: mb(peak),
        note: `${(WARMUP_WAVES + WAVES) * WAVE} requests in all${errors > 0 ? `; ${errors} ERRORS` : ""}`,
      },
      {
        figure: "  RSS after the waves, GC'd",
        value: mb(after.rss),
        goal: "≤ baseline + 20 %",
        status: rssGrowth <= 0.2 ? "PASS" : "MISS",
        note: `${percent(rssGrowth)} over the baseline`,
      },
      {
        figure: "  V8 heap after the waves, GC'd",
        value: mb(after.heapUsed),
        note: `${percent(heapGrowth)} over the baseline's ${mb(before.heapUsed)}`,
      },
    ];
  } finally {
    await server.stop();
    await rm(logRoot, { recursive: true, force: true });
  }
}
