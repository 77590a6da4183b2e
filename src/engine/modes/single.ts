/**
 * Single agent (`--single-agent [ID]`, or a config with one agent; COORDINATION.md "Other
 * modes"): the agent answers once and its answer is final; no vote, no presentation.
 */
import { coordinationSystemPrompt } from "../prompts.js";
import { newAnswerTool } from "../workflow-tools.js";
import { firstWithAnswer, recordAnswer } from "./answers.js";
import type { CoordinationModeSpec } from "./mode.js";

export const singleMode: CoordinationModeSpec = {
  name: "single",
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
      return { status: "invalid", message: "Give your answer with new_answer." };
    }
    return recordAnswer(agent, call.content, context);
  },
  isDone: (live) => live.every((agent) => agent.answerCount > 0),
  chooseWinner(_end, context) {
    const first = firstWithAnswer(context);
    return first === undefined ? undefined : { presenter: first, basis: "single" };
  },
  skipPresentation: () => true,
};
