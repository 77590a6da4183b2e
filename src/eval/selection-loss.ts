/**
 * The team's selection loss (docs/eval.md "Selection loss"): on items where some answer
 * the team accepted was right, whether the team's final answer kept it — lost in the `vote` (the
 * winning answer was already wrong) or in the `presentation` (the winning answer was right, the
 * presented one not). Read from the team runs' recorded `answers` and `winning_answer`
 * (src/eval/results-file.ts), scored by the scorer's own rule.
 */
import type { ResultsFile } from "./results-file.js";
import type { EvalItem, Scorer } from "./scorers.js";

/** The team's selection loss over the reported items . */
export interface SelectionLoss {
  /** Items whose team run recorded its answers (the others are not counted). */
  measured: number;
  /** Of those, items where at least one accepted answer was right. */
  had_right_answer: number;
  vote_loss: number;
  presentation_loss: number;
  /** Items where the winning answer was wrong and the presentation right. */
  presentation_gain: number;
}

/**
 * The team's selection loss on the reported items: from each team run's recorded answers and
 * winning answer, scored by the scorer's own rule. Undefined with the judge scorer or when no
 * team run recorded its answers.
 */
export function selectionLosses(
  context: { scorer: Scorer; results: Pick<ResultsFile, "runs"> },
  items: readonly EvalItem[],
): { summary: SelectionLoss; byItem: Map<string, "vote" | "presentation" | null> } | undefined {
  const correct = context.scorer.correct;
  if (correct === undefined) return undefined;
  const stored = context.results.runs.get("team");
  const summary: SelectionLoss = {
    measured: 0,
    had_right_answer: 0,
    vote_loss: 0,
    presentation_loss: 0,
    presentation_gain: 0,
  };
  const byItem = new Map<string, "vote" | "presentation" | null>();
  for (const item of items) {
    const record = stored?.get(item.id);
    if (record?.answers === undefined) continue;
    summary.measured++;
    const hadRight = record.answers.some((answer) => correct(answer, item));
    const winnerRight = correct(record.winning_answer ?? null, item);
    const finalRight = correct(record.answer, item);
    if (hadRight) summary.had_right_answer++;
    let loss: "vote" | "presentation" | null = null;
    if (hadRight && !finalRight) loss = winnerRight ? "presentation" : "vote";
    if (loss === "vote") summary.vote_loss++;
    if (loss === "presentation") summary.presentation_loss++;
    if (!winnerRight && finalRight) summary.presentation_gain++;
    byItem.set(item.id, loss);
  }
  return summary.measured === 0 ? undefined : { summary, byItem };
}
