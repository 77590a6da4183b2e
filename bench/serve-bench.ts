/**
 * The `coord serve` figures of `npm run bench`: requests per second and p50/p99 latency at
 * concurrency 1, 8 and 32 on an instant scripted team (`@examples/scripted_team`: three agents
 * answer, vote, and one presents; no delays; `--no-logs`), next to a bare Hono hello-world server
 * measured in the same run, each in its own process, with GSM8K test questions as the requests;
 * the two are measured in alternating slices so a noisy machine hits both alike.
 * The access log gives the time each request spent in the app (the team run), apart from the
 * queueing in front of it. The ratio is coord's throughput as a share of the hello-world's: the cost of a whole team run
 * (7 model calls through the engine) per request over the HTTP floor. No target: informational.
 */
import { readFileSync } from "node:fs";
import {
  accessLogTimes,
  combine,
  percentile,
  load,
  questionBodies,
  startTarget,
  type LoadResult,
  type Target,
} from "./serve-load.js";
import type { Row } from "./table.js";

const LEVELS = [
  { concurrency: 1, requests: 200 },
  { concurrency: 8, requests: 480 },
  { concurrency: 32, requests: 960 },
];
const WARMUP_REQUESTS = 150;
/** Each level is measured in this many alternating slices per server. */
const SLICES = 4;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const rps = (value: number) => `${value.toFixed(0)} req/s`;

/** Peak RSS of a process (MiB), from /proc; undefined elsewhere than Linux. */
function peakRssMb(pid: number | undefined): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the serve bench and returns its table rows. */
export async function serveRows(): Promise<Row[]> {
  const { bodies, source } = questionBodies(200);
  const hello = await startTarget(["dist/bench/hello-server.js"]);
  let coord: Target | undefined;
  try {
    coord = await startTarget([
      "dist/src/cli.js",
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--config",
      "@examples/scripted_team",
      "--no-logs",
    ]);
    const coordUrl = `${coord.url}/v1/chat/completions`;
    const helloUrl = `${hello.url}/v1/chat/completions`;
    for (const url of [helloUrl, coordUrl]) {
      await load({ url, bodies, concurrency: 8, requests: WARMUP_REQUESTS });
    }
    const rows: Row[] = [];
    for (const { concurrency, requests } of LEVELS) {
      // Interleaved slices, so the shared machine's noise hits both servers alike.
      const base: LoadResult[] = [];
      const team: LoadResult[] = [];
      coord.takeLog();
      for (let slice = 0; slice < SLICES; slice++) {
        const each = { bodies, concurrency, requests: requests / SLICES };
        base.push(await load({ url: helloUrl, ...each }));
        team.push(await load({ url: coordUrl, ...each }));
      }
      rows.push(
        ...levelRows(concurrency, combine(team), combine(base), accessLogTimes(coord.takeLog())),
      );
    }
    const rss = peakRssMb(coord.child.pid);
    rows.push({
      figure: "  coord serve peak RSS",
      value: rss === undefined ? "n/a" : `${rss.toFixed(1)} MB`,
      note: `after ${WARMUP_REQUESTS + LEVELS.reduce((sum, level) => sum + level.requests, 0)} requests; questions: ${source}`,
    });
    return rows;
  } finally {
    await Promise.all([hello.stop(), coord?.stop()]);
  }
}

function levelRows(
  concurrency: number,
  team: LoadResult,
  base: LoadResult,
  serverMs: readonly number[],
): Row[] {
  const errors = team.errors + base.errors;
  return [
    {
      figure: `serve c=${concurrency}, scripted team`,
      value: rps(team.rps),
      note: `p50 ${ms(team.p50Ms)}, p99 ${ms(team.p99Ms)}; ${team.requests} requests${errors > 0 ? `; ${errors} ERRORS` : ""}`,
    },
    {
      figure: `  in the app (access log)`,
      value: `p50 ${ms(percentile(serverMs, 0.5))}`,
      note: `p99 ${ms(percentile(serverMs, 0.99))}: the run itself; the rest of the latency is queueing`,
    },
    {
      figure: `  hello-world Hono, c=${concurrency}`,
      value: rps(base.rps),
      note: `p50 ${ms(base.p50Ms)}, p99 ${ms(base.p99Ms)}`,
    },
    {
      figure: `  coord / hello-world throughput`,
      value: `${(team.rps / base.rps).toFixed(3)}×`,
      note: `p50 latency ${(team.p50Ms / base.p50Ms).toFixed(1)}× the hello-world's`,
    },
  ];
}
