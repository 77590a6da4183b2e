/**
 * The phases of `coord eval` (docs/eval.md "Method"), over the results file so that an
 * interrupted eval resumes where it stopped:
 *
 * 1. every item: the team, the quick team (`--with-quick`), every agent alone;
 * 2. k from the team's mean calls per item (or `--sc-k`), then the baseline agent's samples 2…k;
 * 3. with `--scorer judge`: a verdict on every distinct answer not judged yet.
 *
 * Runs go `concurrency` at a time. A run is recorded once it ends; a run stopped by Ctrl+C is not
 * (it runs again on resume). A run already recorded as completed, or with an answer, is not run
 * again. Five failed runs in a row stop the eval: a bad key or a down provider should not
 * be paid for in time over a whole data set.
 */
import { ExecutionError } from "../errors.js";
import { chooseBaseline, tokenMatchedK } from "./baseline.js";
import { judgeQuestion, parseVerdict } from "./judge.js";
import { answerSha256, baseOutcomes } from "./outcomes.js";
import {
  agentRun,
  firstPhaseRuns,
  matchedK,
  type RunSpec,
  samplingRuns,
  TEAM_RUN,
  type TeamShape,
} from "./plan.js";
import type { Progress, RunningScore } from "./progress.js";
import {
  judgeKey,
  type JudgeRecord,
  RESULTS_VERSION,
  type ResultsFile,
  type RunRecord,
} from "./results-file.js";
import type { EvalItem, Scorer } from "./scorers.js";
import type { RunQuestion, RunRequest, RunSpend } from "./team-runner.js";

/** Failed runs in a row that stop the eval. */
export const MAX_FAILED_RUNS_IN_A_ROW = 5;

/** The judge: how its runs start. */
export interface JudgeRunner {
  runQuestion: RunQuestion;
  mode: RunRequest["mode"];
  agentIndexes: readonly number[];
}

/** Everything the phases need. */
export interface EvalPhasesOptions {
  items: readonly EvalItem[];
  scorer: Scorer;
  team: TeamShape;
  results: ResultsFile;
  runQuestion: RunQuestion;
  /** Required with the judge scorer. */
  judge?: JudgeRunner | undefined;
  /** `--sc-k`; default: matched to the team's calls. */
  scK?: number | undefined;
  concurrency: number;
  /** Ctrl+C: in-flight runs stop and are not recorded. */
  signal: AbortSignal;
  progress: Progress;
  /** Epoch ms (injected for tests). */
  now: () => number;
  /**
   * Waits `ms` (rejects when the signal aborts): the progress line is redrawn every
   * {@link HEARTBEAT_MS} while runs are in flight. Absent: only when a run ends.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The progress line's heartbeat while runs are in flight (ms). */
export const HEARTBEAT_MS = 30_000;

export { chooseBaseline, MAX_TOKEN_K_FACTOR } from "./baseline.js";

/** How the phases ended. */
export interface EvalPhasesResult {
  /** True when the signal stopped the eval; the results so far are in the file. */
  interrupted: boolean;
  k: number;
  kSource: "matched" | "flag";
  teamCallsPerItem: number | null;
  /**
   * Self-consistency's k matched on tokens: the team's mean tokens per item over the baseline
   * agent's mean tokens per single run, rounded, at least 1, at most 3 × k
   * (`./baseline.ts`); null when not measured (`--sc-k`, nothing recorded).
   */
  kTokens: number | null;
  /** The self-consistency agent: `--baseline-agent`, else the best agent alone (see below). */
  baselineId: string;
  /**
   * `flag`: `--baseline-agent`; `best`: the agent with the most right answers alone on these
   * items (ties: config order; optimistic for the baseline); `first`: the first agent (the judge
   * scorer cannot rank agents before judging).
   */
  baselineSource: "flag" | "best" | "first";
}

/** One run still to do. */
export interface PendingRun {
  item: EvalItem;
  spec: RunSpec;
}

/** Whether a run must (still) be done: never recorded, or recorded without an answer and not completed. */
export function needsRun(record: RunRecord | undefined): boolean {
  return record === undefined || (record.status !== "completed" && record.answer === null);
}

/** The runs of `specs` still to do for `items`, item by item. */
export function pendingRuns(
  items: readonly EvalItem[],
  specs: readonly RunSpec[],
  results: Pick<ResultsFile, "runs">,
): PendingRun[] {
  return items.flatMap((item) =>
    specs
      .filter((spec) => needsRun(results.runs.get(spec.key)?.get(item.id)))
      .map((spec) => ({ item, spec })),
  );
}

/**
 * Runs the phases that are not done yet.
 * @throws ExecutionError after {@link MAX_FAILED_RUNS_IN_A_ROW} failed runs in a row.
 * @throws ConfigError from the first run when a key or model file is missing.
 */
export async function runEvalPhases(options: EvalPhasesOptions): Promise<EvalPhasesResult> {
  const { items, team, results } = options;
  const ids = items.map((item) => item.id);
  const scores = runningScores(options);

  await runPhase(
    options,
    "team and agents",
    pendingRuns(items, firstPhaseRuns(team), results),
    scores,
  );
  const matched = matchedK(results.runs.get(TEAM_RUN), ids);
  const k = options.scK ?? matched?.k ?? 1;
  const baseline = chooseBaseline(options);
  const sampled: TeamShape = { ...team, baselineId: baseline.id };
  const kTokens = options.scK === undefined ? tokenMatchedK(options, baseline.id, k) : null;
  const facts = {
    k,
    kSource: options.scK === undefined ? ("matched" as const) : ("flag" as const),
    teamCallsPerItem: matched?.teamCallsPerItem ?? null,
    kTokens,
    baselineId: baseline.id,
    baselineSource: baseline.source,
  };
  if (options.signal.aborted) return { interrupted: true, ...facts };

  const samples = Math.max(k, kTokens ?? 0);
  await runPhase(
    options,
    `self-consistency ${baseline.id} ×${samples}`,
    pendingRuns(items, samplingRuns(sampled, samples), results),
    [],
  );
  if (options.signal.aborted) return { interrupted: true, ...facts };

  if (options.scorer.correct === undefined) {
    await judgePhase({ ...options, team: sampled }, k);
    if (options.signal.aborted) return { interrupted: true, ...facts };
  }
  return { interrupted: false, ...facts };
}

/** The progress line's running accuracies: the team and the baseline agent (not with the judge). */
function runningScores(options: EvalPhasesOptions): Map<string, RunningScore> {
  const scores = new Map<string, RunningScore>();
  const { scorer } = options;
  if (scorer.correct === undefined) return scores;
  const tracked = [
    [TEAM_RUN, "team"],
    [agentRun(options.team.baselineId), options.team.baselineId],
  ] as const;
  for (const [key, label] of tracked) {
    const score = { label, correct: 0, n: 0 };
    const stored = options.results.runs.get(key);
    for (const item of options.items) {
      const record = stored?.get(item.id);
      if (record === undefined || needsRun(record)) continue;
      score.n++;
      if (scorer.correct(record.answer, item)) score.correct++;
    }
    scores.set(key, score);
  }
  return scores;
}

async function runPhase(
  options: EvalPhasesOptions,
  phase: string,
  pending: readonly PendingRun[],
  scores: Map<string, RunningScore> | [],
): Promise<void> {
  if (pending.length === 0) return;
  const started = options.now();
  const totalWeight = pending.reduce((sum, run) => sum + run.spec.expectedCalls, 0);
  let doneRuns = 0;
  let doneWeight = 0;
  let failedInARow = 0;
  // Calls and tokens of the phase so far: finished runs, plus each run in flight's running totals.
  const finished: RunSpend = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const inFlight = new Map<object, RunSpend>();
  const spent = () => {
    const all = [finished, ...inFlight.values()];
    return {
      calls: all.reduce((total, spend) => total + spend.calls, 0),
      tokens: all.reduce((total, spend) => total + spend.inputTokens + spend.outputTokens, 0),
    };
  };
  const snapshot = () => ({
    phase,
    doneRuns,
    totalRuns: pending.length,
    doneWeight,
    totalWeight,
    elapsedMs: options.now() - started,
    scores: scores instanceof Map ? [...scores.values()] : [],
    spent: spent(),
  });
  options.progress.update(snapshot());
  const heartbeat = new AbortController();
  void (async () => {
    if (options.sleep === undefined) return;
    try {
      for (;;) {
        await options.sleep(HEARTBEAT_MS, heartbeat.signal);
        options.progress.update(snapshot());
      }
    } catch {
      // the phase ended
    }
  })();
  try {
    await runPool(pending, options.concurrency, options.signal, async ({ item, spec }, signal) => {
      const token = {};
      const facts = await options
        .runQuestion({
          mode: spec.mode,
          agentIndexes: spec.agentIndexes,
          logGroup: spec.logGroup,
          question: item.question,
          signal,
          onSpend: (spend) => inFlight.set(token, spend),
        })
        .finally(() => inFlight.delete(token));
      finished.calls += facts.calls;
      finished.inputTokens += facts.input_tokens;
      finished.outputTokens += facts.output_tokens;
      if (signal.aborted) return; // stopped: not recorded, runs again on resume
      const record: RunRecord = {
        type: "run",
        v: RESULTS_VERSION,
        item: item.id,
        run: spec.key,
        ...facts,
        time: new Date(options.now()).toISOString(),
      };
      await options.results.append(record);
      doneRuns++;
      doneWeight += spec.expectedCalls;
      const score = scores instanceof Map ? scores.get(spec.key) : undefined;
      if (score && !needsRun(record)) {
        score.n++;
        if (options.scorer.correct?.(record.answer, item)) score.correct++;
      }
      options.progress.update(snapshot());
      failedInARow = needsRun(record) ? failedInARow + 1 : 0;
      if (failedInARow >= MAX_FAILED_RUNS_IN_A_ROW) {
        throw new ExecutionError(
          `${failedInARow} runs in a row failed (the last, ${spec.key} on item ${item.id}: ${record.error ?? "no answer"}); the eval stopped — fix the cause and run the same command to resume`,
        );
      }
    });
  } finally {
    heartbeat.abort();
    options.progress.end(snapshot());
  }
}

/** One answer the judge has not given a verdict on yet. */
export interface PendingJudgement {
  item: EvalItem;
  answer: string;
  /** SHA-256 of the answer (src/eval/outcomes.ts `answerSha256`). */
  sha: string;
}

/**
 * The distinct answers of the recorded runs (every method, self-consistency's winner with `k`
 * samples) that have no verdict yet (none stored, or a failed judge run), item by item.
 */
export function pendingJudgements(options: {
  items: readonly EvalItem[];
  scorer: Scorer;
  results: Pick<ResultsFile, "runs" | "judges">;
  team: TeamShape;
  k: number;
}): PendingJudgement[] {
  const base = baseOutcomes(options);
  const pending = new Map<string, PendingJudgement>();
  const methods = [base.team, base.quick, base.selfConsistency, ...base.agents.values()];
  for (const item of options.items) {
    for (const outcomes of methods) {
      const answer = outcomes?.get(item.id)?.answer;
      if (answer === null || answer === undefined) continue;
      const sha = answerSha256(answer);
      const key = judgeKey(item.id, sha);
      const stored = options.results.judges.get(key);
      if (stored?.verdict === null || stored === undefined) pending.set(key, { item, answer, sha });
    }
  }
  return [...pending.values()];
}

async function judgePhase(options: EvalPhasesOptions, k: number): Promise<void> {
  const judge = options.judge;
  if (judge === undefined) throw new Error("the judge scorer needs a judge runner");
  const tasks = pendingJudgements({ ...options, k });
  if (tasks.length === 0) return;
  const started = options.now();
  let done = 0;
  const snapshot = () => ({
    phase: "judge",
    doneRuns: done,
    totalRuns: tasks.length,
    doneWeight: done,
    totalWeight: tasks.length,
    elapsedMs: options.now() - started,
    scores: [],
  });
  try {
    await runPool(tasks, options.concurrency, options.signal, async (task, signal) => {
      const facts = await judge.runQuestion({
        mode: judge.mode,
        agentIndexes: judge.agentIndexes,
        logGroup: "judge",
        question: judgeQuestion({
          question: task.item.question,
          reference: options.scorer.reference(task.item),
          answer: task.answer,
        }),
        signal,
      });
      if (signal.aborted) return;
      const { answer: reply, ...spend } = facts;
      const record: JudgeRecord = {
        type: "judge",
        v: RESULTS_VERSION,
        item: task.item.id,
        answer_sha256: task.sha,
        verdict: reply === null ? null : parseVerdict(reply),
        reply: reply === null ? null : reply.slice(0, 300),
        ...spend,
        time: new Date(options.now()).toISOString(),
      };
      await options.results.append(record);
      done++;
      options.progress.update(snapshot());
    });
  } finally {
    options.progress.end(snapshot());
  }
}

/**
 * Runs `worker` over `tasks`, at most `concurrency` at once, in order. Stops starting tasks when
 * `signal` aborts; when a worker throws, the others' signal is aborted and the error rethrown
 * once they have ended.
 */
export async function runPool<T>(
  tasks: readonly T[],
  concurrency: number,
  signal: AbortSignal,
  worker: (task: T, signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const inner = new AbortController();
  const forward = () => inner.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener("abort", forward, { once: true });
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (!inner.signal.aborted && next < tasks.length) {
      const task = tasks[next++]!;
      try {
        await worker(task, inner.signal);
      } catch (error) {
        failure ??= { error };
        inner.abort(error);
      }
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, lane),
    );
  } finally {
    signal.removeEventListener("abort", forward);
  }
  if (failure) throw failure.error;
}
