/**
 * The workflow actions modes share (docs/coordination.md "Voting mode" steps 2, 3 and 6): recording
 * an answer (it replaces the author's previous one, clears every vote and bumps the answer-set
 * version), checking a new answer against the current ones, and recording a vote or refusing a
 * stale one.
 */
import { jaccard, NOVELTY_THRESHOLDS } from "../novelty.js";
import { personaPrompt, staleVoteMessage } from "../prompts.js";
import type { SubmitResult } from "../agent-round.js";
import type { AgentState } from "../team.js";
import type { WorkflowCall } from "../workflow-tools.js";
import type { ModeContext } from "./mode.js";

/**
 * Answers one agent may give in a run when `max_new_answers_per_agent` is unset
 * (docs/real-models.md): every run is bounded even when a model never votes. Decomposition reads
 * the key otherwise.
 */
export const DEFAULT_MAX_ANSWERS_PER_AGENT = 5;

/** True while `agent` may still give a new answer under the caps (`max_new_answers_*`). */
export function withinAnswerCaps(agent: AgentState, context: ModeContext): boolean {
  const { max_new_answers_per_agent: given, max_new_answers_global: global } = context.settings;
  const perAgent = given ?? DEFAULT_MAX_ANSWERS_PER_AGENT;
  if (agent.answerCount >= perAgent) return false;
  if (global !== undefined && context.team.version >= global) return false;
  return true;
}

/** Why a new answer is refused under the caps (`max_new_answers_*`); undefined within them. */
export function refuseOverCap(agent: AgentState, context: ModeContext): string | undefined {
  return withinAnswerCaps(agent, context)
    ? undefined
    : "You have reached the answer limit (max_new_answers_per_agent / max_new_answers_global); you can only vote now: call vote.";
}

/**
 * Why a new answer is refused, or undefined when it may be recorded: identical to a current
 * answer, or too similar under `answer_novelty_requirement` (token-set Jaccard).
 */
export function refuseUnoriginal(content: string, context: ModeContext): string | undefined {
  const requirement = context.settings.answer_novelty_requirement;
  const threshold = NOVELTY_THRESHOLDS[requirement];
  for (const other of context.team.agents) {
    if (!other.answer) continue;
    if (other.answer.content === content) {
      return `This answer is identical to ${other.anonId}'s current answer. Vote for it instead, or write a different answer.`;
    }
    if (threshold !== undefined && jaccard(content, other.answer.content) > threshold) {
      return `This answer is too similar to ${other.anonId}'s current answer (answer_novelty_requirement: ${requirement}). Vote for it, or write a substantially different answer.`;
    }
  }
  return undefined;
}

/**
 * Records `content` as `agent`'s current answer `agent<N>.<M>`, emits `answer`, and clears the
 * votes (emitting `votes-reset` when there were any).
 */
export function recordAnswer(
  agent: AgentState,
  content: string,
  context: ModeContext,
): SubmitResult {
  const { team, emitter } = context;
  agent.answerCount++;
  const label = `${agent.anonId}.${agent.answerCount}`;
  agent.answer = { label, content };
  team.acceptedLabels.push(label);
  agent.seenLabels.add(label);
  emitter.emit({
    type: "answer",
    agentId: agent.agent.id,
    round: agent.rounds,
    label,
    anonId: agent.anonId,
    content,
  });
  const cleared = team.clearVotes();
  if (cleared > 0) emitter.emit({ type: "votes-reset", causeLabel: label, cleared });
  return { status: "accepted", outcome: "answer" };
}

/**
 * Validates and records a vote (docs/coordination.md "Voting mode" steps 2 and 4): refused when no
 * answer exists or the target has none; a vote cast on an answer set the agent had not seen is
 * refused with the current answers (`stale`), so the agent continues in the same conversation.
 */
export function submitVote(
  agent: AgentState,
  call: Extract<WorkflowCall, { kind: "vote" }>,
  seenVersion: number,
  context: ModeContext,
): SubmitResult {
  const { team, emitter } = context;
  const candidates = team.visibleAnswers().map((answer) => answer.anonId);
  if (candidates.length === 0) {
    return { status: "invalid", message: "There are no answers to vote for yet; use new_answer." };
  }
  const target = team.byAnonId(call.agentId);
  if (!target?.answer) {
    return {
      status: "invalid",
      message: `${call.agentId} has no answer to vote for; vote for one of: ${candidates.join(", ")}.`,
    };
  }
  if (seenVersion !== team.version) {
    const answers = team.visibleAnswers();
    const message = staleVoteMessage(answers);
    emitter.emit({
      type: "vote-refused",
      agentId: agent.agent.id,
      round: agent.rounds,
      targetAnonId: call.agentId,
      message,
    });
    return {
      status: "stale",
      message,
      snapshot: { version: team.version, answers },
      labels: team.acceptedLabels.slice(seenVersion),
    };
  }
  agent.vote = { targetAnonId: target.anonId, reason: call.reason };
  emitter.emit({
    type: "vote",
    agentId: agent.agent.id,
    round: agent.rounds,
    targetAgentId: target.agent.id,
    targetAnonId: target.anonId,
    label: target.answer.label,
    reason: call.reason,
  });
  return { status: "accepted", outcome: "vote" };
}

/** The named presenter when it is still in the team, else the first live agent, else `fallback`. */
export function presenterOf(context: ModeContext, fallback: AgentState): AgentState {
  const { team, settings } = context;
  const named = settings.presenter_agent ? team.byId(settings.presenter_agent) : undefined;
  const presenter = [named, ...team.agents].find(
    (agent) => agent !== undefined && agent.status !== "removed",
  );
  return presenter ?? fallback;
}

/** The first agent in config order with a current answer. */
export function firstWithAnswer(context: ModeContext): AgentState | undefined {
  return context.team.agents.find((agent) => agent.answer !== undefined);
}

/**
 * The agent's persona as its next round states it: softened once the answer set holds another
 * agent's answer (see {@link personaPrompt}).
 */
export function personaOf(agent: AgentState, context: ModeContext): string | undefined {
  const peersVisible = context.team
    .visibleAnswers()
    .some((answer) => answer.anonId !== agent.anonId);
  return personaPrompt(agent.persona, peersVisible);
}
