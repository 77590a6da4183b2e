/**
 * The eval's phases on an in-memory results file and a virtual clock: the self-consistency agent
 * is the best agent alone unless named, k is also matched on tokens, and while runs are in flight
 * the progress line is redrawn every 30 s with the calls and tokens spent so far.
 */
import { describe, expect, test } from "vitest";
import { createVirtualClock } from "../clock.js";
import type { ProgressSnapshot } from "./progress.js";
import { RESULTS_VERSION, type ResultsFile, type RunRecord } from "./results-file.js";
import { HEARTBEAT_MS, runEvalPhases, type EvalPhasesOptions } from "./run-eval.js";
import { createScorer, type EvalItem } from "./scorers.js";
import type { RunFacts, RunRequest } from "./team-runner.js";

const items: EvalItem[] = [1, 2, 3].map((n) => ({
  id: String(n),
  line: n,
  question: `Item ${n}`,
  answer: `#### ${n}`,
}));

function memoryResults(): ResultsFile {
  const runs = new Map<string, Map<string, RunRecord>>();
  return {
    path: "/memory/results.jsonl",
    header: {
      type: "eval",
      v: RESULTS_VERSION,
      created: "2026-01-01T00:00:00.000Z",
      dataset: "/d",
      dataset_sha256: "d",
      config: "/c",
      config_sha256: "c",
      fields: { question: "question", answer: "answer", id: null },
    },
    runs,
    judges: new Map(),
    append(record) {
      if (record.type !== "run") return Promise.resolve();
      const byItem = runs.get(record.run) ?? new Map<string, RunRecord>();
      byItem.set(record.item, record);
      runs.set(record.run, byItem);
      return Promise.resolve();
    },
  };
}

const facts = (answer: string, calls: number, tokens: number): RunFacts => ({
  answer,
  status: "completed",
  calls,
  input_tokens: tokens,
  output_tokens: 0,
  cost_usd: null,
  wall_ms: 1,
  log_dir: null,
  error: null,
});

/** Agent index → right on these items (1-based item numbers). */
const RIGHT: Record<number, number[]> = { 0: [1], 1: [1, 2, 3], 2: [2] };

function options(
  runQuestion: (request: RunRequest) => Promise<RunFacts>,
  overrides: Partial<EvalPhasesOptions> = {},
): EvalPhasesOptions & { snapshots: ProgressSnapshot[] } {
  const snapshots: ProgressSnapshot[] = [];
  const clock = createVirtualClock();
  return {
    items,
    scorer: createScorer({ name: "gsm8k" }),
    team: { mode: "voting", agentIds: ["a", "b", "c"], baselineId: "a", withQuick: false },
    results: memoryResults(),
    runQuestion,
    concurrency: 2,
    signal: new AbortController().signal,
    progress: { update: (s) => snapshots.push(s), end: (s) => snapshots.push(s) },
    now: () => clock.now(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    snapshots,
    ...overrides,
  };
}

/** The team: 4 calls and 800 tokens; an agent alone: 1 call and 100 tokens. */
async function simulated(request: RunRequest): Promise<RunFacts> {
  const item = Number(request.question.slice("Item ".length));
  if (request.agentIndexes.length > 1) return facts(`#### ${item}`, 4, 800);
  const agent = request.agentIndexes[0]!;
  return facts(RIGHT[agent]!.includes(item) ? `#### ${item}` : "#### 99", 1, 100);
}

describe("runEvalPhases", () => {
  test("self-consistency samples the best agent alone, k matched on calls and on tokens", async () => {
    const requests: RunRequest[] = [];
    const run = options((request) => {
      requests.push(request);
      return simulated(request);
    });
    const result = await runEvalPhases(run);
    // b is right alone on 3 items, a and c on 1: b is sampled, not the first agent.
    expect(result).toMatchObject({ baselineId: "b", baselineSource: "best", k: 4, kTokens: 8 });
    const samples = requests.filter((request) => request.logGroup.startsWith("sc-"));
    expect(new Set(samples.map((request) => request.logGroup))).toEqual(new Set(["sc-b"]));
    // Samples 2…8 of b (the first is b's own run) on each of 3 items.
    expect(samples).toHaveLength(7 * 3);
  });

  test("--baseline-agent is kept, and k on tokens is at most three times k", async () => {
    const run = options(simulated, {
      team: {
        mode: "voting",
        agentIds: ["a", "b", "c"],
        baselineId: "c",
        baselineFromFlag: true,
        withQuick: false,
      },
      runQuestion: async (request) => {
        const result = await simulated(request);
        return request.agentIndexes.length > 1
          ? { ...result, calls: 2, input_tokens: 5000 }
          : result;
      },
    });
    expect(await runEvalPhases(run)).toMatchObject({
      baselineId: "c",
      baselineSource: "flag",
      k: 2,
      kTokens: 6,
    });
  });

  test("a run in flight: the progress line is redrawn every 30 s with the calls and tokens so far", async () => {
    const clock = createVirtualClock();
    const run = options(
      async (request) => {
        if (request.agentIndexes.length > 1 && request.question === "Item 1") {
          // A long team run: 5 calls so far, then it goes on for 95 s more.
          request.onSpend?.({ calls: 5, inputTokens: 4000, outputTokens: 1000 });
          await clock.sleep(95_000);
        }
        return simulated(request);
      },
      {
        items: [items[0]!],
        now: () => clock.now(),
        sleep: (ms, signal) => clock.sleep(ms, signal),
      },
    );
    await runEvalPhases(run);
    const inFlight = run.snapshots.filter(
      (snapshot) => snapshot.phase === "team and agents" && snapshot.doneRuns < 4,
    );
    // Beats at 30, 60 and 90 s while the team run was in flight, each with its spend so far
    // plus the three agents' runs that had finished.
    const beats = inFlight.filter(
      (snapshot) => snapshot.elapsedMs % HEARTBEAT_MS === 0 && snapshot.elapsedMs > 0,
    );
    expect(beats.map((snapshot) => snapshot.elapsedMs)).toEqual([30_000, 60_000, 90_000]);
    expect(beats.at(-1)!.spent).toEqual({ calls: 5 + 3, tokens: 5000 + 300 });
    // Once the phase ended, no heartbeat is left waiting.
    expect(clock.pending).toBe(0);
  });
});
