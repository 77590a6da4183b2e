/**
 * Single agent (`--single-agent [ID]`, or a config with one agent; docs/coordination.md "Other
 * modes"): the agent answers once and its answer is final; no vote, no presentation.
 */
import { firstWithAnswer } from "./answers.js";
import { oneAnswerMode } from "./one-answer.js";

export const singleMode = oneAnswerMode({
  name: "single",
  chooseWinner(_end, context) {
    const first = firstWithAnswer(context);
    return first === undefined ? undefined : { presenter: first, basis: "single" };
  },
  skipPresentation: () => true,
});
