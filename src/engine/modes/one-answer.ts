/**
 * Modes where every agent gives exactly one answer and nobody votes (quick, single agent):
 * agents are due until they have answered, any answer is accepted (agreeing answers too: there
 * is nothing to vote for instead), and coordination is done once every live agent answered. The
 * modes differ only in who presents and whether the presentation is a model call.
 */
import { coordinationSystemPrompt } from "../prompts.js";
import { newAnswerTool } from "../workflow-tools.js";
import { personaOf, recordAnswer } from "./answers.js";
import type { CoordinationModeSpec } from "./mode.js";

/** A one-answer-each mode with its own winner and presentation rules. */
export function oneAnswerMode(
  spec: Pick<CoordinationModeSpec, "name" | "chooseWinner" | "skipPresentation">,
): CoordinationModeSpec {
  return {
    ...spec,
    workflowToolNames: ["new_answer"],
    textAtOnce: true,
    workflowTools: () => [newAnswerTool()],
    systemPrompt: (agent, context) =>
      coordinationSystemPrompt({
        systemMessage: agent.agent.systemMessage,
        persona: personaOf(agent, context),
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
  };
}
