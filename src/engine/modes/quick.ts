/**
 * Quick mode, "refine off" (COORDINATION.md "Other modes"): every agent gives exactly one answer
 * in parallel; no votes and no refinement, so agreeing answers are all accepted (there is nothing
 * to vote for instead); the presenter (`presenter_agent`, else the first agent) writes the final
 * answer from all answers in one round. Three agents that agree cost 3 answers + 1 final.
 */
import { coordinationSystemPrompt } from "../prompts.js";
import { newAnswerTool } from "../workflow-tools.js";
import { firstWithAnswer, presenterOf, recordAnswer } from "./answers.js";
import type { CoordinationModeSpec } from "./mode.js";

export const quickMode: CoordinationModeSpec = {
  name: "quick",
  workflowToolNames: ["new_answer"],
  workflowTools: () => [newAnswerTool()],
  systemPrompt: (agent, context) =>
    coordinationSystemPrompt({
      systemMessage: agent.agent.systemMessage,
      persona: agent.agent.persona,
      teamSize: context.team.agents.length,
      sensitivity: context.settings.voting_sensitivity,
      canAnswer: true,
      canVote: false,
    }),
  isDue: (agent) => agent.answerCount === 0,
  submit(agent, call, _seenVersion, context) {
    if (call.kind !== "new_answer" || agent.answerCount > 0) {
      return { status: "invalid", message: "Give your one answer with new_answer." };
    }
    return recordAnswer(agent, call.content, context);
  },
  isDone: (live) => live.every((agent) => agent.answerCount > 0),
  chooseWinner(_end, context) {
    const first = firstWithAnswer(context);
    if (first === undefined) return undefined;
    return { presenter: presenterOf(context, first), basis: "quick" };
  },
  // With one agent its answer is final; otherwise the presenter always merges the answers.
  skipPresentation: (_choice, context) => context.team.agents.length === 1,
};
