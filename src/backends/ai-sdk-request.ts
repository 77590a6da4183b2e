/**
 * Request conversion for ai SDK calls: one provider-neutral {@link ModelRequest} (`backend.ts`)
 * becomes the `streamText` arguments (system prompt, ai SDK messages, tools without `execute`, tool
 * choice, sampling settings). Used by `streamWithAiSdk` in `ai-sdk-stream.ts`.
 */
import { jsonSchema, tool, type JSONSchema7, type ModelMessage, type ToolSet } from "ai";
import type { ChatMessage, ModelRequest, ToolSpec } from "./backend.js";

/** The `streamText` arguments built from one request (everything except the model and callbacks). */
export interface AiSdkCallArguments {
  system?: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  toolChoice?: "auto" | "required" | "none";
  temperature?: number;
  maxOutputTokens?: number;
}

/**
 * Converts one request into `streamText` arguments: the system prompt (omitted when empty), the
 * messages as ai SDK {@link ModelMessage}s, and tools with `toolChoice` (both omitted when no tool
 * is offered, so `required` never reaches a provider without tools).
 */
export function toStreamTextArguments(request: ModelRequest): AiSdkCallArguments {
  const hasTools = request.tools.length > 0;
  return {
    ...(request.system !== "" ? { system: request.system } : {}),
    messages: toModelMessages(request.messages),
    ...(hasTools ? { tools: toAiSdkTools(request.tools), toolChoice: request.toolChoice } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
  };
}

/**
 * Converts coord's messages to ai SDK messages. An assistant message becomes a text part (when
 * non-empty) plus one `tool-call` part per call; consecutive `tool` messages merge into one tool
 * message with one `tool-result` part each (`error-text` output when `isError`).
 */
export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  const converted: ModelMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "user":
        converted.push({ role: "user", content: message.content });
        break;
      case "assistant": {
        const calls = message.toolCalls ?? [];
        if (calls.length === 0) {
          converted.push({ role: "assistant", content: message.content });
          break;
        }
        converted.push({
          role: "assistant",
          content: [
            ...(message.content !== "" ? [{ type: "text" as const, text: message.content }] : []),
            ...calls.map((call) => ({
              type: "tool-call" as const,
              toolCallId: call.toolCallId,
              toolName: call.toolName,
              input: call.input,
            })),
          ],
        });
        break;
      }
      case "tool": {
        const part = {
          type: "tool-result" as const,
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: message.isError
            ? { type: "error-text" as const, value: message.content }
            : { type: "text" as const, value: message.content },
        };
        const previous = converted.at(-1);
        if (previous?.role === "tool") previous.content.push(part);
        else converted.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return converted;
}

/**
 * Converts tool specs to an ai SDK tool set keyed by name. The tools have no `execute`, so the
 * SDK reports calls instead of running them, and no validator: inputs arrive as parsed JSON and
 * the engine validates them the same way for every provider.
 */
export function toAiSdkTools(tools: ToolSpec[]): ToolSet {
  const set: ToolSet = {};
  for (const spec of tools) {
    set[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema(spec.inputSchema as JSONSchema7),
    });
  }
  return set;
}
