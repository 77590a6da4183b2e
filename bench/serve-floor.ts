/**
 * The `coord serve` figure of `npm run bench` (issue 29 item 3: with run logs ≥ 0.25× the
 * floor): `coord serve` running a three-agent `chatcompletion` team against a fake OpenAI server
 * (its own process, instant replies), loaded by autocannon at concurrency 32, next to two
 * servers that make the same 7 model requests per incoming request: the floor
 * (`floor-server.ts`, plain `node:http`) and the provider SDK's ceiling (`sdk-floor-server.ts`,
 * the same calls through `@ai-sdk/openai-compatible`, which coord's backend uses). All are
 * measured in alternating slices in the same run: with and without run logs, and the same team
 * routed (`--teams`, each request naming `path:team.yaml`).
 *
 * Besides requests per second, each server's CPU per answered request (user + system from
 * `/proc/<pid>/stat`, Linux; omitted elsewhere): on a shared machine the CPU figures and their
 * ratios hold where wall-clock throughput swings, and a server that is CPU-bound on one core
 * answers at most 1000 / (CPU ms per request) per second. coord's own CPU per request is its
 * figure minus the SDK server's.
 *
 * With `COORD_BENCH_CPU_PROF=1` the logging server runs under `--cpu-prof` (its CPU figure then
 * includes the profiler's) and its self time is printed by place (`cpu-attribution.ts`).
 */
import autocannon, { type Result } from "autocannon";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { selfTimeByPlace } from "./cpu-attribution.js";
import { startTarget, type Target } from "./serve-load.js";
import type { Row } from "./table.js";
import { CLI } from "./whole-process.js";

/** This build's bench scripts (`dist/bench/`). */
const HERE = dirname(fileURLToPath(import.meta.url));
const CONCURRENCY = 32;
const SLICES = 2;
const SLICE_SECONDS = 6;
/** The issue's goal for `coord serve` with run logs, as a share of the floor's requests/s. */
const GOAL_RATIO = 0.25;
/** Clock ticks per second of `/proc/<pid>/stat` times (`getconf CLK_TCK`: 100 on Linux). */
const CLOCK_TICKS = 100;
const BODY = JSON.stringify({
  model: "coord",
  messages: [{ role: "user", content: "What is 2+2?" }],
});
/** The same request to a server without a team of its own: `model` names the file in `--teams`. */
const ROUTED_BODY = JSON.stringify({
  model: "path:team.yaml",
  messages: [{ role: "user", content: "What is 2+2?" }],
});

/** A server under load: its slices' results and the CPU it spent in them (ms; NaN: unknown). */
interface Measured {
  target: Target;
  url: string;
  /** The request body it is sent. */
  body: string;
  results: Result[];
  cpuMs: number;
}

interface Load {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU per answered request (ms); undefined when not measured. */
  cpuPerRequestMs: number | undefined;
}

/** User + system CPU of a process so far (ms), from `/proc/<pid>/stat`; undefined off Linux. */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) in parentheses: utime is the 14th
    // field, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

async function slice(server: Measured, seconds: number): Promise<Result> {
  return autocannon({
    url: server.url,
    connections: CONCURRENCY,
    duration: seconds,
    timeout: 60,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: server.body,
  });
}

/** Loads `server` for one slice, adding its result and the CPU it spent. */
async function measureSlice(server: Measured, seconds: number): Promise<void> {
  const before = processCpuMs(server.target.child.pid);
  server.results.push(await slice(server, seconds));
  const after = processCpuMs(server.target.child.pid);
  server.cpuMs += before === undefined || after === undefined ? NaN : after - before;
}

function pool(server: Measured): Load {
  const { results } = server;
  const requests = results.reduce((sum, result) => sum + result["2xx"], 0);
  const seconds = results.reduce((sum, result) => sum + result.duration, 0);
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx, 0),
    cpuPerRequestMs:
      Number.isNaN(server.cpuMs) || requests === 0 ? undefined : server.cpuMs / requests,
  };
}

/** `p50 …, p99 …; N answers[; CPU x ms/request (≤ y req/s on one core)]`. */
function loadNote(load: Load): string {
  const cpu =
    load.cpuPerRequestMs === undefined
      ? ""
      : `; CPU ${load.cpuPerRequestMs.toFixed(1)} ms/request (≤ ${(1000 / load.cpuPerRequestMs).toFixed(0)} req/s on one core)`;
  return `p50 ${load.p50} ms, p99 ${load.p99} ms; ${load.requests} answers${load.errors ? `; ${load.errors} ERRORS` : ""}${cpu}`;
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

/** The self time of the profiled logging server by place, as one row. */
function attributionRow(profDir: string): Row {
  const totals = [...selfTimeByPlace(profDir)].sort((left, right) => right[1] - left[1]);
  const all = totals.reduce((sum, [, value]) => sum + value, 0);
  const note = totals
    .slice(0, 12)
    .map(([place, value]) => `${place} ${((100 * value) / all).toFixed(0)}%`)
    .join(", ");
  return { figure: "  coord serve with logs, self time (--cpu-prof)", value: "", note };
}

/** coord's CPU per request beyond the SDK server's (ms), as a note. */
function ownCpu(coord: Load, sdk: Load): string {
  if (coord.cpuPerRequestMs === undefined || sdk.cpuPerRequestMs === undefined) return "";
  return `${(coord.cpuPerRequestMs - sdk.cpuPerRequestMs).toFixed(1)} ms`;
}

/** Runs the serve comparison and returns its rows. */
export async function serveFloorRows(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), "coord-bench-serve-"));
  const started: Target[] = [];
  try {
    const model = await startTarget([join(HERE, "fake-model-server.js")]);
    started.push(model);
    const agents = 3;
    const team = ["agents:"];
    for (let index = 1; index <= agents; index++) {
      team.push(
        `  - id: agent_${index}`,
        `    backend: { type: chatcompletion, model: model-${index}, base_url: "${model.url}/v1" }`,
      );
    }
    const teamsDir = join(dir, "teams");
    mkdirSync(teamsDir);
    writeFileSync(join(teamsDir, "team.yaml"), `${team.join("\n")}\n`);
    const env = { ...process.env, HOME: dir };
    const profDir = join(dir, "cpu-prof");
    const profiled = process.env.COORD_BENCH_CPU_PROF === "1";
    /** `coord serve` with the team as `--config` or, `routed`, as `path:team.yaml` of `--teams`. */
    const serve = async (
      options: { logs: boolean; routed?: boolean },
      cli = CLI,
    ): Promise<Measured> => {
      const target = await startTarget(
        [
          ...(options.logs && !options.routed && cli === CLI && profiled
            ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`]
            : []),
          ...[cli, "serve", "--host", "127.0.0.1", "--port", "0"],
          ...(options.routed ? ["--teams", teamsDir] : ["--config", join(teamsDir, "team.yaml")]),
          ...(options.logs ? [] : ["--no-logs"]),
        ],
        { env: { ...env, COORD_LOG_DIR: join(dir, "logs") } },
      );
      started.push(target);
      return {
        target,
        url: `${target.url}/v1/chat/completions`,
        body: options.routed ? ROUTED_BODY : BODY,
        results: [],
        cpuMs: 0,
      };
    };
    const coord = await serve({ logs: false });
    const logged = await serve({ logs: true });
    const routed = await serve({ logs: true, routed: true });
    const baselineCli = process.env.COORD_BENCH_BASELINE_CLI;
    const before = baselineCli === undefined ? undefined : await serve({ logs: true }, baselineCli);
    const routedBefore =
      baselineCli === undefined
        ? undefined
        : await serve({ logs: true, routed: true }, baselineCli);
    const coords = [coord, routed, ...(routedBefore ? [routedBefore] : []), logged];
    if (before) coords.push(before);
    for (const { url, body } of coords) {
      const first = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      if (!first.ok) throw new Error(`coord serve answered ${first.status}: ${await first.text()}`);
      await first.text();
    }
    const plan = join(dir, "plan.json");
    const waves = await lastTeamRun(model.url, agents);
    writeFileSync(plan, JSON.stringify({ url: `${model.url}/v1`, waves }));
    const floors: Measured[] = [];
    for (const script of ["floor-server.js", "sdk-floor-server.js"]) {
      const target = await startTarget([join(HERE, script), plan]);
      started.push(target);
      floors.push({ target, url: `${target.url}/`, body: BODY, results: [], cpuMs: 0 });
    }
    const [floor, sdk] = floors as [Measured, Measured];
    const servers = [floor, sdk, ...coords];
    for (const server of servers) await slice(server, 1); // warm-up
    for (let index = 0; index < SLICES; index++) {
      for (const server of servers) await measureSlice(server, SLICE_SECONDS);
    }
    if (profiled) await logged.target.stop();
    const base = pool(floor);
    const ratio = (load: Load) => `${(load.rps / base.rps).toFixed(2)}× floor`;
    const withLogs = pool(logged);
    const noLogs = pool(coord);
    const ceiling = pool(sdk);
    const calls = waves.reduce((sum, wave) => sum + wave.length, 0);
    const ceilingNote =
      ceiling.cpuPerRequestMs === undefined
        ? ""
        : `; SDK ceiling on one core ${(1000 / ceiling.cpuPerRequestMs / base.rps).toFixed(2)}× floor`;
    const beforeLoad = before && pool(before);
    /** A row of a server judged against the floor, without a goal of its own. */
    const loadRow = (figure: string, load: Load): Row => ({
      figure,
      value: `${load.rps.toFixed(0)} req/s`,
      ratio: ratio(load),
      note: loadNote(load),
    });
    return [
      {
        figure: `coord serve with run logs, 3-agent team, c=${CONCURRENCY}`,
        goal: `≥ ${GOAL_RATIO}× floor`,
        value: `${withLogs.rps.toFixed(0)} req/s`,
        ratio: ratio(withLogs),
        status: withLogs.rps / base.rps >= GOAL_RATIO ? "PASS" : "MISS",
        note: `${loadNote(withLogs)}${ceilingNote}`,
      },
      ...(profiled ? [attributionRow(profDir)] : []),
      ...(beforeLoad
        ? [loadRow("  before: coord serve with run logs (COORD_BENCH_BASELINE_CLI)", beforeLoad)]
        : []),
      loadRow(`coord serve --no-logs, 3-agent team, c=${CONCURRENCY}`, noLogs),
      loadRow(
        "coord serve --teams, model path:team.yaml (a routed team), with run logs",
        pool(routed),
      ),
      ...(routedBefore
        ? [
            loadRow(
              "  before: the same routed server (COORD_BENCH_BASELINE_CLI)",
              pool(routedBefore),
            ),
          ]
        : []),
      loadRow(
        `  provider SDK ceiling (node:http + @ai-sdk/openai-compatible, same ${calls} calls)`,
        ceiling,
      ),
      ...(withLogs.cpuPerRequestMs !== undefined && ceiling.cpuPerRequestMs !== undefined
        ? [
            {
              figure: "  coord's own CPU per request (coord serve − SDK ceiling)",
              value: ownCpu(withLogs, ceiling),
              note: `with run logs; --no-logs ${ownCpu(noLogs, ceiling)}${beforeLoad ? `; before ${ownCpu(beforeLoad, ceiling)}` : ""}`,
            },
          ]
        : []),
      {
        figure: `  floor server (node:http, same ${calls} model requests)`,
        value: `${base.rps.toFixed(0)} req/s`,
        note: `${loadNote(base)}; waves ${waves.map((wave) => wave.length).join("+")}`,
      },
    ];
  } finally {
    await Promise.all(started.map((target) => target.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
