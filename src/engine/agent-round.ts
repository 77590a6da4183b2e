/**
 * One round of one agent (docs/coordination.md "Terms": from its prompt to its workflow call): the
 * tool loop, update injection at step boundaries (step 4), stale-vote refusal, and up to
 * {@link MAX_ATTEMPTS} attempts at a valid workflow call (step 2).
 */
import type { Backend, ChatMessage, ModelRequest, ToolCall, ToolSpec } from "../backends/index.js";
import type { Clock } from "../clock.js";
import type { RoundOutcome } from "../events/index.js";
import type { LocalTool, WorkspaceHooks } from "../tools/index.js";
import type { Emitter } from "./emitter.js";
import { isContextLengthError } from "../backends/index.js";
import { contextWindowOf, fitAnswers } from "./context-fit.js";
import { callModel } from "./model-call.js";
import { staleVoteMessage, updateMessage, type VisibleAnswer } from "./prompts.js";
import {
  ACCEPTED_OUTPUT,
  answerToolCalls,
  assistantMessage,
  dropEarlierRefusal,
  IGNORED_CALL,
  noWorkflowCallMessage,
  refusalPhrase,
  REPAIRED_NOTE,
  runLocalTool,
} from "./round-steps.js";

export { runLocalTool };
import { describeFailures, textOfUnknownCall, type TextCall } from "./text-protocol.js";
import {
  isWorkflowTool,
  parseWorkflowCall,
  type WorkflowCall,
  type WorkflowToolName,
} from "./workflow-tools.js";

/** Attempts at a valid workflow call per round. */
export const MAX_ATTEMPTS = 3;

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

/** Options of {@link runAgentRound}. */
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
  const { agentId, round, judge, emitter, clock, signal } = options;
  const started = clock.now();
  const messages: ChatMessage[] = [{ role: "user", content: options.userMessage }];
  const localTools = new Map(options.localTools.map((tool) => [tool.spec.name, tool]));
  let seen = options.seen;
  let attempt = 1;
  let atStepBoundary = false;
  /** One phrase per refused attempt: what the model did. */
  const failures: string[] = [];
  let textReplies = 0;
  let fits = 0;
  /** Labels of the answers the conversation already shows: an update repeats only the others. */
  let shown = new Set(seen.answers.map((answer) => answer.label));
  /** The last refused exchange (its reply to its refusal), dropped when the next one is refused. */
  let refused: { start: number; end: number } | undefined;
  const show = (snapshot: AnswerSnapshot) => {
    seen = snapshot;
    for (const answer of snapshot.answers) shown.add(answer.label);
  };

  const end = (result: Omit<AgentRoundResult, "seen">): AgentRoundResult => {
    emitter.emit({
      type: "round-end",
      agentId,
      round,
      outcome: result.outcome,
      durationMs: clock.now() - started,
    });
    return { ...result, seen };
  };
  const isWorkflow = (call: ToolCall) => isWorkflowTool(call.toolName, judge.workflowToolNames);
  const startAttempt = () =>
    emitter.emit({
      type: "round-start",
      agentId,
      round,
      attempt,
      kind: "coordinate",
      answersSeen: seen.answers.map((answer) => answer.label),
    });
  startAttempt();

  for (;;) {
    if (signal.aborted) return end({ outcome: "aborted" });
    // Step boundary: answers that arrived mid-round really reach the model (step 4).
    const snapshot = judge.snapshot();
    // Read after the answer set: every snapshot of those answers was queued before this refresh.
    if (options.workspace) {
      await options.workspace.refreshView().catch(() => undefined);
      if (signal.aborted) return end({ outcome: "aborted" });
    }
    if (atStepBoundary && snapshot.version !== seen.version) {
      const labels = judge.labelsSince(seen.version);
      messages.push({ role: "user", content: updateMessage(snapshot.answers, shown) });
      emitter.emit({ type: "update-injected", agentId, round, labels, via: "step" });
      show(snapshot);
    }
    const offered = judge.workflowTools();
    const request: ModelRequest = {
      system: typeof options.system === "function" ? options.system() : options.system,
      messages: [...messages],
      tools: [...offered, ...options.localTools.map((tool) => tool.spec)],
      toolChoice: "required",
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.maxOutputTokens !== undefined
        ? { maxOutputTokens: options.maxOutputTokens }
        : {}),
    };
    let reply;
    try {
      reply = await callModel({
        agentId,
        backend: options.backend,
        request,
        round,
        emitter,
        clock,
        signal,
      });
    } catch (error) {
      if (signal.aborted) return end({ outcome: "aborted" });
      const overflow = isContextLengthError(error);
      if (
        overflow &&
        options.openingMessage &&
        fits < MAX_CONTEXT_FITS &&
        seen.answers.length > 0
      ) {
        // The prompt outgrew the context: start again with the other answers shortened.
        fits++;
        const fitted = fitAnswers(seen.answers, {
          contextWindowTokens: contextWindowOf(error),
          fixedChars: request.system.length + options.userMessage.length - answersLength(seen),
          attempt: fits,
        });
        messages.splice(0, messages.length, {
          role: "user",
          content: options.openingMessage(fitted.answers),
        });
        shown = new Set(seen.answers.map((answer) => answer.label));
        refused = undefined;
        atStepBoundary = false;
        emitter.emit({
          type: "warning",
          agentId,
          source: `${options.backend.type}/${options.backend.model}`,
          message: `the prompt exceeded the model's context; the other answers were shortened to ${fitted.maxChars} characters each for this round (the logs keep them whole)`,
        });
        continue;
      }
      return end({ outcome: "error", error, contextExceeded: overflow });
    }
    const replyAt = messages.length;
    messages.push(assistantMessage(reply.text, reply.toolCalls));
    atStepBoundary = true;

    // Tools that run inside the round first; the model sees their results next step. A call to
    // a tool the round does not offer is answered with the tools that exist and costs an attempt.
    const workflowCalls = reply.toolCalls.filter(isWorkflow);
    const working = reply.toolCalls.filter((call) => !isWorkflow(call));
    const unknown = working.filter((call) => !localTools.has(call.toolName));
    for (const call of working) {
      const result = await runLocalTool(call, localTools, options, offered);
      messages.push({
        role: "tool",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        ...result,
      });
    }
    if (workflowCalls.length === 0 && working.length > 0 && unknown.length === 0) {
      continue; // only working tools this step: the round goes on
    }

    // Two workflow calls in one reply: the last one counts.
    const last = workflowCalls.at(-1);
    const ignored = workflowCalls.slice(0, -1);
    if (ignored.length > 0) {
      answerToolCalls(messages, ignored, IGNORED_CALL);
      emitter.emit({
        type: "warning",
        agentId,
        source: "orchestrator",
        message: `${agentId} made ${workflowCalls.length} workflow calls in one reply (${workflowCalls.map((call) => call.toolName).join(", ")}); the last one counts`,
      });
    }

    let parsed: WorkflowCall | undefined;
    let failure: string | undefined;
    let viaText = false;
    if (last !== undefined) {
      if (last.inputError !== undefined) {
        failure = "sent cut-off or malformed JSON arguments";
        parsed = {
          kind: "invalid",
          message: `Your ${last.toolName} call's arguments were cut-off or malformed JSON (${last.inputError}). Call ${last.toolName} again with complete, valid JSON arguments.`,
        };
      } else {
        parsed = parseWorkflowCall([last], judge.workflowToolNames);
        if (last.repaired === true) {
          failure = "sent cut-off JSON arguments (repaired, still not valid)";
          emitter.emit({
            type: "warning",
            agentId,
            source: "orchestrator",
            message: `${agentId} sent cut-off or malformed JSON arguments for ${last.toolName}; coord repaired them (jsonrepair) and used what they hold`,
          });
          if (parsed.kind === "invalid")
            parsed = { kind: "invalid", message: `${REPAIRED_NOTE} ${parsed.message}` };
        } else if (parsed.kind === "invalid") failure = `made an invalid ${last.toolName} call`;
      }
    } else {
      // No workflow call: plain text, an empty reply, or a tool that does not exist.
      const text = reply.text.trim() || unknown.map(textOfUnknownCall).find((t) => t !== "") || "";
      if (text !== "") textReplies++;
      if (text !== "" && textReplies > judge.textRefusals()) {
        parsed = judge.textCall(text, offered, `text-${round}-${attempt}`);
        viaText = parsed !== undefined;
      }
      failure =
        unknown.length > 0
          ? `called the unknown tool ${[...new Set(unknown.map((call) => call.toolName))].join(", ")}`
          : text !== ""
            ? "answered in plain text"
            : "sent an empty reply";
      if (!viaText)
        parsed = { kind: "invalid", message: noWorkflowCallMessage(unknown, text, offered) };
    }
    parsed ??= { kind: "invalid", message: "No workflow call." };

    let refusal: string;
    if (parsed.kind === "invalid") {
      refusal = parsed.message;
    } else {
      emitter.emit({
        type: "tool-call",
        agentId,
        round,
        toolCallId: parsed.call.toolCallId,
        toolName: parsed.call.toolName,
        input: parsed.call.input,
      });
      const submitted = clock.now();
      const result = judge.submit(parsed, seen.version);
      const call = parsed.call;
      const toolResult = (output: string, isError: boolean) =>
        emitter.emit({
          type: "tool-result",
          agentId,
          round,
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output,
          isError,
          durationMs: clock.now() - submitted,
        });
      if (result.status === "accepted") {
        toolResult(ACCEPTED_OUTPUT[result.outcome], false);
        if (viaText) {
          emitter.emit({
            type: "warning",
            agentId,
            source: "orchestrator",
            message: `${agentId} ${failure ?? "answered in plain text"}; the text was taken as its ${result.outcome} (text protocol)`,
          });
        }
        return end({ outcome: result.outcome, heardText: viaText });
      }
      toolResult(result.message, true);
      if (result.status === "stale") {
        // Not the model's fault: continue the same conversation with the new answers.
        emitter.emit({
          type: "update-injected",
          agentId,
          round,
          labels: result.labels,
          via: "vote-refused",
        });
        // The refusal repeats only the answers this conversation does not show yet.
        const refusal = staleVoteMessage(result.snapshot.answers, shown);
        show(result.snapshot);
        if (viaText) messages.push({ role: "user", content: refusal });
        else answerToolCalls(messages, [call], refusal);
        atStepBoundary = false; // the refusal already carries the update
        continue;
      }
      const repaired = !viaText && last?.repaired === true;
      refusal = repaired ? `${REPAIRED_NOTE} ${result.message}` : result.message;
      failure =
        (repaired ? "sent cut-off JSON arguments (repaired, then refused)" : undefined) ??
        refusalPhrase(result.message) ??
        failure ??
        `made a refused ${call.toolName} call`;
    }

    failures.push(failure ?? "made no valid workflow call");
    emitter.emit({ type: "workflow-invalid", agentId, round, attempt, message: refusal });
    if (attempt >= MAX_ATTEMPTS)
      return end({ outcome: "invalid", diagnosis: describeFailures(failures) });
    attempt++;
    if (last === undefined || viaText) messages.push({ role: "user", content: refusal });
    else answerToolCalls(messages, [last], refusal);
    refused = dropEarlierRefusal(
      messages,
      refused,
      { start: replyAt, end: messages.length },
      (name) => localTools.has(name),
    );
    startAttempt();
  }
}

/** Characters of the answers a snapshot shows. */
function answersLength(snapshot: AnswerSnapshot): number {
  return snapshot.answers.reduce((sum, answer) => sum + answer.content.length, 0);
}
