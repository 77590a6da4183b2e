/**
 * The state of one agent's round in progress (`./agent-round.ts`), which its steps share: the
 * conversation sent to the model, the answers it shows, the attempt and what went wrong so far;
 * and the events that open and close an attempt and the round.
 */
import type { ChatMessage, ToolCall } from "../backends/index.js";
import type { LocalTool } from "../tools/index.js";
import type { AgentRoundOptions, AgentRoundResult, AnswerSnapshot } from "./round-types.js";
import { isWorkflowTool } from "./workflow-tools.js";

/** Where a refused exchange (a reply to its refusal) lies in the conversation. */
export interface MessageSpan {
  start: number;
  end: number;
}

/** A round in progress. Its steps change it in place; nothing outside the round sees it. */
export interface RoundState {
  readonly options: AgentRoundOptions;
  /** The tools that run inside the round, by name. */
  readonly localTools: ReadonlyMap<string, LocalTool>;
  /** When the round started (clock milliseconds). */
  readonly started: number;
  /** The conversation: the opening message, then the replies, tool results and refusals. */
  readonly messages: ChatMessage[];
  /** The last answer set the agent saw. */
  seen: AnswerSnapshot;
  /** Labels of the answers the conversation already shows: an update repeats only the others. */
  shown: Set<string>;
  /** 1-based attempt at a valid workflow call. */
  attempt: number;
  /** True after a reply: answers that arrived since are shown before the next model call. */
  atStepBoundary: boolean;
  /** One phrase per refused attempt: what the model did. */
  readonly failures: string[];
  /** Replies that held text but no workflow call (the text protocol hears them past the refusals). */
  textReplies: number;
  /** Times the other answers were shortened to fit the model's context. */
  fits: number;
  /** The last refused exchange (its reply to its refusal), dropped when the next one is refused. */
  refused: MessageSpan | undefined;
}

/** A round at its start: the opening message, attempt 1, the answers of `options.seen` shown. */
export function openRound(options: AgentRoundOptions): RoundState {
  return {
    options,
    localTools: new Map(options.localTools.map((tool) => [tool.spec.name, tool])),
    started: options.clock.now(),
    messages: [{ role: "user", content: options.userMessage }],
    seen: options.seen,
    shown: new Set(options.seen.answers.map((answer) => answer.label)),
    attempt: 1,
    atStepBoundary: false,
    failures: [],
    textReplies: 0,
    fits: 0,
    refused: undefined,
  };
}

/** Records that the conversation now shows the answers of `snapshot`. */
export function showAnswers(round: RoundState, snapshot: AnswerSnapshot): void {
  round.seen = snapshot;
  for (const answer of snapshot.answers) round.shown.add(answer.label);
}

/** True when `call` is one of the mode's workflow tools (not a tool that runs in the round). */
export function isWorkflowCall(round: RoundState, call: ToolCall): boolean {
  return isWorkflowTool(call.toolName, round.options.judge.workflowToolNames);
}

/** Announces the current attempt: `round-start` with the answers the agent sees. */
export function startAttempt(round: RoundState): void {
  const { agentId, emitter } = round.options;
  emitter.emit({
    type: "round-start",
    agentId,
    round: round.options.round,
    attempt: round.attempt,
    kind: "coordinate",
    answersSeen: round.seen.answers.map((answer) => answer.label),
  });
}

/** Ends the round: emits `round-end` with its duration and returns its result. */
export function endRound(
  round: RoundState,
  result: Omit<AgentRoundResult, "seen">,
): AgentRoundResult {
  const { agentId, emitter, clock } = round.options;
  emitter.emit({
    type: "round-end",
    agentId,
    round: round.options.round,
    outcome: result.outcome,
    durationMs: clock.now() - round.started,
  });
  return { ...result, seen: round.seen };
}
