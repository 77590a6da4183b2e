/**
 * Decomposition mode (`--coordination-mode decomposition`; docs/coordination.md "Other modes"):
 * each agent owns one subtask (its config `subtask:`, else the decomposer's, see `decomposer.ts`),
 * works on it, reads the others' answers where they meet its own, refines with `new_answer`, and
 * ends with `stop(status, summary)` (`complete` or `blocked`) instead of a vote.
 *
 * - A stopped agent is due again as soon as an answer it has not seen exists: any new answer
 *   wakes it (and a stop made while a new answer arrived is followed by a round that shows it).
 * - `max_new_answers_per_agent` counts answers in a row given without news from the others
 *   (default {@link DEFAULT_ANSWERS_WITHOUT_NEWS}); reaching it stops the agent (`stop` event,
 *   `cause: answer-cap`). `max_new_answers_global` caps all answers: then only `stop` is offered.
 * - `answer_novelty_requirement` refuses a part identical to (or, balanced/strict, too similar
 *   to) another agent's current part, and a part identical to the agent's own current one.
 * - Done when every live agent has stopped. The presenter (`presenter_agent`, else the first
 *   agent) integrates every part; with `skip_final_presentation` the parts joined in config order
 *   are the final answer.
 */
import { decompositionSystemPrompt, FALLBACK_SUBTASK } from "./decomposition-prompts.js";
import {
  integrationSystemPrompt,
  integrationUserMessage,
  joinedParts,
  type IntegrationPart,
} from "./decomposition-prompts.js";
import { assignSubtasks } from "./decomposer.js";
import { jaccard, NOVELTY_THRESHOLDS } from "../novelty.js";
import { personaPrompt } from "../prompts.js";
import type { SubmitResult } from "../agent-round.js";
import type { AgentState } from "../team.js";
import { newAnswerTool, stopTool, type WorkflowCall } from "../workflow-tools.js";
import {
  DEFAULT_MAX_ANSWERS_PER_AGENT,
  firstWithAnswer,
  personaOf,
  presenterOf,
  recordAnswer,
} from "./answers.js";
import type { CoordinationModeSpec, ModeContext } from "./mode.js";

/** Answers in a row without news that stop an agent when `max_new_answers_per_agent` is unset. */
export const DEFAULT_ANSWERS_WITHOUT_NEWS = 3;

const answerCap = (context: ModeContext): number =>
  context.settings.max_new_answers_per_agent ?? DEFAULT_ANSWERS_WITHOUT_NEWS;

/** Answers one agent may give in a run: with news in between they could go on for ever. */
const totalCap = (context: ModeContext): number =>
  Math.max(answerCap(context), DEFAULT_MAX_ANSWERS_PER_AGENT);

/** True while `agent` may still give an answer (the team's and its own run-wide caps). */
const mayAnswer = (agent: AgentState, context: ModeContext): boolean =>
  withinGlobalCap(context) && agent.answerCount < totalCap(context);

const withinGlobalCap = (context: ModeContext): boolean => {
  const global = context.settings.max_new_answers_global;
  return global === undefined || context.team.version < global;
};

export const decompositionMode: CoordinationModeSpec = {
  name: "decomposition",
  workflowToolNames: ["new_answer", "stop"],

  workflowTools: (agent, context) =>
    mayAnswer(agent, context) ? [newAnswerTool(), stopTool()] : [stopTool()],

  systemPrompt: (agent, context) =>
    decompositionSystemPrompt({
      persona: personaOf(agent, context),
      systemMessage: agent.agent.systemMessage,
      anonId: agent.anonId,
      subtasks: context.team.agents.map((member) => ({
        anonId: member.anonId,
        subtask: member.subtask ?? FALLBACK_SUBTASK,
      })),
      canAnswer: mayAnswer(agent, context),
    }),

  isDue(agent, context) {
    // A stopped agent wakes for news, unless it has no answer left to give.
    if (agent.stop !== undefined)
      return mayAnswer(agent, context) && context.team.unseenLabels(agent).length > 0;
    if (agent.answerCount === 0 || !context.settings.defer_voting_until_all_answered) return true;
    // As in voting mode (step 5): a second round waits until every live agent has a part.
    return context.team.live().every((other) => other.answerCount > 0 || other.stop !== undefined);
  },

  submit(agent, call, seenVersion, context) {
    if (call.kind === "stop") return submitStop(agent, call, context);
    if (call.kind !== "new_answer") {
      return { status: "invalid", message: "End your turn with new_answer or stop." };
    }
    if (!withinGlobalCap(context)) {
      return {
        status: "invalid",
        message:
          "The team has reached its answer limit (max_new_answers_global); call stop instead.",
      };
    }
    if (!mayAnswer(agent, context)) {
      return {
        status: "invalid",
        message: `You have given ${agent.answerCount} answers, your limit in a run; call stop instead.`,
      };
    }
    // A part identical to one that exists is agreement (a question with nothing to split): its
    // own unchanged part is heard as `stop(complete)`, another's is taken as its part too.
    if (agent.answer?.content === call.content) {
      stopAtCap(agent, "re-submitted its part unchanged (heard as stop: complete)", context);
      return { status: "accepted", outcome: "stop" };
    }
    const copied = context.team.agents.find(
      (other) => other !== agent && other.answer?.content === call.content,
    );
    const refusal = copied === undefined ? refuseCopy(agent, call.content, context) : undefined;
    if (refusal !== undefined) return { status: "invalid", message: refusal };
    const peerAnswers = peerAnswersBefore(agent, seenVersion, context);
    agent.answersWithoutNews =
      peerAnswers > agent.peerAnswersSeen ? 1 : agent.answersWithoutNews + 1;
    agent.peerAnswersSeen = peerAnswers;
    const result = recordAnswer(agent, call.content, context);
    const cap = answerCap(context);
    const total = totalCap(context);
    if (copied !== undefined) {
      // It wrote that part word for word: it has read it, and its news need not wake it.
      if (copied.answer !== undefined) agent.seenLabels.add(copied.answer.label);
      stopAtCap(
        agent,
        `gave ${copied.anonId}'s part word for word: agreement, nothing left to split`,
        context,
      );
    } else if (agent.answersWithoutNews >= cap) {
      const summary = `gave ${agent.answersWithoutNews} answer${agent.answersWithoutNews === 1 ? "" : "s"} in a row without news from the other agents (max_new_answers_per_agent: ${cap})`;
      stopAtCap(agent, summary, context);
    } else if (agent.answerCount >= total) {
      stopAtCap(
        agent,
        `gave ${agent.answerCount} answers, its limit in a run (${total}, or max_new_answers_per_agent if larger)`,
        context,
      );
    }
    return result;
  },

  isDone: (live) => live.every((agent) => agent.stop !== undefined),

  chooseWinner(_end, context) {
    const first = firstWithAnswer(context);
    if (first === undefined) return undefined;
    return { presenter: presenterOf(context, first), basis: "decomposition" };
  },

  skipPresentation: (_choice, context) =>
    context.team.agents.length === 1 || context.settings.skip_final_presentation,

  prepare: (context) => assignSubtasks(context),

  presentation({ presenter }, context, conversation) {
    const parts: IntegrationPart[] = context.team.agents.map((agent) => ({
      agentId: agent.agent.id,
      label: agent.answer?.label,
      subtask: agent.subtask ?? FALLBACK_SUBTASK,
      content: agent.answer?.content,
      stop: agent.stop,
    }));
    return {
      system: integrationSystemPrompt(
        presenter.agent.systemMessage,
        personaPrompt(presenter.persona, true),
      ),
      userMessage: integrationUserMessage({
        question: conversation.question,
        history: conversation.history,
        parts,
        presenterId: presenter.agent.id,
      }),
      fallback: joinedParts(parts),
    };
  },
};

/**
 * Records a `stop`. Refused: `complete` without an answer (there is no part to be complete), and
 * `blocked` without saying why.
 */
function submitStop(
  agent: AgentState,
  call: Extract<WorkflowCall, { kind: "stop" }>,
  context: ModeContext,
): SubmitResult {
  if (call.status === "complete" && agent.answer === undefined) {
    return {
      status: "invalid",
      message:
        "You have no answer yet: give your part with new_answer first, or stop with status blocked and say why.",
    };
  }
  if (call.status === "blocked" && call.summary === "") {
    return { status: "invalid", message: "Say in summary why you are blocked." };
  }
  agent.stop = { status: call.status, summary: call.summary };
  context.emitter.emit({
    type: "stop",
    agentId: agent.agent.id,
    round: agent.rounds,
    status: call.status,
    summary: call.summary,
    cause: "agent",
  });
  return { status: "accepted", outcome: "stop" };
}

/** Stops `agent` as `complete` on the engine's account (`stop.cause: answer-cap`). */
function stopAtCap(agent: AgentState, summary: string, context: ModeContext): void {
  agent.stop = { status: "complete", summary };
  context.emitter.emit({
    type: "stop",
    agentId: agent.agent.id,
    round: agent.rounds,
    status: "complete",
    summary,
    cause: "answer-cap",
  });
}

/** Other agents' answers among the first `version` answers of the run (what the agent had seen). */
function peerAnswersBefore(agent: AgentState, version: number, context: ModeContext): number {
  const own = `${agent.anonId}.`;
  return context.team.acceptedLabels.slice(0, version).filter((label) => !label.startsWith(own))
    .length;
}

/** Why a part is refused as a copy, or undefined (see the module comment). */
function refuseCopy(agent: AgentState, content: string, context: ModeContext): string | undefined {
  if (agent.answer?.content === content) {
    return "This is your current answer unchanged: call stop if your part is done, or improve it.";
  }
  const requirement = context.settings.answer_novelty_requirement;
  const threshold = NOVELTY_THRESHOLDS[requirement];
  for (const other of context.team.agents) {
    if (other === agent || !other.answer) continue;
    if (other.answer.content === content) {
      return `This is ${other.anonId}'s part word for word: write your own subtask's part.`;
    }
    if (threshold !== undefined && jaccard(content, other.answer.content) > threshold) {
      return `This is too close to ${other.anonId}'s part (answer_novelty_requirement: ${requirement}): write your own subtask's part.`;
    }
  }
  return undefined;
}
