/**
 * Voting mode, the default (docs/coordination.md "Voting mode"): agents answer, read the anonymous
 * answers, and either vote for the best or give a better answer; a new answer clears the votes;
 * done when every live agent holds a valid vote; the plurality winner presents.
 */
import { coordinationSystemPrompt } from "../prompts.js";
import { newAnswerTool, voteTool } from "../workflow-tools.js";
import {
  firstWithAnswer,
  recordAnswer,
  refuseOverCap,
  refuseUnoriginal,
  submitVote,
  withinAnswerCaps,
  personaOf,
} from "./answers.js";
import type { CoordinationModeSpec, ModeContext } from "./mode.js";

const canVote = (context: ModeContext) => context.team.version > 0;

export const votingMode: CoordinationModeSpec = {
  name: "voting",
  workflowToolNames: ["new_answer", "vote"],

  workflowTools(agent, context) {
    const tools = [];
    if (withinAnswerCaps(agent, context)) tools.push(newAnswerTool());
    if (canVote(context))
      tools.push(voteTool(context.team.visibleAnswers().map((answer) => answer.anonId)));
    return tools;
  },

  systemPrompt(agent, context) {
    return coordinationSystemPrompt({
      systemMessage: agent.agent.systemMessage,
      persona: personaOf(agent, context),
      teamSize: context.team.agents.length,
      sensitivity: context.settings.voting_sensitivity,
      canAnswer: withinAnswerCaps(agent, context),
      canVote: canVote(context),
    });
  },

  isDue(agent, context) {
    // Restart only agents without a valid vote: after a new answer, a reset, or a failure. With
    // deferral, nobody starts voting before every live agent has answered (step 5).
    if (agent.vote !== undefined) return false;
    if (agent.answerCount === 0 || !context.settings.defer_voting_until_all_answered) return true;
    // An agent whose identical answer was refused has been shown an answer and most likely votes
    // in the same round: waiting for that vote would cost a whole wave.
    return context.team
      .live()
      .every((other) => other.answerCount > 0 || other.vote !== undefined || other.refusedAsCopy);
  },

  submit(agent, call, seenVersion, context) {
    if (call.kind === "vote") return submitVote(agent, call, seenVersion, context);
    if (call.kind !== "new_answer") {
      return { status: "invalid", message: "End your turn with new_answer or vote." };
    }
    const overCap = refuseOverCap(agent, context);
    if (overCap !== undefined) return { status: "invalid", message: overCap };
    // Re-submitting an answer that already exists, word for word, is agreement: it counts as a
    // vote for that answer (real models re-submit instead of voting).
    const same = context.team.agents.find((other) => other.answer?.content === call.content);
    if (same !== undefined && canVote(context)) {
      // It most likely votes in this same round: deferral no longer waits for it.
      agent.refusedAsCopy = true;
      const reason = "re-submitted this answer word for word (heard as a vote)";
      const vote = { kind: "vote", call: call.call, agentId: same.anonId, reason } as const;
      return submitVote(agent, vote, seenVersion, context);
    }
    const refusal = refuseUnoriginal(call.content, context);
    if (refusal !== undefined) return { status: "invalid", message: refusal };
    const result = recordAnswer(agent, call.content, context);
    context.team.noteAnswer(agent, call.shortAnswer);
    return result;
  },

  isDone: (live) => live.every((agent) => agent.vote !== undefined),

  // The team's tally by conclusion groups (`../selection.ts`): a majority of the current votes,
  // else the evidence of the whole run; with no votes at all the same ranking applies.
  chooseWinner(end, context) {
    const first = firstWithAnswer(context);
    if (first === undefined) return undefined;
    const winner = context.team.tally()?.winner ?? first;
    return { presenter: winner, basis: end === "timeout" ? "timeout" : "votes" };
  },

  skipPresentation: (_choice, context) => context.settings.skip_final_presentation,
};
