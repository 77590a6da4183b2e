/**
 * Request conversion for ai SDK calls: one provider-neutral {@link ModelRequest} (`backend.ts`)
 * becomes the call options of a provider's language model (`LanguageModelV3.doStream`, the
 * interface every `@ai-sdk/*` provider implements): the prompt in the SDK's standard form, the
 * tools as JSON-schema function tools, the tool choice and the sampling settings. Used by
 * `streamWithAiSdk` in `ai-sdk-stream.ts`.
 *
 * The SDK's `streamText` builds the same options from its friendlier message types and then
 * validates them with zod on every call; coord's messages are few and fixed in shape, so they are
 * converted directly (the same mapping as the SDK's `convertToLanguageModelPrompt` and
 * `prepareToolsAndToolChoice` for text, tool calls and tool results) and checked by the compiler.
 */
import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ProviderTool,
  LanguageModelV3ToolResultPart,
} from "@ai-sdk/provider";
import type { ChatMessage, ModelRequest, ToolSpec } from "./backend.js";

/** A tool offered to the model: one of ours (JSON schema) or one the provider runs itself. */
export type AiSdkTool = LanguageModelV3FunctionTool | LanguageModelV3ProviderTool;

/** The call options built from one request (everything except the signal and provider options). */
export interface AiSdkCallArguments {
  prompt: LanguageModelV3Prompt;
  tools?: AiSdkTool[];
  toolChoice?: { type: "auto" | "required" | "none" };
  temperature?: number;
  maxOutputTokens?: number;
}

/**
 * Converts one request into call options: the system prompt as the first message (omitted when
 * empty), the messages in the SDK's standard prompt form, and tools with their tool choice (both
 * omitted when no tool is offered, so `required` never reaches a provider without tools).
 */
export function toCallArguments(request: ModelRequest): AiSdkCallArguments {
  const hasTools = request.tools.length > 0;
  return {
    prompt: toPrompt(request.system, request.messages),
    ...(hasTools
      ? { tools: toFunctionTools(request.tools), toolChoice: { type: request.toolChoice } }
      : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...(request.maxOutputTokens !== undefined ? { maxOutputTokens: request.maxOutputTokens } : {}),
  };
}

/**
 * Converts coord's system prompt and messages to the SDK's standard prompt. Text content becomes
 * a text part; an assistant message becomes a text part (when non-empty) plus one `tool-call` part
 * per call; consecutive `tool` messages merge into one tool message with one `tool-result` part
 * each (`error-text` output when `isError`).
 */
export function toPrompt(system: string, messages: readonly ChatMessage[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Message[] =
    system !== "" ? [{ role: "system", content: system }] : [];
  for (const message of messages) {
    switch (message.role) {
      case "user":
        prompt.push({ role: "user", content: [{ type: "text", text: message.content }] });
        break;
      case "assistant": {
        const calls = message.toolCalls ?? [];
        const text = calls.length === 0 || message.content !== "";
        prompt.push({
          role: "assistant",
          content: [
            ...(text ? [{ type: "text" as const, text: message.content }] : []),
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
        const part: LanguageModelV3ToolResultPart = {
          type: "tool-result",
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: {
            type: message.isError === true ? "error-text" : "text",
            value: message.content,
          },
        };
        const previous = prompt.at(-1);
        if (previous?.role === "tool") previous.content.push(part);
        else prompt.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return prompt;
}

/**
 * Converts tool specs to function tools. They carry no code: the provider reports calls instead of
 * anything running them, and the engine validates their inputs the same way for every provider.
 */
export function toFunctionTools(tools: readonly ToolSpec[]): LanguageModelV3FunctionTool[] {
  return tools.map((spec) => ({
    type: "function",
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
  }));
}
