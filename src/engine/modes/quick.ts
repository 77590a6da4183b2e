/**
 * Quick mode, "refine off" (docs/coordination.md "Other modes"): every agent gives exactly one
 * answer in parallel; no votes and no refinement, so agreeing answers are all accepted; the
 * presenter (`presenter_agent`, else the first agent) writes the final answer from all answers in
 * one round. Three agents that agree cost 3 answers + 1 final.
 */
import { firstWithAnswer, presenterOf } from "./answers.js";
import { oneAnswerMode } from "./one-answer.js";

export const quickMode = oneAnswerMode({
  name: "quick",
  chooseWinner(_end, context) {
    const first = firstWithAnswer(context);
    if (first === undefined) return undefined;
    return { presenter: presenterOf(context, first), basis: "quick" };
  },
  // With one agent its answer is final; otherwise the presenter always merges the answers.
  skipPresentation: (_choice, context) => context.team.agents.length === 1,
});
