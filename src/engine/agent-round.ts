/**
 * One round of one agent (COORDINATION.md "Terms": from its prompt to its workflow call): the
 * tool loop, update injection at step boundaries (step 4), stale-vote refusal, and up to
 * {@link MAX_ATTEMPTS} attempts at a valid workflow call (step 2).
 */
import type { Backend, ChatMessage, ModelRequest, ToolCall, ToolSpec } from "../backends/index.js";
import type { Clock } from "../clock.js";
import type { RoundOutcome } from "../events/index.js";
import type { LocalTool, WorkspaceHooks } from "../tools/index.js";
import type { Emitter } from "./emitter.js";
import { callModel } from "./model-call.js";
import { stopwatch } from "./stopwatch.js";
import { updateMessage, type VisibleAnswer } from "./prompts.js";
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
  /** The last answer set the agent saw in this round. */
  seen: AnswerSnapshot;
}

function assistantMessage(text: string, toolCalls: ToolCall[]): ChatMessage {
  return toolCalls.length > 0
    ? { role: "assistant", content: text, toolCalls }
    : { role: "assistant", content: text };
}

/**
 * Runs the round to its end. Never throws: backend failures and aborts become outcomes.
 */
export async function runAgentRound(options: AgentRoundOptions): Promise<AgentRoundResult> {
  const { agentId, round, judge, emitter, clock, signal } = options;
  const started = clock.now();
  const messages: ChatMessage[] = [{ role: "user", content: options.userMessage }];
  const localTools = new Map(options.localTools.map((tool) => [tool.spec.name, tool]));
  let seen = options.seen;
  let attempt = 1;
  let atStepBoundary = false;

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
      messages.push({ role: "user", content: updateMessage(snapshot.answers) });
      emitter.emit({ type: "update-injected", agentId, round, labels, via: "step" });
      seen = snapshot;
    }
    const request: ModelRequest = {
      system: typeof options.system === "function" ? options.system() : options.system,
      messages: [...messages],
      tools: [...judge.workflowTools(), ...options.localTools.map((tool) => tool.spec)],
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
      return end({ outcome: "error", error });
    }
    messages.push(assistantMessage(reply.text, reply.toolCalls));
    atStepBoundary = true;

    // Tools that run inside the round first; the model sees their results next step.
    const inside = reply.toolCalls.filter((call) => !isWorkflow(call));
    for (const call of inside) {
      const result = await runLocalTool(call, localTools, options);
      messages.push({
        role: "tool",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        ...result,
      });
    }
    const parsed = parseWorkflowCall(reply.toolCalls, judge.workflowToolNames);
    if (
      parsed.kind === "invalid" &&
      inside.length > 0 &&
      reply.toolCalls.length === inside.length
    ) {
      continue; // only working tools this step: the round goes on
    }

    let refusal: string | undefined;
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
      const toolResult = (output: string, isError: boolean) =>
        emitter.emit({
          type: "tool-result",
          agentId,
          round,
          toolCallId: parsed.call.toolCallId,
          toolName: parsed.call.toolName,
          output,
          isError,
          durationMs: clock.now() - submitted,
        });
      if (result.status === "accepted") {
        toolResult(ACCEPTED_OUTPUT[result.outcome], false);
        return end({ outcome: result.outcome });
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
        seen = result.snapshot;
        answerToolCalls(messages, reply.toolCalls.filter(isWorkflow), result.message);
        atStepBoundary = false; // the refusal already carries the update
        continue;
      }
      refusal = result.message;
    }

    emitter.emit({ type: "workflow-invalid", agentId, round, attempt, message: refusal });
    if (attempt >= MAX_ATTEMPTS) return end({ outcome: "invalid" });
    attempt++;
    const workflowCalls = reply.toolCalls.filter(isWorkflow);
    if (workflowCalls.length === 0) messages.push({ role: "user", content: refusal });
    else answerToolCalls(messages, workflowCalls, refusal);
    startAttempt();
  }
}

/** What the model is told when its workflow call was accepted. */
const ACCEPTED_OUTPUT: Record<Extract<SubmitResult, { status: "accepted" }>["outcome"], string> = {
  answer: "Answer recorded.",
  vote: "Vote recorded.",
  stop: "Stop recorded.",
};

/** Gives each workflow tool call of a step its (error) result, so the conversation stays valid. */
function answerToolCalls(
  messages: ChatMessage[],
  calls: readonly ToolCall[],
  message: string,
): void {
  for (const call of calls) {
    messages.push({
      role: "tool",
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      content: message,
      isError: true,
    });
  }
}

/**
 * Runs one tool call inside a round and emits its `tool-call` / `tool-result` with the duration.
 * @param options.presenting true in the final presentation (see `ToolCallContext`).
 */
export async function runLocalTool(
  call: ToolCall,
  tools: ReadonlyMap<string, LocalTool>,
  options: Pick<AgentRoundOptions, "agentId" | "round" | "emitter" | "clock" | "signal"> & {
    presenting?: boolean;
  },
): Promise<{ content: string; isError: boolean }> {
  const { agentId, round, emitter, clock } = options;
  emitter.emit({
    type: "tool-call",
    agentId,
    round,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    input: call.input,
  });
  const elapsed = stopwatch(clock);
  let content: string;
  let isError = false;
  const tool = tools.get(call.toolName);
  if (tool === undefined) {
    const names = [...tools.keys()];
    content =
      names.length > 0
        ? `Unknown tool ${call.toolName} (not one of: ${names.join(", ")}).`
        : `Unknown tool ${call.toolName}.`;
    isError = true;
  } else {
    try {
      content = await tool.execute(call.input, {
        agentId,
        presenting: options.presenting ?? false,
        signal: options.signal,
      });
    } catch (error) {
      content = error instanceof Error ? error.message : String(error);
      isError = true;
    }
  }
  emitter.emit({
    type: "tool-result",
    agentId,
    round,
    toolCallId: call.toolCallId,
    toolName: call.toolName,
    output: content,
    isError,
    durationMs: elapsed(),
  });
  return { content, isError };
}
