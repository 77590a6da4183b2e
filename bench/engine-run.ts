/**
 * One engine run in this process, for `bench/run.ts`: `node dist/bench/engine-run.js <agents>
 * [delayMs]` runs `agreeingTeam(agents, delayMs)` in voting mode on the real system clock and
 * prints one JSON line, {@link EngineRunResult}. Each run gets a fresh process so the peak RSS
 * is that run's (plus Node's own baseline, reported separately).
 *
 * Exits 1 (with the reason on stderr) if the run does not complete or a script is not played
 * exactly, so a broken engine never yields a plausible-looking figure.
 */
import { performance } from "node:perf_hooks";
import { systemClock } from "../src/clock.js";
import type { CoordEvent } from "../src/events/events.js";
import { runCoordination } from "../src/engine/run.js";
import { agreeingTeam } from "../src/engine/scenarios.js";
import { DEFAULT_SETTINGS, scriptedTeam } from "../src/engine/test-helpers.js";

/** What the child prints. Times in ms, memory in MiB (`maxRSS` is KiB on every platform). */
export interface EngineRunResult {
  agents: number;
  delayMs: number;
  /** Wall time from `runCoordination` to the end of its event stream. */
  wallMs: number;
  /** Peak resident set size of the whole process after the run. */
  peakRssMb: number;
  /** Peak RSS before the run: Node plus the loaded modules. */
  baselineRssMb: number;
  /** `usage` events: one per model call. */
  modelCalls: number;
  /** Most calls any one agent made: the run's waves when every call takes the same time. */
  waves: number;
  events: number;
}

const rssMb = () => process.resourceUsage().maxRSS / 1024;

async function main(): Promise<void> {
  const agents = Number(process.argv[2]);
  const delayMs = Number(process.argv[3] ?? 0);
  if (!Number.isInteger(agents) || agents < 1 || !Number.isFinite(delayMs) || delayMs < 0) {
    throw new Error("usage: engine-run.js <agents ≥ 1> [delayMs ≥ 0]");
  }
  const { agents: team, backends } = scriptedTeam(agreeingTeam(agents, delayMs), systemClock);
  const baselineRssMb = rssMb();

  const events: CoordEvent[] = [];
  const started = performance.now();
  for await (const event of runCoordination({
    runId: "run_bench",
    question: "What is 2+2?",
    mode: "voting",
    orchestratorTimeoutMs: 1_800_000,
    clock: systemClock,
    settings: DEFAULT_SETTINGS,
    agents: team,
  })) {
    events.push(event);
  }
  const wallMs = performance.now() - started;
  const peakRssMb = rssMb();

  const end = events.at(-1);
  if (end?.type !== "run-end" || end.reason !== "completed") {
    throw new Error(`run did not complete: ${JSON.stringify(end)}`);
  }
  for (const backend of Object.values(backends)) backend.assertDone();

  const callsByAgent = new Map<string, number>();
  for (const event of events) {
    if (event.type === "usage" && event.agentId !== undefined) {
      callsByAgent.set(event.agentId, (callsByAgent.get(event.agentId) ?? 0) + 1);
    }
  }
  const result: EngineRunResult = {
    agents,
    delayMs,
    wallMs,
    peakRssMb,
    baselineRssMb,
    modelCalls: events.filter((event) => event.type === "usage").length,
    waves: Math.max(0, ...callsByAgent.values()),
    events: events.length,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`engine-run: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
