/**
 * From stored runs to scored outcomes (docs/eval.md "Method"): what each method answered on each
 * item, whether it was right, and what it spent. The team, the quick team and each agent alone
 * are one run each; self-consistency is the majority over k single-agent samples; the best agent
 * is derived from the agents' own outcomes (src/eval/report.ts).
 */
import { createHash } from "node:crypto";
import { majorityVote, QUICK_RUN, sampleRun, TEAM_RUN, agentRun, type TeamShape } from "./plan.js";
import { judgeKey, type ResultsFile, type RunRecord } from "./results-file.js";
import type { EvalItem, Scorer } from "./scorers.js";

/** What one method answered on one item, whether it was right, and what it cost. */
export interface Outcome {
  /** The final answer (for self-consistency: the winning sample's); null when none was given. */
  answer: string | null;
  /** What the scorer read from it (src/eval/scorers.ts `key`). */
  key: string | null;
  correct: boolean;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD; null when some call had no price. */
  costUsd: number | null;
  /** Wall time, ms (for several runs: their sum). */
  wallMs: number;
  /** The runs' attempt directories, relative to the eval directory. */
  logDirs: string[];
  /** Runs that did not complete (failed, timed out). */
  failedRuns: number;
}

/** SHA-256 (hex) of an answer's text: how judge verdicts are looked up. */
export function answerSha256(answer: string): string {
  return createHash("sha256").update(answer).digest("hex");
}

/** Scores answers: the scorer's own rule, or the stored judge verdict (missing → wrong). */
export function answerScorer(
  scorer: Scorer,
  judges: ResultsFile["judges"],
): (item: EvalItem, answer: string | null) => boolean {
  return (item, answer) => {
    if (scorer.correct !== undefined) return scorer.correct(answer, item);
    if (answer === null) return false;
    return judges.get(judgeKey(item.id, answerSha256(answer)))?.verdict === "correct";
  };
}

/** The outcome of the runs of one method on one item; `chosen` picks whose answer counts. */
export function combineRuns(
  records: readonly RunRecord[],
  chosen: number | null,
  item: EvalItem,
  context: { scorer: Scorer; isCorrect: (item: EvalItem, answer: string | null) => boolean },
): Outcome {
  const answer = chosen === null ? null : (records[chosen]?.answer ?? null);
  const costs = records.map((record) => record.cost_usd);
  return {
    answer,
    key: answer === null ? null : context.scorer.key(answer),
    correct: context.isCorrect(item, answer),
    calls: sum(records.map((record) => record.calls)),
    inputTokens: sum(records.map((record) => record.input_tokens)),
    outputTokens: sum(records.map((record) => record.output_tokens)),
    costUsd: costs.some((cost) => cost === null) ? null : sum(costs as number[]),
    wallMs: sum(records.map((record) => record.wall_ms)),
    logDirs: records.flatMap((record) => (record.log_dir === null ? [] : [record.log_dir])),
    failedRuns: records.filter((record) => record.status !== "completed").length,
  };
}

/** The outcomes of the run-based methods: method id → item id → outcome (absent: not run yet). */
export interface BaseOutcomes {
  team: Map<string, Outcome>;
  quick: Map<string, Outcome> | undefined;
  /** Agent id → item id → outcome of that agent alone. */
  agents: Map<string, Map<string, Outcome>>;
  selfConsistency: Map<string, Outcome>;
  /** Self-consistency over `kTokens` samples (k matched on tokens), when asked for. */
  selfConsistencyTokens: Map<string, Outcome> | undefined;
}

/**
 * Scores every stored run of the given items.
 * @param k self-consistency's sample count.
 */
export function baseOutcomes(options: {
  items: readonly EvalItem[];
  scorer: Scorer;
  results: Pick<ResultsFile, "runs" | "judges">;
  team: TeamShape;
  k: number;
  /** Also self-consistency over this many samples (k matched on tokens). */
  kTokens?: number | null | undefined;
}): BaseOutcomes {
  const { items, scorer, results, team, k } = options;
  const context = { scorer, isCorrect: answerScorer(scorer, results.judges) };
  const single = (runKey: string) => {
    const byItem = new Map<string, Outcome>();
    const stored = results.runs.get(runKey);
    for (const item of items) {
      const record = stored?.get(item.id);
      if (record !== undefined) byItem.set(item.id, combineRuns([record], 0, item, context));
    }
    return byItem;
  };
  const majorityOf = (samplesWanted: number) => {
    const byItem = new Map<string, Outcome>();
    for (const item of items) {
      const samples: RunRecord[] = [];
      for (let n = 1; n <= samplesWanted; n++) {
        const record = results.runs.get(sampleRun(team.baselineId, n))?.get(item.id);
        if (record !== undefined) samples.push(record);
      }
      if (samples.length < samplesWanted) continue;
      const vote = majorityVote(
        samples.map((record) => (record.answer === null ? null : scorer.key(record.answer))),
      );
      byItem.set(item.id, combineRuns(samples, vote.index, item, context));
    }
    return byItem;
  };
  const selfConsistency = majorityOf(k);
  const selfConsistencyTokens =
    options.kTokens === undefined || options.kTokens === null || options.kTokens === k
      ? undefined
      : majorityOf(options.kTokens);
  return {
    team: single(TEAM_RUN),
    quick: team.withQuick ? single(QUICK_RUN) : undefined,
    agents: new Map(team.agentIds.map((id) => [id, single(agentRun(id))])),
    selfConsistency,
    selfConsistencyTokens,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
