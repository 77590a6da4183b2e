/**
 * xAI's Chat Completions wire format (`POST /v1/chat/completions`), assembled from a
 * {@link FakeReply}. It looks like OpenAI's but differs where it matters to a client:
 *
 * - reasoning models (grok-3-mini) stream `reasoning_content` deltas;
 * - a tool call arrives whole in one chunk (`id`, `type`, `function.name`, complete `arguments`),
 *   never split over several chunks, and carries no `index`;
 * - usage counts reasoning apart: `completion_tokens` excludes
 *   `completion_tokens_details.reasoning_tokens`; `prompt_tokens` includes cached tokens;
 * - every chunk carries the usage so far (the last one the totals), the last also `citations`
 *   when the answer used search;
 * - errors: `{"code": "…", "error": "…"}`; a request that fails after being accepted is answered
 *   HTTP 200 with that JSON body instead of an event stream (the server does this for
 *   `streamError`).
 *
 * Shapes follow xAI's API reference (recorded samples in `test/fixtures/wire/xai/`) and the zod
 * `xaiChatChunkSchema` in `@ai-sdk/xai` (`src/xai-chat-language-model.ts`).
 */
import type { FakeReply } from "../fake-openai/fake-reply.js";
import {
  argumentsText,
  CREATED_AT,
  splitInto,
  splitWords,
  type CompleteUsage,
  type SseEvent,
} from "../fake-openai/wire-helpers.js";

/** xAI's error body for an HTTP status: `{"code": "…", "error": "…"}`. */
export function xaiErrorBody(
  status: number,
  error: { message: string; code?: string | null },
): { code: string; error: string } {
  const code =
    error.code ??
    (status === 400
      ? "Client specified an invalid argument"
      : status === 401 || status === 403
        ? "The caller does not have permission to execute the specified operation"
        : status === 404
          ? "Some requested entity was not found"
          : status === 429
            ? "Some resource has been exhausted"
            : "Internal error");
  return { code, error: error.message };
}

/** xAI's usage object: reasoning tokens reported apart from `completion_tokens`. */
function wireUsage(usage: CompleteUsage): Record<string, unknown> {
  const completion = Math.max(0, usage.outputTokens - usage.reasoningTokens);
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: completion,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: {
      text_tokens: usage.inputTokens,
      audio_tokens: 0,
      image_tokens: 0,
      cached_tokens: usage.cachedInputTokens,
    },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
    num_sources_used: 0,
  };
}

/** The SSE events of one streamed chat completion, ending with `[DONE]`. */
export function xaiChatEvents(reply: FakeReply, model: string, usage: CompleteUsage): SseEvent[] {
  // xAI repeats the usage so far on every chunk; the fake repeats the final counts.
  const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    data: {
      id: "fake-xai-completion-01",
      object: "chat.completion.chunk",
      created: CREATED_AT,
      model,
      choices: [{ index: 0, delta, ...extra }],
      usage: wireUsage(usage),
      system_fingerprint: "fp_fake",
    },
  });
  const events: SseEvent[] = [];
  for (const piece of splitInto(reply.reasoning ?? "", 3)) {
    events.push(chunk({ role: "assistant", reasoning_content: piece }));
  }
  for (const word of splitWords(reply.text ?? "")) {
    events.push(chunk({ role: "assistant", content: word }));
  }
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    events.push(
      chunk({
        role: "assistant",
        tool_calls: [
          {
            id: call.id ?? `call_fake${index + 1}`,
            type: "function",
            function: { name: call.name, arguments: argumentsText(call) },
          },
        ],
      }),
    );
  }
  const finishReason =
    reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? "tool_calls" : "stop");
  const citations = (reply.providerToolCalls ?? []).flatMap((call) =>
    Array.isArray(call.result) ? call.result.map((result) => result.url) : [],
  );
  events.push({
    data: {
      id: "fake-xai-completion-01",
      object: "chat.completion.chunk",
      created: CREATED_AT,
      model,
      choices: [{ index: 0, delta: {}, finish_reason: finishReason }],
      usage: wireUsage(usage),
      ...(citations.length > 0 ? { citations } : {}),
      system_fingerprint: "fp_fake",
    },
  });
  events.push({ data: "[DONE]" });
  return events;
}

/** The non-streamed `chat.completion` object of a reply. */
export function xaiChatCompletion(
  reply: FakeReply,
  model: string,
  usage: CompleteUsage,
): Record<string, unknown> {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_fake${index + 1}`,
    type: "function",
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  return {
    id: "fake-xai-completion-01",
    object: "chat.completion",
    created: CREATED_AT,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? "",
          ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: reply.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
      },
    ],
    usage: wireUsage(usage),
    system_fingerprint: "fp_fake",
  };
}
