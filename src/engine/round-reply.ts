/**
 * Reading a reply of a round (`./agent-round.ts`) and ruling on it: which workflow call the reply
 * stands for (its last workflow tool call, or its text heard by the text protocol), and what the
 * judge says of it — accepted, refused, or a stale vote answered with the new answers.
 */
import type { ToolCall, ToolSpec } from "../backends/index.js";
import { staleVoteMessage } from "./prompts.js";
import { type RoundState, showAnswers } from "./round-state.js";
import {
  ACCEPTED_OUTPUT,
  answerToolCalls,
  noWorkflowCallMessage,
  refusalPhrase,
  REPAIRED_NOTE,
} from "./round-steps.js";
import { textOfUnknownCall } from "./text-protocol.js";
import { parseWorkflowCall, type WorkflowCall } from "./workflow-tools.js";

/** The workflow call a reply stands for. */
export interface ReadCall {
  /** The call, or why the reply stands for none (the refusal's message). */
  parsed: WorkflowCall;
  /** What the model did wrong, in words (`describeFailures`), when it did. */
  failure: string | undefined;
  /** True when the call was heard in the reply's text (the text protocol). */
  viaText: boolean;
  /** The reply's last workflow tool call, if it made one. */
  last: ToolCall | undefined;
}

/** What the judge said of a workflow call. */
export type Verdict =
  | { status: "accepted"; outcome: "answer" | "vote" | "stop" }
  /** A vote on answers the agent had not seen: it was sent them, and the round goes on. */
  | { status: "stale" }
  /** The attempt failed: `refusal` is what the model is told, `failure` what it did, in words. */
  | { status: "refused"; refusal: string; failure: string | undefined };

/**
 * Reads the workflow call out of a reply: its last workflow tool call (cut-off JSON arguments
 * refused, repaired ones warned about), else its text or an unknown tool's arguments, heard by
 * the text protocol once the judge's text refusals are spent.
 * @param unknown the reply's calls to tools that do not exist.
 * @param offered the workflow tools offered in the request that got the reply.
 */
export function readWorkflowCall(
  round: RoundState,
  reply: { text: string },
  last: ToolCall | undefined,
  unknown: readonly ToolCall[],
  offered: readonly ToolSpec[],
): ReadCall {
  const { agentId, judge, emitter } = round.options;
  if (last !== undefined) {
    if (last.inputError !== undefined) {
      const message = `Your ${last.toolName} call's arguments were cut-off or malformed JSON (${last.inputError}). Call ${last.toolName} again with complete, valid JSON arguments.`;
      const failure = "sent cut-off or malformed JSON arguments";
      return { parsed: { kind: "invalid", message }, failure, viaText: false, last };
    }
    let parsed = parseWorkflowCall([last], judge.workflowToolNames);
    let failure: string | undefined;
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
    return { parsed, failure, viaText: false, last };
  }
  // No workflow call: plain text, an empty reply, or a tool that does not exist.
  const text = reply.text.trim() || unknown.map(textOfUnknownCall).find((t) => t !== "") || "";
  if (text !== "") round.textReplies++;
  const heard =
    text !== "" && round.textReplies > judge.textRefusals()
      ? judge.textCall(text, offered, `text-${round.options.round}-${round.attempt}`)
      : undefined;
  const failure =
    unknown.length > 0
      ? `called the unknown tool ${[...new Set(unknown.map((call) => call.toolName))].join(", ")}`
      : text !== ""
        ? "answered in plain text"
        : "sent an empty reply";
  if (heard !== undefined) return { parsed: heard, failure, viaText: true, last };
  const message = noWorkflowCallMessage(unknown, text, offered);
  return { parsed: { kind: "invalid", message }, failure, viaText: false, last };
}

/**
 * Gives a valid workflow call to the judge, with its `tool-call` and `tool-result` events. A stale
 * vote is not the model's fault: the conversation goes on with the answers it had not seen.
 */
export function judgeWorkflowCall(
  round: RoundState,
  parsed: Exclude<WorkflowCall, { kind: "invalid" }>,
  read: ReadCall,
): Verdict {
  const { agentId, judge, emitter, clock } = round.options;
  const call = parsed.call;
  const event = { agentId, round: round.options.round, toolCallId: call.toolCallId };
  emitter.emit({ type: "tool-call", ...event, toolName: call.toolName, input: call.input });
  const submitted = clock.now();
  const result = judge.submit(parsed, round.seen.version);
  const toolResult = (output: string, isError: boolean) =>
    emitter.emit({
      type: "tool-result",
      ...event,
      toolName: call.toolName,
      output,
      isError,
      durationMs: clock.now() - submitted,
    });
  if (result.status === "accepted") {
    toolResult(ACCEPTED_OUTPUT[result.outcome], false);
    if (read.viaText) {
      emitter.emit({
        type: "warning",
        agentId,
        source: "orchestrator",
        message: `${agentId} ${read.failure ?? "answered in plain text"}; the text was taken as its ${result.outcome} (text protocol)`,
      });
    }
    return { status: "accepted", outcome: result.outcome };
  }
  toolResult(result.message, true);
  if (result.status === "stale") {
    emitter.emit({
      type: "update-injected",
      agentId,
      round: round.options.round,
      labels: result.labels,
      via: "vote-refused",
    });
    // The refusal repeats only the answers this conversation does not show yet.
    const refusal = staleVoteMessage(result.snapshot.answers, round.shown);
    showAnswers(round, result.snapshot);
    if (read.viaText) round.messages.push({ role: "user", content: refusal });
    else answerToolCalls(round.messages, [call], refusal);
    round.atStepBoundary = false; // the refusal already carries the update
    return { status: "stale" };
  }
  const repaired = !read.viaText && read.last?.repaired === true;
  return {
    status: "refused",
    refusal: repaired ? `${REPAIRED_NOTE} ${result.message}` : result.message,
    failure:
      (repaired ? "sent cut-off JSON arguments (repaired, then refused)" : undefined) ??
      refusalPhrase(result.message) ??
      read.failure ??
      `made a refused ${call.toolName} call`,
  };
}
