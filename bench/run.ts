/**
 * `npm run bench`: coord's performance figures, each with the ratio or target it is judged by,
 * all measured in the same run (the machines are shared and noisy, so figures are only printed,
 * never asserted; PASS/MISS is informational and the process exits 0 unless something crashed).
 *
 * The figures:
 * - **cold start**: median wall ms of spawning `node dist/src/cli.js --help` and of `node -e 0`
 *   (15 each, interleaved, after 2 warm-ups); target: `--help` within 2× bare node.
 * - **engine, 3 / 50 agents**: `agreeingTeam(n)` (answer, vote for agent1, agent1 presents) on
 *   an instant scripted backend, voting mode, system clock. Each repetition is a fresh
 *   `node dist/bench/engine-run.js n` process (so it includes first-run JIT cost, as a CLI run
 *   does); the figure is the median wall ms of `runCoordination` to its last event. Targets:
 *   3 agents < 100 ms, 50 agents < 3 s. Peak RSS is the process's `maxRSS` after the run, with
 *   the pre-run baseline (Node + modules) beside it; no target.
 * - **200 ms backend**: `agreeingTeam(3, 200)`, every call waits 200 ms on the real clock. The
 *   ideal is waves × 200 ms, waves being the most calls one agent makes (answer, vote, final
 *   presentation = 3, so 600 ms); the figure is the median run's overhead over the ideal.
 *   Target: ≤ 15 %.
 * - **model calls, 3 agree**: `usage` events of the `allAgree` scenario (virtual clock, in this
 *   process); the protocol needs exactly 7 (3 answers, 3 votes, 1 presentation).
 * - **serve**: `coord serve` requests per second and p50/p99 latency at concurrency 1, 8 and 32
 *   on an instant scripted team, next to a bare Hono hello-world measured in the same run, with
 *   the ratio (`serve-bench.ts`).
 * - **serve memory under load**: RSS of `coord serve` (run logs on) after warm-up waves of 32
 *   concurrent requests, its peak over 20 more waves, and after a pause; target: back within
 *   20 % of the warmed-up baseline (`serve-memory.ts`, issue 17 item 6).
 */
import { performance } from "node:perf_hooks";
import { createVirtualClock } from "../src/clock.js";
import { allAgree } from "../src/engine/scenarios.js";
import { runScripted } from "../src/engine/test-helpers.js";
import type { EngineRunResult } from "./engine-run.js";
import { engineRun, median, timeInterleaved } from "./measure.js";
import { serveRows } from "./serve-bench.js";
import { memoryRows } from "./serve-memory.js";
import { formatTable, type Row } from "./table.js";

const COLD_START_RUNS = 15;
const ENGINE_REPETITIONS = 5;
const DELAYED_REPETITIONS = 3;
const CALL_DELAY_MS = 200;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const mb = (value: number) => `${value.toFixed(1)} MB`;
const verdict = (pass: boolean) => (pass ? "PASS" : "MISS");

function coldStart(): Row[] {
  const [help, bare] = timeInterleaved(
    [
      ["dist/src/cli.js", "--help"],
      ["-e", "0"],
    ],
    {
      runs: COLD_START_RUNS,
      warmups: 2,
    },
  );
  const helpMs = median(help!);
  const bareMs = median(bare!);
  const ratio = helpMs / bareMs;
  return [
    { figure: "coord --help, median of 15", value: ms(helpMs) },
    { figure: "node -e 0, median of 15", value: ms(bareMs) },
    {
      figure: "  --help / bare node",
      value: `${ratio.toFixed(2)}×`,
      target: "≤ 2.00×",
      status: verdict(ratio <= 2),
    },
  ];
}

function engine(agents: number, targetMs: number): Row[] {
  const runs: EngineRunResult[] = [];
  for (let index = 0; index < ENGINE_REPETITIONS; index++) runs.push(engineRun(agents));
  const wallMs = median(runs.map((run) => run.wallMs));
  const calls = runs[0]!.modelCalls;
  const range = `${ms(Math.min(...runs.map((run) => run.wallMs)))}–${ms(Math.max(...runs.map((run) => run.wallMs)))}`;
  return [
    {
      figure: `engine ${agents} agents, median of ${ENGINE_REPETITIONS}`,
      value: ms(wallMs),
      target: `< ${targetMs} ms`,
      status: verdict(wallMs < targetMs),
      note: `range ${range}; ${calls} model calls`,
    },
    {
      figure: `  peak RSS, ${agents} agents`,
      value: mb(median(runs.map((run) => run.peakRssMb))),
      note: `baseline before the run ${mb(median(runs.map((run) => run.baselineRssMb)))}`,
    },
  ];
}

function delayedBackend(): Row[] {
  const runs: EngineRunResult[] = [];
  for (let index = 0; index < DELAYED_REPETITIONS; index++) {
    runs.push(engineRun(3, CALL_DELAY_MS));
  }
  const wallMs = median(runs.map((run) => run.wallMs));
  const waves = runs[0]!.waves;
  const idealMs = waves * CALL_DELAY_MS;
  const overhead = (wallMs - idealMs) / idealMs;
  return [
    {
      figure: `3 agents, ${CALL_DELAY_MS} ms/call, median of ${DELAYED_REPETITIONS}`,
      value: ms(wallMs),
      note: `ideal ${waves} waves × ${CALL_DELAY_MS} ms = ${idealMs} ms`,
    },
    {
      figure: "  overhead over ideal",
      value: `${(overhead * 100).toFixed(1)} %`,
      target: "≤ 15 %",
      status: verdict(overhead <= 0.15),
    },
  ];
}

async function modelCalls(): Promise<Row[]> {
  const { events } = await runScripted(allAgree, { clock: createVirtualClock() });
  const calls = events.filter((event) => event.type === "usage").length;
  return [
    {
      figure: "model calls, 3 agents agree",
      value: String(calls),
      target: "= 7",
      status: verdict(calls === 7),
    },
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const rows: Row[] = [
    ...coldStart(),
    ...engine(3, 100),
    ...engine(50, 3000),
    ...delayedBackend(),
    ...(await modelCalls()),
    ...(await serveRows()),
    ...(await memoryRows()),
  ];
  process.stdout.write(`coord bench (node ${process.version}, ${process.platform})\n\n`);
  process.stdout.write(`${formatTable(rows)}\n`);
  const misses = rows.filter((row) => row.status === "MISS").length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    `\n${misses === 0 ? "all targets met" : `${misses} target(s) missed`} (informational); bench took ${seconds} s\n`,
  );
}

await main();
