/**
 * Final presentation (COORDINATION.md step 7): the winner gets a fresh conversation with no
 * workflow tools, all current answers by real id and the votes with their reasons, and writes
 * the final answer, streamed as one `final-*` block. If it produces nothing (or fails), its winning
 * answer is the final answer.
 */
import type { Clock } from "../clock.js";
import type { Emitter } from "./emitter.js";
import { callModel } from "./model-call.js";
import {
  personaPrompt,
  presentationSystemPrompt,
  presentationUserMessage,
  type HistoryTurn,
} from "./prompts.js";
import type { AgentState, Team } from "./team.js";

/** A mode's final presentation: the presenter's prompt and what stands in for its answer. */
export interface PresentationPlan {
  system: string;
  userMessage: string;
  /** The final answer when the presentation is skipped, fails or writes nothing. */
  fallback: string;
}

export interface PresentationOptions {
  team: Team;
  presenter: AgentState;
  question: string;
  history: readonly HistoryTurn[];
  /** Use the presenter's answer as is, without a model call. */
  skip: boolean;
  /**
   * The mode's own presentation (decomposition: integrate the parts): its prompt, and the final
   * answer when the presentation is skipped or writes nothing. Default: the winner's prompt
   * (step 7) and its winning answer.
   */
  plan?: PresentationPlan | undefined;
  emitter: Emitter;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Emits the presentation round (`round-start` of kind `final`, the streamed final block, `usage`,
 * `round-end`) and `final-answer`; with `skip`, only `final-answer`.
 * @returns the final answer text, or undefined when the signal aborted the presentation.
 */
export async function present(options: PresentationOptions): Promise<string | undefined> {
  const { team, presenter, emitter, clock } = options;
  const agentId = presenter.agent.id;
  const label = `${presenter.anonId}.final`;
  const fallback =
    options.plan?.fallback ?? presenter.answer?.content ?? team.visibleAnswers()[0]?.content ?? "";
  if (options.skip) {
    emitter.emit({ type: "final-answer", agentId, label, content: fallback, source: "answer" });
    return fallback;
  }
  presenter.rounds++;
  const round = presenter.rounds;
  const started = clock.now();
  emitter.emit({
    type: "round-start",
    agentId,
    round,
    attempt: 1,
    kind: "final",
    answersSeen: team.visibleAnswers().map((answer) => answer.label),
  });
  let text = "";
  try {
    const reply = await callModel({
      agentId,
      backend: presenter.agent.backend,
      request: {
        system:
          options.plan?.system ??
          presentationSystemPrompt(
            presenter.agent.systemMessage,
            personaPrompt(presenter.persona, true),
          ),
        messages: [
          {
            role: "user",
            content:
              options.plan?.userMessage ??
              presentationUserMessage({
                question: options.question,
                history: options.history,
                answers: team.attributedAnswers(),
                votes: team.attributedVotes(),
                presenterId: agentId,
              }),
          },
        ],
        tools: [],
        toolChoice: "none",
        ...(presenter.agent.temperature !== undefined
          ? { temperature: presenter.agent.temperature }
          : {}),
        ...(presenter.agent.maxOutputTokens !== undefined
          ? { maxOutputTokens: presenter.agent.maxOutputTokens }
          : {}),
      },
      round,
      emitter,
      clock,
      signal: options.signal,
      textAs: "final",
    });
    text = reply.text.trim();
  } catch (error) {
    if (options.signal.aborted) {
      emitter.emit({
        type: "round-end",
        agentId,
        round,
        outcome: "aborted",
        durationMs: clock.now() - started,
      });
      return undefined;
    }
    emitter.emit({
      type: "agent-error",
      agentId,
      round,
      message: `final presentation failed, using the winning answer: ${error instanceof Error ? error.message : String(error)}`,
      retryable: false,
      fatal: false,
    });
  }
  emitter.emit({
    type: "round-end",
    agentId,
    round,
    outcome: "final",
    durationMs: clock.now() - started,
  });
  const content = text !== "" ? text : fallback;
  emitter.emit({
    type: "final-answer",
    agentId,
    label,
    content,
    source: text !== "" ? "presentation" : "answer",
  });
  return content;
}
