/**
 * The `coord serve` figure of `npm run bench`: `coord serve` running a three-agent
 * `chatcompletion` team against a fake OpenAI server (its own process, instant replies), loaded
 * by autocannon at concurrency 32, next to the floor server (`floor-server.ts`) that makes the
 * same 7 model requests per incoming request with plain `node:http`, measured in alternating
 * slices in the same run, with run logs (goal: ≥ 0.25× the floor) and without (goal: ≥ 0.5×).
 * With `COORD_BENCH_CPU_PROF=1` the logging server runs under `--cpu-prof` and its self time is
 * printed by place (`cpu-attribution.ts`).
 */
import autocannon, { type Result } from "autocannon";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { selfTimeByPlace } from "./cpu-attribution.js";
import { startTarget, type Target } from "./serve-load.js";
import type { Row } from "./table.js";
import { CLI } from "./whole-process.js";

const CONCURRENCY = 32;
const SLICES = 2;
const SLICE_SECONDS = 6;
const BODY = JSON.stringify({
  model: "coord",
  messages: [{ role: "user", content: "What is 2+2?" }],
});

interface Load {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
}

async function slice(url: string, seconds: number): Promise<Result> {
  return autocannon({
    url,
    connections: CONCURRENCY,
    duration: seconds,
    timeout: 60,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: BODY,
  });
}

function pool(results: readonly Result[]): Load {
  return {
    requests: results.reduce((sum, result) => sum + result["2xx"], 0),
    seconds: results.reduce((sum, result) => sum + result.duration, 0),
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
  };
}

/** The 7 model requests of coord's last team run, in waves (answers, votes, presentation). */
async function lastTeamRun(modelUrl: string, agents: number): Promise<string[][]> {
  const response = await fetch(`${modelUrl}/__requests`);
  const requests = (await response.json()) as { method: string; path: string; body: unknown }[];
  const calls = requests
    .filter((request) => request.method === "POST" && request.path === "/v1/chat/completions")
    .slice(-(2 * agents + 1))
    .map((request) => JSON.stringify(request.body));
  return [calls.slice(0, agents), calls.slice(agents, 2 * agents), calls.slice(2 * agents)];
}

/** The baseline build's logging server (`COORD_BENCH_BASELINE_CLI`), measured in the same slices. */
function beforeRow(load: Load, floorRps: number): Row {
  const rps = load.requests / load.seconds;
  return {
    figure: `  before: coord serve with run logs (COORD_BENCH_BASELINE_CLI)`,
    value: `${rps.toFixed(0)} req/s`,
    ratio: `${(rps / floorRps).toFixed(2)}× floor`,
    note: `p50 ${load.p50} ms, p99 ${load.p99} ms; ${load.requests} answers`,
  };
}

/** Runs the serve comparison and returns its rows. */
export async function serveFloorRows(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "coord-bench-serve-"));
  const started: Target[] = [];
  try {
    const model = await startTarget(["dist/bench/fake-model-server.js"]);
    started.push(model);
    const agents = 3;
    const team = ["agents:"];
    for (let index = 1; index <= agents; index++) {
      team.push(
        `  - id: agent_${index}`,
        `    backend: { type: chatcompletion, model: model-${index}, base_url: "${model.url}/v1" }`,
      );
    }
    writeFileSync(join(dir, "team.yaml"), `${team.join("\n")}\n`);
    const env = { ...process.env, HOME: dir };
    const profDir = join(dir, "cpu-prof");
    const serve = (logs: boolean, cli = CLI) =>
      startTarget(
        [
          ...(logs && cli === CLI && process.env.COORD_BENCH_CPU_PROF === "1"
            ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`]
            : []),
          ...[
            cli,
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--config",
            join(dir, "team.yaml"),
          ],
          ...(logs ? [] : ["--no-logs"]),
        ],
        { env: { ...env, COORD_LOG_DIR: join(dir, "logs") } },
      );
    const coord = await serve(false);
    started.push(coord);
    const logged = await serve(true);
    started.push(logged);
    const baselineCli = process.env.COORD_BENCH_BASELINE_CLI;
    const before = baselineCli === undefined ? undefined : await serve(true, baselineCli);
    if (before) started.push(before);
    const coordUrl = `${coord.url}/v1/chat/completions`;
    const loggedUrl = `${logged.url}/v1/chat/completions`;
    const beforeUrl = before && `${before.url}/v1/chat/completions`;
    for (const url of [coordUrl, loggedUrl, ...(beforeUrl ? [beforeUrl] : [])]) {
      const first = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: BODY,
      });
      if (!first.ok) throw new Error(`coord serve answered ${first.status}: ${await first.text()}`);
      await first.text();
    }
    const plan = join(dir, "plan.json");
    const waves = await lastTeamRun(model.url, agents);
    writeFileSync(plan, JSON.stringify({ url: `${model.url}/v1`, waves }));
    const floor = await startTarget(["dist/bench/floor-server.js", plan]);
    started.push(floor);
    const floorUrl = `${floor.url}/`;
    await slice(floorUrl, 1); // warm-up
    await slice(coordUrl, 1);
    await slice(loggedUrl, 1);
    if (beforeUrl) await slice(beforeUrl, 1);
    const coordRuns: Result[] = [];
    const loggedRuns: Result[] = [];
    const beforeRuns: Result[] = [];
    const floorRuns: Result[] = [];
    for (let index = 0; index < SLICES; index++) {
      floorRuns.push(await slice(floorUrl, SLICE_SECONDS));
      coordRuns.push(await slice(coordUrl, SLICE_SECONDS));
      loggedRuns.push(await slice(loggedUrl, SLICE_SECONDS));
      if (beforeUrl) beforeRuns.push(await slice(beforeUrl, SLICE_SECONDS));
    }
    const withLogs = pool(loggedRuns);
    const loggedRps = withLogs.requests / withLogs.seconds;
    const ours = pool(coordRuns);
    const base = pool(floorRuns);
    const ourRps = ours.requests / ours.seconds;
    const baseRps = base.requests / base.seconds;
    const ratio = ourRps / baseRps;
    const calls = waves.reduce((sum, wave) => sum + wave.length, 0);
    let attribution: Row[] = [];
    if (process.env.COORD_BENCH_CPU_PROF === "1") {
      await logged.stop();
      const totals = [...selfTimeByPlace(profDir)].sort((left, right) => right[1] - left[1]);
      const all = totals.reduce((sum, [, value]) => sum + value, 0);
      const note = totals
        .slice(0, 12)
        .map(([place, value]) => `${place} ${((100 * value) / all).toFixed(0)}%`)
        .join(", ");
      attribution = [
        { figure: "  coord serve with logs, self time (--cpu-prof)", value: "", note },
      ];
    }
    return [
      {
        figure: `coord serve with run logs, 3-agent team, c=${CONCURRENCY}`,
        goal: "≥ 0.25× floor",
        value: `${loggedRps.toFixed(0)} req/s`,
        ratio: `${(loggedRps / baseRps).toFixed(2)}× floor`,
        status: loggedRps / baseRps >= 0.25 ? "PASS" : "MISS",
        note: `p50 ${withLogs.p50} ms, p99 ${withLogs.p99} ms; ${withLogs.requests} answers${withLogs.errors ? `; ${withLogs.errors} ERRORS` : ""}`,
      },
      ...attribution,
      ...(beforeRuns.length > 0 ? [beforeRow(pool(beforeRuns), baseRps)] : []),
      {
        figure: `coord serve --no-logs, 3-agent team, c=${CONCURRENCY}`,
        goal: "≥ 0.5× floor",
        value: `${ourRps.toFixed(0)} req/s`,
        ratio: `${ratio.toFixed(2)}× floor`,
        status: ratio >= 0.5 ? "PASS" : "MISS",
        note: `p50 ${ours.p50} ms, p99 ${ours.p99} ms; ${ours.requests} answers${ours.errors ? `; ${ours.errors} ERRORS` : ""}`,
      },
      {
        figure: `  floor server (node:http, same ${calls} model requests)`,
        value: `${baseRps.toFixed(0)} req/s`,
        note: `p50 ${base.p50} ms, p99 ${base.p99} ms; waves ${waves.map((wave) => wave.length).join("+")}`,
      },
    ];
  } finally {
    await Promise.all(started.map((target) => target.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
