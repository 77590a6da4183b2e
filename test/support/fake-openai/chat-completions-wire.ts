/**
 * The Chat Completions wire format of the fake OpenAI server (`POST /v1/chat/completions`): SSE
 * `chat.completion.chunk` lines (text deltas, `reasoning_content` deltas, tool calls with id+name
 * first and arguments split over several chunks, a final chunk with `finish_reason`, a usage chunk
 * when `stream_options.include_usage`, `[DONE]`), or one `chat.completion` JSON object.
 *
 * Shapes follow `@ai-sdk/openai-compatible` (`chat/openai-compatible-chat-language-model.ts`).
 */
import type { FakeReply } from "./fake-reply.js";
import {
  argumentsText,
  CREATED_AT,
  openAIErrorBody,
  splitInto,
  splitWords,
  type CompleteUsage,
  type SseEvent,
} from "./wire-helpers.js";

/** SSE events (JSON payloads; the string `[DONE]` last) of a streamed chat completion. */
export function chatCompletionEvents(
  reply: FakeReply,
  model: string,
  usage: CompleteUsage,
  includeUsage: boolean,
): SseEvent[] {
  const base = {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: CREATED_AT,
    model,
    system_fingerprint: "fp_fake",
  };
  const usageField = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): SseEvent => ({
    data: {
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...usageField,
    },
  });

  const events: SseEvent[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of splitWords(reply.reasoning ?? "")) {
    events.push(chunk({ reasoning_content: piece }));
  }
  for (const piece of reply.textChunks ?? splitWords(reply.text ?? ""))
    events.push(chunk({ content: piece }));
  if (reply.streamError) {
    events.push({ data: { error: openAIErrorBody(500, reply.streamError).error } });
    return events;
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id ?? `call_${index + 1}`,
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    for (const piece of splitInto(argumentsText(call), 3)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk({}, finishReasonOf(reply)));
  if (includeUsage) {
    events.push({ data: { ...base, choices: [], usage: chatUsage(usage) } });
  }
  events.push({ data: "[DONE]" });
  return events;
}

/** A non-streamed `chat.completion` object. */
export function chatCompletion(reply: FakeReply, model: string, usage: CompleteUsage): unknown {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    type: "function",
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: CREATED_AT,
    model,
    system_fingerprint: "fp_fake",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          refusal: null,
          ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(reply),
      },
    ],
    usage: chatUsage(usage),
  };
}

function chatUsage(usage: CompleteUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function finishReasonOf(reply: FakeReply): string {
  return reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? "tool_calls" : "stop");
}
