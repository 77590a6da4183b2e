/**
 * The per-call profile of `npm run bench`, on Node 20 and Node 24 side by side
 * in one run (repetitions interleaved across the runtimes, medians printed):
 *
 * - **provider SDK**: CPU per model call of a bare `doStream` loop of the same provider on the
 *   same fake server (`profile-child.ts sdk`): the floor coord cannot go below;
 * - **coord in process**: CPU per model call of a 3-agent run through coord's runner with logs
 *   (`profile-child.ts coord`) and without (`coord-nolog`); coord's own share is the difference
 *   to the SDK's (goal ≤ 2 ms), the log writer's the difference between the two;
 * - **start and exit**: the built CLI as a whole process (`whole-process.ts`): spawn → first
 *   model request (goal ≤ 300 ms) with its CPU, CPU after the first request per call, the exit
 *   tail, and `node -e 0` of the same runtime.
 *
 * With `COORD_BENCH_BASELINE_CLI` (a `dist/bin/coord.js`) and `COORD_BENCH_BASELINE_CHILD` (a
 * `dist/bench/profile-child.js`) of another build, e.g. a copy made before a change, that build
 * is measured too, interleaved with this one, and its rows are marked "before".
 *
 * The fake OpenAI server runs in this process, so the children's CPU is theirs alone. With
 * `COORD_BENCH_CPU_PROF=1` each runtime also runs `coord` and `sdk` once more with V8's sampling
 * profiler on their measured runs (`COORD_BENCH_CPU_PROF_DIR`, `profile-child.ts`) and the self
 * time per call is printed by where the code lives (`cpu-attribution.ts`), coord's beside the SDK's.
 *
 * `COORD_BENCH_PROFILE_WHOLE=0` leaves out the whole-process rows (the in-process rows alone, for
 * a quick look while changing coord's per-call path).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { startFakeOpenAIServer } from "../test/support/fake-openai-server.js";
import { agreeingModel } from "./agreeing-model.js";
import { describeAttribution, selfTimePerCall } from "./cpu-attribution.js";
import { median, ROOT } from "./measure.js";
import { benchRuntimes, type Runtime } from "./node24.js";
import type { ChildReport } from "./profile-child.js";
import type { Row } from "./table.js";
import { CLI, runProcess, type ProcessRun } from "./whole-process.js";

const CHILD = fileURLToPath(new URL("./profile-child.js", import.meta.url));
/** Child processes per mode and runtime, and measured runs in each. */
const REPETITIONS = Number(process.env.COORD_BENCH_PROFILE_REPETITIONS ?? 3);
const RUNS_PER_CHILD = 10;
const WHOLE_RUNS = process.env.COORD_BENCH_PROFILE_WHOLE === "0" ? 0 : 5;
const MODES = ["sdk", "coord", "coord-nolog"] as const;
type Mode = (typeof MODES)[number];

const ms = (value: number) => `${value.toFixed(2)} ms`;
const verdict = (pass: boolean): "PASS" | "MISS" => (pass ? "PASS" : "MISS");

/** A build to measure: its CLI and its profile child. */
interface Build {
  /** "" for this build, "before" for the baseline. */
  label: string;
  cli: string;
  child: string;
}

function builds(): Build[] {
  const list: Build[] = [{ label: "", cli: CLI, child: CHILD }];
  const cli = process.env.COORD_BENCH_BASELINE_CLI;
  const child = process.env.COORD_BENCH_BASELINE_CHILD;
  if (cli !== undefined && child !== undefined) list.unshift({ label: "before", cli, child });
  return list;
}

/**
 * Runs the profile child in a fresh folder (removed after), returns its report. `profileDir`:
 * where its measured runs' `.cpuprofile` goes, if wanted.
 */
async function runChild(
  execPath: string,
  args: readonly string[],
  child = CHILD,
  profileDir?: string,
) {
  const dir = mkdtempSync(join(tmpdir(), "coord-profile-"));
  try {
    const env =
      profileDir === undefined
        ? process.env
        : { ...process.env, COORD_BENCH_CPU_PROF_DIR: profileDir };
    const out = await runNode(execPath, [child, ...args, dir], env);
    return JSON.parse(out) as ChildReport;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `execPath args`, returns stdout; rejects with stderr on a non-zero exit. */
function runNode(
  execPath: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${execPath} ${args.join(" ")} exited ${code}: ${stderr.trim()}`)),
    );
  });
}

async function bareNodeMs(execPath: string): Promise<number> {
  const started = performance.now();
  await runNode(execPath, ["-e", "0"]);
  return performance.now() - started;
}

interface Figures {
  perCall: Record<Mode, number[]>;
  whole: ProcessRun[];
  bare: number[];
  attribution?: string;
}

/** Measures every (runtime, build), interleaved: rounds of (runtime × build × mode). */
async function measure(targets: readonly Target[]): Promise<Figures[]> {
  const figures: Figures[] = targets.map(() => ({
    perCall: { sdk: [], coord: [], "coord-nolog": [] },
    whole: [],
    bare: [],
  }));
  const server = await startFakeOpenAIServer((request) => agreeingModel(request));
  const trim = setInterval(() => server.requests.splice(0, server.requests.length - 50), 500);
  const baseURL = server.url;
  try {
    for (let round = 0; round < Math.max(REPETITIONS, WHOLE_RUNS); round++) {
      for (const [index, { runtime, build }] of targets.entries()) {
        const into = figures[index]!;
        if (round < REPETITIONS) {
          for (const mode of MODES) {
            const report = await runChild(
              runtime.execPath,
              [mode, baseURL, String(RUNS_PER_CHILD)],
              build.child,
            );
            into.perCall[mode].push(report.cpuPerCallMs);
          }
        }
        if (round < WHOLE_RUNS) {
          into.bare.push(await bareNodeMs(runtime.execPath));
          into.whole.push(
            await runProcess({ agents: 3, delayMs: 0, execPath: runtime.execPath, cli: build.cli }),
          );
        }
      }
    }
    if (process.env.COORD_BENCH_CPU_PROF === "1") {
      for (const [index, { runtime, build }] of targets.entries()) {
        const places = (mode: Mode) =>
          selfTimePerCall((dir) =>
            runChild(
              runtime.execPath,
              [mode, baseURL, String(RUNS_PER_CHILD * 3)],
              build.child,
              dir,
            ),
          );
        const coord = await places("coord");
        // A build whose child cannot profile its runs (an older one) writes no profile.
        if (coord.size > 0) {
          figures[index]!.attribution = describeAttribution(coord, await places("sdk"));
        }
      }
    }
  } finally {
    clearInterval(trim);
    await server.close();
  }
  return figures;
}

/** One runtime with one build. */
interface Target {
  runtime: Runtime;
  build: Build;
}

function runtimeRows({ runtime, build }: Target, figures: Figures): Row[] {
  const sdk = median(figures.perCall.sdk);
  const coord = median(figures.perCall.coord);
  const noLog = median(figures.perCall["coord-nolog"]);
  const own = coord - sdk;
  const at = build.label === "" ? runtime.label : `${runtime.label} ${build.label}`;
  const perRuns = `median of ${REPETITIONS} processes × ${RUNS_PER_CHILD} runs`;
  const rows: Row[] = [
    {
      figure: `${at}: provider SDK CPU per call (bare doStream)`,
      value: ms(sdk),
      note: `the floor; ${perRuns}`,
    },
    {
      figure: `${at}: coord CPU per call, in process, logs on`,
      value: ms(coord),
      ratio: `${(coord / sdk).toFixed(2)}× SDK`,
      note: `no logs: ${ms(noLog)}; log writer ${ms(coord - noLog)} per call`,
    },
    {
      figure: `${at}: coord's own CPU per call (beyond the SDK)`,
      goal: "≤ 2.00 ms",
      value: ms(own),
      ratio: `${(own / 2).toFixed(2)}× goal`,
      status: verdict(own <= 2),
      note: "engine, reducer, redaction, sinks, log writer, backend wrappers",
    },
  ];
  rows.push(...wholeProcessRows(at, figures));
  if (figures.attribution !== undefined) {
    rows.push({
      figure: `${at}: coord run self time per call by place, SDK alone in brackets`,
      value: "",
      note: figures.attribution,
    });
  }
  return rows;
}

/** The whole-process rows of one target; none when they were not measured. */
function wholeProcessRows(at: string, figures: Figures): Row[] {
  const whole = figures.whole;
  if (whole.length === 0) return [];
  const calls = whole[0]!.calls;
  const first = median(whole.map((run) => run.firstRequestMs));
  const bare = median(figures.bare);
  return [
    {
      figure: `${at}: start → first model request, median of ${whole.length}`,
      goal: "≤ 300.0 ms",
      value: ms(first),
      ratio: `${(first / 300).toFixed(2)}× goal`,
      status: verdict(first <= 300),
      note: `node -e 0: ${ms(bare)}; CPU to the first request ${ms(median(whole.map((run) => run.cpuAtFirstRequestMs)))}`,
    },
    {
      figure: `${at}: whole process CPU after the first request, per call`,
      value: ms(median(whole.map((run) => run.cpuAfterStartMs)) / calls),
      note: `${calls} calls; includes modules loaded after the first request and the exit`,
    },
    {
      figure: `${at}: exit tail (last response → exit)`,
      goal: "≤ 20.0 ms",
      value: ms(median(whole.map((run) => run.exitTailMs))),
      status: verdict(median(whole.map((run) => run.exitTailMs)) <= 20),
      note: `spawn → exit ${ms(median(whole.map((run) => run.wallMs)))}`,
    },
  ];
}

/** The profile's rows, every runtime side by side. */
export async function profileRows(): Promise<Row[]> {
  const { runtimes, note } = benchRuntimes(ROOT);
  const targets = runtimes.flatMap((runtime) => builds().map((build) => ({ runtime, build })));
  const figures = await measure(targets);
  const rows = targets.flatMap((target, index) => runtimeRows(target, figures[index]!));
  if (note !== undefined) rows.push({ figure: "Node 24", value: "not measured", note });
  return rows;
}
