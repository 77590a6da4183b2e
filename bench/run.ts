/**
 * `npm run bench`: coord's performance figures, each printed with its goal, the
 * measured value and the ratio it is judged by, all measured in the same run. The machines are
 * shared and noisy, so figures are printed, never asserted: PASS/MISS is informational and the
 * process exits 0 unless something crashed. Times are medians of wall-clock milliseconds.
 *
 * - **cold start**: `coord --help` and `node -e 0` (15 each, interleaved, after 2 warm-ups);
 *   goal: `--help` within 2× bare node. `node -e 0` is also the baseline of the run figures.
 * - **whole process** (`whole-process.ts`): the built CLI runs a team of `chatcompletion`
 *   agents against the fake OpenAI server on 127.0.0.1 (they answer the same, vote for agent1,
 *   agent1 presents); 1, 3, 5 and 50 agents, every call answered at once or after 500 ms;
 *   repetitions interleaved. Per run: start → first model request, spawn → exit, model calls,
 *   waves, prompt tokens, the exit tail (last response → exit), CPU (total and after the first
 *   request) and peak RSS. Goals are the project's targets; figures without one are judged against
 *   their ideal: `node -e 0` at 0 ms, waves × 500 ms at 500 ms.
 * - **prompt tokens per call** for 10, 20 and 50 agents with distinct answers (it grows with the
 *   team: every vote round shows every answer).
 * - **bookkeeping**: a 3-agent run with 10,000 sessions in `~/.coord` next to an empty HOME.
 * - **engine in process**: `agreeingTeam(3)` on an instant scripted backend in a fresh process,
 *   the coordination alone (no CLI, no HTTP).
 * - **serve** (`serve-floor.ts`): `coord serve` with autocannon at concurrency 32 against a plain
 *   `node:http` floor server making the same 7 model requests; goal with run logs ≥ 0.25× the
 *   floor (issue 29), beside the provider SDK's ceiling (the same calls through the SDK) and
 *   each server's CPU per request.
 * - **serve memory under load** (`serve-memory.ts`).
 * - **install size** (`install-size.ts`): the production dependency closure,
 *   the whole `node_modules` and the five largest packages, against the 1.41 GB before.
 * - **real models** (`real-models.ts`; docs/real-models.md): the misbehaving-model matrix, calls
 *   and prompt tokens per cell against its call bound.
 *
 * `node dist/bench/run.js real-models` runs only the real-models section.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { installSizeRows } from "./install-size.js";
import { profileRows } from "./profile.js";
import { promptTokenRows } from "./prompt-tokens.js";
import { realModelsRows } from "./real-models.js";
import { ROOT, engineRun, median, timeInterleaved } from "./measure.js";
import { serveFloorRows } from "./serve-floor.js";
import { memoryRows } from "./serve-memory.js";
import { formatTable, type Row } from "./table.js";
import { CLI, runProcess, type ProcessRun, type RunOptions } from "./whole-process.js";

const COLD_START_RUNS = 15;
const CALL_MS = 500;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mb = (value: number) => `${value.toFixed(1)} MB`;
const times = (value: number, of: string) => `${value.toFixed(2)}× ${of}`;
const verdict = (pass: boolean): "PASS" | "MISS" => (pass ? "PASS" : "MISS");

function coldStart(): { rows: Row[]; bareMs: number } {
  const [help, bare] = timeInterleaved(
    [
      [CLI, "--help"],
      ["-e", "0"],
    ],
    { runs: COLD_START_RUNS, warmups: 2 },
  );
  const helpMs = median(help!);
  const bareMs = median(bare!);
  return {
    bareMs,
    rows: [
      { figure: `node -e 0 (baseline), median of ${COLD_START_RUNS}`, value: ms(bareMs) },
      {
        figure: `coord --help, median of ${COLD_START_RUNS}`,
        goal: "≤ 2× node -e 0",
        value: ms(helpMs),
        ratio: times(helpMs / bareMs, "node"),
        status: verdict(helpMs / bareMs <= 2),
      },
    ],
  };
}

/** A whole-process configuration and its goal (ms), when one is set. */
interface Case extends RunOptions {
  repetitions: number;
  goalMs?: number;
  /** Model calls the protocol needs. */
  calls?: number;
}

const CASES: Case[] = [
  { agents: 1, delayMs: 0, repetitions: 5 },
  { agents: 3, delayMs: 0, repetitions: 5, goalMs: 500, calls: 7 },
  { agents: 5, delayMs: 0, repetitions: 5, calls: 11 },
  { agents: 1, delayMs: CALL_MS, repetitions: 3 },
  { agents: 3, delayMs: CALL_MS, repetitions: 3, goalMs: 1700, calls: 7 },
  { agents: 5, delayMs: CALL_MS, repetitions: 3, goalMs: 1800, calls: 11 },
  { agents: 50, delayMs: 0, repetitions: 1, calls: 101 },
  { agents: 50, delayMs: CALL_MS, repetitions: 1, calls: 101 },
];

/** Runs every case, repetitions interleaved across cases so machine noise hits them alike. */
async function runCases(): Promise<ProcessRun[][]> {
  const results = CASES.map((): ProcessRun[] => []);
  const rounds = Math.max(...CASES.map((entry) => entry.repetitions));
  for (let round = 0; round < rounds; round++) {
    for (const [index, entry] of CASES.entries()) {
      if (round < entry.repetitions) results[index]!.push(await runProcess(entry));
    }
  }
  return results;
}

const medianOf = (runs: readonly ProcessRun[], key: keyof ProcessRun) =>
  median(runs.map((run) => run[key]));

function caseRows(entry: Case, runs: readonly ProcessRun[], bareMs: number): Row[] {
  const wallMs = medianOf(runs, "wallMs");
  const first = runs[0]!;
  const waves = medianOf(runs, "waves");
  const ideal = entry.delayMs > 0 ? waves * entry.delayMs : bareMs;
  const idealName = entry.delayMs > 0 ? `ideal ${waves}×${entry.delayMs} ms` : "node -e 0";
  const callsNote =
    entry.calls !== undefined && first.calls !== entry.calls ? ` (protocol: ${entry.calls})` : "";
  const wavesNote = entry.delayMs > 0 ? `, ${waves} waves` : "";
  return [
    {
      figure: `${entry.agents} agent${entry.agents > 1 ? "s" : ""}, ${entry.delayMs} ms/call, median of ${runs.length}`,
      ...(entry.goalMs !== undefined ? { goal: `≤ ${ms(entry.goalMs)}` } : {}),
      value: ms(wallMs),
      ratio:
        entry.goalMs !== undefined
          ? times(wallMs / entry.goalMs, "goal")
          : times(wallMs / ideal, idealName),
      ...(entry.goalMs !== undefined ? { status: verdict(wallMs <= entry.goalMs) } : {}),
      note: `${first.calls} calls${callsNote}${wavesNote}, ${first.promptTokens} prompt tokens; first request ${ms(medianOf(runs, "firstRequestMs"))}; CPU ${ms(medianOf(runs, "cpuMs"))}; peak RSS ${mb(medianOf(runs, "peakRssMb"))}`,
    },
  ];
}

function summaryRows(cases: readonly ProcessRun[][], bareMs: number): Row[] {
  const three = CASES.flatMap((entry, index) => (entry.agents === 3 ? cases[index]! : []));
  const threeInstant =
    cases[CASES.findIndex((entry) => entry.agents === 3 && entry.delayMs === 0)]!;
  const small = CASES.flatMap((entry, index) => (entry.agents <= 5 ? cases[index]! : []));
  const firstMs = medianOf(small, "firstRequestMs");
  const tailMs = medianOf(small, "exitTailMs");
  const cpuMs = medianOf(threeInstant, "cpuAfterStartMs");
  const fifty = CASES.flatMap((entry, index) => (entry.agents === 50 ? cases[index]! : []));
  return [
    {
      figure: `start → first model request, median of ${small.length}`,
      goal: "≤ 150.0 ms",
      value: ms(firstMs),
      ratio: times(firstMs / 150, "goal"),
      status: verdict(firstMs <= 150),
      note: `node -e 0 takes ${ms(bareMs)}; 1–5 agent runs`,
    },
    {
      figure: `exit tail (last response → exit), median of ${small.length}`,
      goal: "≤ 20.0 ms",
      value: ms(tailMs),
      ratio: times(tailMs / 20, "goal"),
      status: verdict(tailMs <= 20),
    },
    {
      figure: `CPU per 3-agent run, start-up excluded`,
      goal: "≤ 20.0 ms",
      value: ms(cpuMs),
      ratio: times(cpuMs / 20, "goal"),
      status: verdict(cpuMs <= 20),
      note: `after the first request; whole process ${ms(medianOf(threeInstant, "cpuMs"))}`,
    },
    {
      figure: "peak RSS, 3 agents",
      value: mb(medianOf(three, "peakRssMb")),
      note: `50 agents: ${mb(medianOf(fifty, "peakRssMb"))}`,
    },
  ];
}

async function promptRows(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const agents of [10, 20, 50]) {
    const run = await runProcess({ agents, delayMs: 0, distinct: true });
    rows.push({
      figure: `prompt tokens per call, ${agents} distinct answers`,
      value: (run.promptTokens / run.calls).toFixed(0),
      note: `${run.promptTokens} in ${run.calls} calls (message characters / 4)`,
    });
  }
  return rows;
}

const HISTORY = 10_000;
const BOOKKEEPING_RUNS = 3;

/** A HOME whose sessions.json lists `count` finished sessions. */
function homeWithHistory(count: number): string {
  const home = mkdtempSync(join(tmpdir(), "coord-bench-home-"));
  mkdirSync(join(home, ".coord"));
  const sessions = Array.from({ length: count }, (_, index) => {
    const at = new Date(Date.UTC(2025, 0, 1) + index * 60_000).toISOString();
    return {
      ...{ id: `session_bench_${index}`, started_at: at, ended_at: at, status: "completed" },
      ...{ kind: "single", models: ["chatcompletion/model-1"], config_path: null, log_dir: null },
      ...{ turns: 1, cwd: home },
    };
  });
  writeFileSync(join(home, ".coord", "sessions.json"), JSON.stringify({ version: 1, sessions }));
  return home;
}

/**
 * Bookkeeping: a 3-agent run whose HOME already has 10,000 sessions next to one with none (after
 * one untimed run in the full HOME, which archives the overflow once). Goal: the same cost.
 */
async function bookkeepingRows(): Promise<Row[]> {
  const home = homeWithHistory(HISTORY);
  try {
    await runProcess({ agents: 3, delayMs: 0, home });
    const full: ProcessRun[] = [];
    const empty: ProcessRun[] = [];
    for (let index = 0; index < BOOKKEEPING_RUNS; index++) {
      full.push(await runProcess({ agents: 3, delayMs: 0, home }));
      empty.push(await runProcess({ agents: 3, delayMs: 0 }));
    }
    const extraWall = medianOf(full, "wallMs") - medianOf(empty, "wallMs");
    const cpuRatio = medianOf(full, "cpuMs") / medianOf(empty, "cpuMs");
    return [
      {
        figure: `bookkeeping: 3 agents with ${HISTORY} sessions in HOME`,
        goal: "constant per run",
        value: `${extraWall >= 0 ? "+" : ""}${ms(extraWall)}`,
        ratio: times(cpuRatio, "CPU of an empty HOME"),
        status: verdict(cpuRatio <= 1.1),
        note: `median of ${BOOKKEEPING_RUNS} each, wall time over an empty HOME; CPU ${ms(medianOf(full, "cpuMs"))} vs ${ms(medianOf(empty, "cpuMs"))}`,
      },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function engineRows(): Row[] {
  const runs = Array.from({ length: 5 }, () => engineRun(3));
  return [
    {
      figure: "engine alone, 3 agents, in process, median of 5",
      value: ms(median(runs.map((run) => run.wallMs))),
      note: `scripted backend, no CLI or HTTP; ${runs[0]!.modelCalls} model calls`,
    },
  ];
}

/** Sections that can be run alone: `node dist/bench/run.js <name>`. */
const SECTIONS: Record<string, () => Promise<Row[]>> = {
  "real-models": () => realModelsRows(CLI),
  profile: profileRows,
  serve: serveFloorRows,
};

async function main(): Promise<void> {
  const started = performance.now();
  const only = process.argv[2];
  if (only !== undefined) {
    const section = SECTIONS[only];
    if (section === undefined) {
      throw new Error(
        `unknown bench section ${only}; sections: ${Object.keys(SECTIONS).join(", ")}`,
      );
    }
    report(await section(), started);
    return;
  }
  const profile = await profileRows();
  const cold = coldStart();
  const cases = await runCases();
  const rows: Row[] = [
    ...profile,
    ...cold.rows,
    ...summaryRows(cases, cold.bareMs),
    ...CASES.flatMap((entry, index) => caseRows(entry, cases[index]!, cold.bareMs)),
    ...(await promptRows()),
    ...(await promptTokenRows()),
    ...(await bookkeepingRows()),
    ...engineRows(),
    ...(await serveFloorRows()),
    ...(await memoryRows()),
    ...installSizeRows(ROOT),
    ...(await realModelsRows(CLI)),
  ];
  report(rows, started);
}

/** Prints the table and the goals missed. */
function report(rows: readonly Row[], started: number): void {
  process.stdout.write(`coord bench (node ${process.version}, ${process.platform}; ${CLI})\n\n`);
  process.stdout.write(`${formatTable(rows)}\n`);
  const misses = rows.filter((row) => row.status === "MISS").length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\n${misses === 0 ? "all goals met" : `${misses} goal(s) missed`} (informational); bench took ${seconds} s\n`,
  );
}

await main();
