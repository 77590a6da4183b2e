/**
 * The pieces of a round's conversation (`./agent-round.ts`): the assistant message of a reply,
 * the results given to tool calls (a working tool's, a refused or ignored workflow call's), and
 * the refusals a model is sent when its reply held no valid workflow call, with the tools that
 * exist (docs/real-models.md).
 */
import type { ChatMessage, ToolCall, ToolSpec } from "../backends/index.js";
import type { LocalTool } from "../tools/index.js";
import type { AgentRoundOptions, SubmitResult } from "./round-types.js";
import { stopwatch } from "./stopwatch.js";

/** The assistant message of a reply: its text and tool calls. */
export function assistantMessage(text: string, toolCalls: ToolCall[]): ChatMessage {
  return toolCalls.length > 0
    ? { role: "assistant", content: text, toolCalls }
    : { role: "assistant", content: text };
}

/** Put before the refusal of a call whose cut-off JSON arguments coord repaired. */
export const REPAIRED_NOTE =
  "Your arguments were cut-off or malformed JSON; coord repaired them as far as it could, and then:";

/** What the model is told of a workflow call that another in the same reply overrode. */
export const IGNORED_CALL = "Ignored: only the last workflow call of a reply counts.";

/** The refusal of a reply without a workflow call: what was wrong and which tools exist. */
export function noWorkflowCallMessage(
  unknown: readonly ToolCall[],
  text: string,
  offered: readonly ToolSpec[],
): string {
  const names = offered.map((tool) => tool.name);
  const tools =
    names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
  const tail = `End your turn with exactly one call to ${tools}.`;
  if (unknown.length > 0) {
    const called = [...new Set(unknown.map((call) => call.toolName))].join(", ");
    return `${called} is not a tool you have. ${tail}`;
  }
  if (text !== "") {
    return `You replied in plain text without a tool call. ${tail} If your text is your answer, pass it to new_answer.`;
  }
  return `Your reply was empty. ${tail}`;
}

/** The diagnosis phrase of a refusal the mode gave, when it names a known misbehaviour. */
export function refusalPhrase(message: string): string | undefined {
  if (/identical to/i.test(message)) return "repeated an answer that already exists";
  if (/too similar/i.test(message)) return "repeated an answer with small changes";
  if (/answer limit/i.test(message)) return "kept answering past its answer limit";
  return undefined;
}

/** What the model is told when its workflow call was accepted. */
export const ACCEPTED_OUTPUT: Record<
  Extract<SubmitResult, { status: "accepted" }>["outcome"],
  string
> = {
  answer: "Answer recorded.",
  vote: "Vote recorded.",
  stop: "Stop recorded.",
};

/** Gives each workflow tool call of a step its (error) result, so the conversation stays valid. */
export function answerToolCalls(
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
  workflowTools: readonly ToolSpec[] = [],
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
    const names = [...workflowTools.map((spec) => spec.name), ...tools.keys()];
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

/**
 * Keeps a refused attempt's conversation from growing (fewer prompt tokens per retry): when
 * attempt N is refused,
 * the exchange of attempt N−1's refusal (its reply, the results given to its calls, the refusal) is
 * taken out, so every retry sends the opening, the steps that ran working tools, and only the
 * latest refused reply with its refusal. An exchange whose reply also ran working tools is kept
 * (their results are part of the work).
 * @returns where the latest refused exchange now lies in `messages`.
 */
export function dropEarlierRefusal(
  messages: ChatMessage[],
  earlier: { start: number; end: number } | undefined,
  latest: { start: number; end: number },
  isWorkingTool: (name: string) => boolean,
): { start: number; end: number } {
  if (earlier === undefined) return latest;
  const ranTools = messages
    .slice(earlier.start, earlier.end)
    .some((message) => message.role === "tool" && isWorkingTool(message.toolName));
  if (ranTools) return latest;
  messages.splice(earlier.start, earlier.end - earlier.start);
  const removed = earlier.end - earlier.start;
  return { start: latest.start - removed, end: latest.end - removed };
}
