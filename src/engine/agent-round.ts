/**
 * One round of one agent (docs/coordination.md "Terms": from its prompt to its workflow call): the
 * tool loop, update injection at step boundaries (step 4), stale-vote refusal, and up to
 * {@link MAX_ATTEMPTS} attempts at a valid workflow call (step 2).
 *
 * {@link runAgentRound} reads as its steps: at each step boundary show the answers that arrived,
 * build the request, call the model (shortening the other answers when the prompt outgrew the
 * context), run the tools that work inside the round, read the workflow call the reply stands for
 * (`./round-reply.ts`), let the judge rule on it, and refuse the attempt or end the round. The
 * round's state is `./round-state.ts`; its shapes `./round-types.ts`; the conversation's pieces
 * `./round-steps.ts`.
 */
import type { ModelRequest, ToolCall, ToolSpec } from "../backends/index.js";
import { isContextLengthError } from "../backends/index.js";
import { contextWindowOf, fitAnswers } from "./context-fit.js";
import { callModel, type ModelCallOptions, type ModelReply } from "./model-call.js";
import { updateMessage } from "./prompts.js";
import { judgeWorkflowCall, readWorkflowCall, type ReadCall, type Verdict } from "./round-reply.js";
import {
  endRound,
  isWorkflowCall,
  openRound,
  type RoundState,
  showAnswers,
  startAttempt,
} from "./round-state.js";
import {
  answerToolCalls,
  assistantMessage,
  dropEarlierRefusal,
  IGNORED_CALL,
  runLocalTool,
} from "./round-steps.js";
import type { AgentRoundOptions, AgentRoundResult, AnswerSnapshot } from "./round-types.js";
import { describeFailures } from "./text-protocol.js";

export type {
  AgentRoundOptions,
  AgentRoundResult,
  AnswerSnapshot,
  RoundJudge,
  SubmitResult,
} from "./round-types.js";
export { runLocalTool };

/** Attempts at a valid workflow call per round. */
export const MAX_ATTEMPTS = 3;

/** Times a round shortens the other answers after a context-length error before it fails. */
export const MAX_CONTEXT_FITS = 2;

/**
 * Runs the round to its end. Never throws: backend failures and aborts become outcomes.
 *
 * Every reply counts (docs/real-models.md): a call to a tool the round does not offer, a reply with
 * no workflow call, cut-off JSON and a refused call are each a failed attempt, and after
 * {@link MAX_ATTEMPTS} the round ends `invalid` with a diagnosis; only steps that call working
 * tools go on without counting. Text replies are heard by the text protocol.
 */
export async function runAgentRound(options: AgentRoundOptions): Promise<AgentRoundResult> {
  // The awaits stay in this loop, one per model call, workspace refresh and tool run: the steps
  // are synchronous, so concurrent agents' events interleave as they always did.
  const round = openRound(options);
  startAttempt(round);
  for (;;) {
    if (options.signal.aborted) return endRound(round, { outcome: "aborted" });
    // Step boundary: answers that arrived mid-round really reach the model (step 4).
    const snapshot = options.judge.snapshot();
    // Read after the answer set: every snapshot of those answers was queued before this refresh.
    if (options.workspace) {
      await options.workspace.refreshView().catch(() => undefined);
      if (options.signal.aborted) return endRound(round, { outcome: "aborted" });
    }
    showArrivedAnswers(round, snapshot);
    const offered = options.judge.workflowTools();
    const request = buildRequest(round, offered);
    let reply: ModelReply;
    try {
      reply = await callModel(modelCallOf(round, request));
    } catch (error) {
      const ended = failedModelCall(round, request, error);
      if (ended === undefined) continue; // the other answers were shortened: call again
      return endRound(round, ended);
    }
    const replyAt = round.messages.length;
    round.messages.push(assistantMessage(reply.text, reply.toolCalls));
    round.atStepBoundary = true;

    // Tools that run inside the round first; the model sees their results next step. A call to
    // a tool the round does not offer is answered with the tools that exist and costs an attempt.
    const calls = sortToolCalls(round, reply.toolCalls);
    for (const call of calls.working) {
      const result = await runLocalTool(call, round.localTools, options, offered);
      round.messages.push({
        role: "tool",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        ...result,
      });
    }
    if (calls.workflow.length === 0 && calls.working.length > 0 && calls.unknown.length === 0) {
      continue; // only working tools this step: the round goes on
    }

    const last = keepLastWorkflowCall(round, calls.workflow);
    const read = readWorkflowCall(round, reply, last, calls.unknown, offered);
    const verdict: Verdict =
      read.parsed.kind === "invalid"
        ? { status: "refused", refusal: read.parsed.message, failure: read.failure }
        : judgeWorkflowCall(round, read.parsed, read);
    if (verdict.status === "accepted") {
      return endRound(round, { outcome: verdict.outcome, heardText: read.viaText });
    }
    if (verdict.status === "stale") continue;

    recordRefusal(round, verdict);
    if (round.attempt >= MAX_ATTEMPTS) {
      return endRound(round, { outcome: "invalid", diagnosis: describeFailures(round.failures) });
    }
    startNextAttempt(round, verdict.refusal, read, replyAt);
  }
}

/** After a reply, answers that arrived since are shown to the model (`update-injected`). */
function showArrivedAnswers(round: RoundState, snapshot: AnswerSnapshot): void {
  const { agentId, judge, emitter } = round.options;
  if (!round.atStepBoundary || snapshot.version === round.seen.version) return;
  const labels = judge.labelsSince(round.seen.version);
  round.messages.push({ role: "user", content: updateMessage(snapshot.answers, round.shown) });
  emitter.emit({
    type: "update-injected",
    agentId,
    round: round.options.round,
    labels,
    via: "step",
  });
  showAnswers(round, snapshot);
}

/** The model request of this step: the conversation so far, the workflow and working tools. */
function buildRequest(round: RoundState, offered: readonly ToolSpec[]): ModelRequest {
  const { system, localTools, temperature, maxOutputTokens } = round.options;
  return {
    system: typeof system === "function" ? system() : system,
    messages: [...round.messages],
    tools: [...offered, ...localTools.map((tool) => tool.spec)],
    toolChoice: "required",
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}

/** The options of {@link callModel} for this step's request. */
function modelCallOf(round: RoundState, request: ModelRequest): ModelCallOptions {
  const { agentId, backend, emitter, clock, signal } = round.options;
  return { agentId, backend, request, round: round.options.round, emitter, clock, signal };
}

/**
 * What a failed model call ends the round with: `aborted`, or `error` (with `contextExceeded`
 * for a prompt that outgrew the context). Undefined when the prompt outgrew the context and the
 * other answers were shortened: the round calls the model again (at most
 * {@link MAX_CONTEXT_FITS} times).
 */
function failedModelCall(
  round: RoundState,
  request: ModelRequest,
  error: unknown,
): Omit<AgentRoundResult, "seen"> | undefined {
  if (round.options.signal.aborted) return { outcome: "aborted" };
  const overflow = isContextLengthError(error);
  if (overflow && shortenAnswers(round, request, error)) return undefined;
  return { outcome: "error", error, contextExceeded: overflow };
}

/**
 * The prompt outgrew the context: starts the conversation again with the other answers shortened
 * (`./context-fit.ts`) and says so in a `warning`.
 * @returns false when the round cannot shorten (no opening builder, no answers, fits spent).
 */
function shortenAnswers(round: RoundState, request: ModelRequest, error: unknown): boolean {
  const { agentId, backend, emitter, openingMessage, userMessage } = round.options;
  if (!openingMessage || round.fits >= MAX_CONTEXT_FITS || round.seen.answers.length === 0) {
    return false;
  }
  round.fits++;
  const fitted = fitAnswers(round.seen.answers, {
    contextWindowTokens: contextWindowOf(error),
    fixedChars: request.system.length + userMessage.length - answersLength(round.seen),
    attempt: round.fits,
  });
  round.messages.splice(0, round.messages.length, {
    role: "user",
    content: openingMessage(fitted.answers),
  });
  round.shown = new Set(round.seen.answers.map((answer) => answer.label));
  round.refused = undefined;
  round.atStepBoundary = false;
  emitter.emit({
    type: "warning",
    agentId,
    source: `${backend.type}/${backend.model}`,
    message: `the prompt exceeded the model's context; the other answers were shortened to ${fitted.maxChars} characters each for this round (the logs keep them whole)`,
  });
  return true;
}

/**
 * A reply's tool calls by kind: `workflow` (the mode's workflow tools), `working` (the others, run
 * inside the round) and, of those, `unknown` (tools the round does not have).
 */
function sortToolCalls(
  round: RoundState,
  toolCalls: readonly ToolCall[],
): { workflow: ToolCall[]; working: ToolCall[]; unknown: ToolCall[] } {
  const workflow = toolCalls.filter((call) => isWorkflowCall(round, call));
  const working = toolCalls.filter((call) => !isWorkflowCall(round, call));
  const unknown = working.filter((call) => !round.localTools.has(call.toolName));
  return { workflow, working, unknown };
}

/** Two workflow calls in one reply: the last one counts; the others are answered and warned of. */
function keepLastWorkflowCall(round: RoundState, calls: readonly ToolCall[]): ToolCall | undefined {
  const { agentId, emitter } = round.options;
  const ignored = calls.slice(0, -1);
  if (ignored.length > 0) {
    answerToolCalls(round.messages, ignored, IGNORED_CALL);
    emitter.emit({
      type: "warning",
      agentId,
      source: "orchestrator",
      message: `${agentId} made ${calls.length} workflow calls in one reply (${calls.map((call) => call.toolName).join(", ")}); the last one counts`,
    });
  }
  return calls.at(-1);
}

/** Counts the refused attempt: what the model did, and `workflow-invalid` with the refusal. */
function recordRefusal(round: RoundState, verdict: Extract<Verdict, { status: "refused" }>): void {
  const { agentId, emitter } = round.options;
  round.failures.push(verdict.failure ?? "made no valid workflow call");
  emitter.emit({
    type: "workflow-invalid",
    agentId,
    round: round.options.round,
    attempt: round.attempt,
    message: verdict.refusal,
  });
}

/**
 * Opens the next attempt: the refusal goes to the model (as the refused call's result, or as a
 * user message for a reply without one), the exchange refused before is dropped, `round-start`.
 * @param replyAt where the refused reply starts in the conversation.
 */
function startNextAttempt(round: RoundState, refusal: string, read: ReadCall, replyAt: number) {
  round.attempt++;
  if (read.last === undefined || read.viaText) {
    round.messages.push({ role: "user", content: refusal });
  } else answerToolCalls(round.messages, [read.last], refusal);
  round.refused = dropEarlierRefusal(
    round.messages,
    round.refused,
    { start: replyAt, end: round.messages.length },
    (name) => round.localTools.has(name),
  );
  startAttempt(round);
}

/** Characters of the answers a snapshot shows. */
function answersLength(snapshot: AnswerSnapshot): number {
  return snapshot.answers.reduce((sum, answer) => sum + answer.content.length, 0);
}
