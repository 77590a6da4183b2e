/**
 * The shapes of one agent's round (`./agent-round.ts`): the answer set it sees, the judge (the
 * coordinator's side: it owns the answer set and rules on workflow calls), the round's options and
 * its result. Types only, so the round's pieces (`./round-steps.ts`, `./round-state.ts`,
 * `./round-reply.ts`) and the modes can name them without importing the round itself.
 */
import type { Backend, ToolSpec } from "../backends/index.js";
import type { Clock } from "../clock.js";
import type { RoundOutcome } from "../events/index.js";
import type { LocalTool, WorkspaceHooks } from "../tools/index.js";
import type { Emitter } from "./emitter.js";
import type { VisibleAnswer } from "./prompts.js";
import type { TextCall } from "./text-protocol.js";
import type { WorkflowCall, WorkflowToolName } from "./workflow-tools.js";

/** The answer set as one agent may see it. */
export interface AnswerSnapshot {
  /** Increases with every accepted answer. */
  version: number;
  answers: VisibleAnswer[];
}

/** What the coordinator said of a workflow call. */
export type SubmitResult =
  | { status: "accepted"; outcome: "answer" | "vote" | "stop" }
  | { status: "invalid"; message: string }
  /** A vote on an answer set the agent had not seen: refused, with the current answers. */
  | { status: "stale"; message: string; snapshot: AnswerSnapshot; labels: string[] };

/** The coordinator's side of a round: it owns the answer set and applies calls atomically. */
export interface RoundJudge {
  /** The workflow tools of the mode: one of them must end the round. */
  workflowToolNames: readonly WorkflowToolName[];
  /** Workflow tools the agent may use now (caps and the answer set decide). */
  workflowTools(): ToolSpec[];
  snapshot(): AnswerSnapshot;
  /** Labels (`agent<N>.<M>`) added since `version`. */
  labelsSince(version: number): string[];
  /** Validates and applies a workflow call in one synchronous step. */
  submit(call: Exclude<WorkflowCall, { kind: "invalid" }>, seenVersion: number): SubmitResult;
  /**
   * Replies without a workflow call refused in a round before one is heard as a workflow call by
   * the text protocol (`./text-protocol.ts`): 1; 0 in quick and single-agent modes and for an
   * agent already heard in text once (its model answers in text: no second refusal).
   */
  textRefusals(): number;
  /**
   * The workflow call a text reply stands for now (the text protocol, or the mode's own reading:
   * planning parses a plan), or undefined when it stands for none.
   * @param offered the workflow tools offered in the request that got the reply.
   * @param id the synthetic tool-call id to give the call (`text-…`).
   */
  textCall(text: string, offered: readonly ToolSpec[], id: string): TextCall | undefined;
}

/** Options of `runAgentRound` (`./agent-round.ts`). */
export interface AgentRoundOptions {
  agentId: string;
  backend: Backend;
  round: number;
  /**
   * The system prompt; a function is asked again before every model call of the round (the mode's
   * prompt follows the answers the agent has been shown, e.g. a persona softened once they
   * include a peer's).
   */
  system: string | (() => string);
  /** The opening user message (history, question, answers in `seen`). */
  userMessage: string;
  /**
   * Rebuilds the opening message with other answers (shortened to fit the model's context,
   * `./context-fit.ts`); absent: the round cannot shorten its prompt.
   */
  openingMessage?: ((answers: readonly VisibleAnswer[]) => string) | undefined;
  /** The answer set the opening message shows. */
  seen: AnswerSnapshot;
  judge: RoundJudge;
  /** Tools that run inside the round. */
  localTools: readonly LocalTool[];
  /** The agent's workspace: its view of the others' snapshots is refreshed before each call. */
  workspace?: WorkspaceHooks | undefined;
  emitter: Emitter;
  clock: Clock;
  signal: AbortSignal;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
}

/** How the round ended; `error` carries the backend failure. */
export interface AgentRoundResult {
  outcome: Extract<RoundOutcome, "answer" | "vote" | "stop" | "invalid" | "error" | "aborted">;
  error?: unknown;
  /** `invalid`: what the model did in its refused attempts, in words (`agent-error.message`). */
  diagnosis?: string | undefined;
  /** `error`: the prompt exceeded the model's context even after shortening the answers. */
  contextExceeded?: boolean | undefined;
  /** True when the round's workflow call was heard in text (the text protocol). */
  heardText?: boolean | undefined;
  /** The last answer set the agent saw in this round. */
  seen: AnswerSnapshot;
}
