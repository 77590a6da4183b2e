/**
 * Anthropic Messages API wire format (`POST /v1/messages`), assembled from a {@link FakeReply}:
 * the SSE event sequence of a streamed message (`message_start`, `ping`, per content block
 * `content_block_start` / `content_block_delta` / `content_block_stop`, `message_delta` with the
 * stop reason and output usage, `message_stop`), the non-streamed `message` object, and the
 * error body `{"type": "error", "error": {type, message}}`.
 *
 * Shapes follow Anthropic's streaming docs (recorded samples in `test/fixtures/wire/anthropic/`)
 * and the zod chunk schema `anthropicMessagesChunkSchema` in `@ai-sdk/anthropic`
 * (`src/anthropic-messages-api.ts`).
 */
import type { FakeProviderToolCall, FakeReply } from "../fake-openai/fake-reply.js";
import {
  argumentsText,
  splitInto,
  splitWords,
  type CompleteUsage,
  type SseEvent,
} from "../fake-openai/wire-helpers.js";

/** A content block of an Anthropic message, as the non-streamed response carries it. */
type ContentBlock = Record<string, unknown> & { type: string };

/** The Anthropic error `type` for an HTTP status (529 is Anthropic's "overloaded"). */
export function anthropicErrorType(status: number): string {
  if (status === 400) return "invalid_request_error";
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 413) return "request_too_large";
  if (status === 429) return "rate_limit_error";
  if (status === 529 || status === 503) return "overloaded_error";
  return "api_error";
}

/** Anthropic's error body: `{"type": "error", "error": {"type", "message"}}`. */
export function anthropicErrorBody(
  status: number,
  error: { message: string; type?: string },
): { type: "error"; error: { type: string; message: string } } {
  return {
    type: "error",
    error: { type: error.type ?? anthropicErrorType(status), message: error.message },
  };
}

/** The Anthropic `stop_reason` for a reply (`end_turn`, `tool_use`, `max_tokens`, …). */
export function anthropicStopReason(reply: FakeReply): string {
  if (reply.finishReason !== undefined) {
    if (reply.finishReason === "length") return "max_tokens";
    if (reply.finishReason === "stop") return "end_turn";
    if (reply.finishReason === "tool_calls") return "tool_use";
    return reply.finishReason;
  }
  return (reply.toolCalls ?? []).length > 0 ? "tool_use" : "end_turn";
}

/**
 * Usage as Anthropic reports it: `input_tokens` excludes cache reads (the SDK adds
 * `cache_read_input_tokens` back to get the total), thinking tokens in `output_tokens_details`.
 */
function wireUsage(usage: CompleteUsage): Record<string, unknown> {
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedInputTokens,
  };
}

/** The content blocks of a reply in stream order: thinking, provider tools, text, tool uses. */
function contentBlocks(reply: FakeReply): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  if (reply.reasoning) {
    blocks.push({ type: "thinking", thinking: reply.reasoning, signature: "fake-signature" });
  }
  for (const [index, call] of (reply.providerToolCalls ?? []).entries()) {
    const id = call.id ?? `srvtoolu_fake${index + 1}`;
    // code_execution_20250825 runs code as bash commands (`bash_code_execution`).
    const name = call.name === "code_execution" ? "bash_code_execution" : call.name;
    blocks.push({ type: "server_tool_use", id, name, input: call.input });
    blocks.push(serverToolResult(call, id));
  }
  if (reply.text) blocks.push({ type: "text", text: reply.text });
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    blocks.push({
      type: "tool_use",
      id: call.id ?? `toolu_fake${index + 1}`,
      name: call.name,
      input: JSON.parse(argumentsText(call)) as unknown,
    });
  }
  return blocks;
}

function serverToolResult(call: FakeProviderToolCall, id: string): ContentBlock {
  if (call.name === "web_search") {
    const results = Array.isArray(call.result) ? call.result : [];
    return {
      type: "web_search_tool_result",
      tool_use_id: id,
      content: results.map((result) => ({
        type: "web_search_result",
        url: result.url,
        title: result.title,
        encrypted_content: "ZmFrZQ==",
        page_age: null,
      })),
    };
  }
  const output = Array.isArray(call.result) ? { stdout: "" } : call.result;
  return {
    type: "bash_code_execution_tool_result",
    tool_use_id: id,
    content: {
      type: "bash_code_execution_result",
      stdout: output.stdout,
      stderr: output.stderr ?? "",
      return_code: output.returnCode ?? 0,
      content: [],
    },
  };
}

/**
 * The SSE events of one streamed message. Text streams a word at a time, thinking in a few
 * pieces followed by a `signature_delta`, tool-use input as `input_json_delta` pieces. A
 * `streamError` sends an `error` event after the text and ends the stream.
 */
export function messagesEvents(reply: FakeReply, model: string, usage: CompleteUsage): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (type: string, data: Record<string, unknown>) =>
    events.push({ event: type, data: { type, ...data } });

  push("message_start", {
    message: {
      id: "msg_fake01",
      type: "message",
      role: "assistant",
      content: [],
      model,
      stop_reason: null,
      stop_sequence: null,
      usage: { ...wireUsage(usage), output_tokens: 1 },
    },
  });
  push("ping", {});

  for (const [index, block] of contentBlocks(reply).entries()) {
    switch (block.type) {
      case "thinking":
        push("content_block_start", { index, content_block: { type: "thinking", thinking: "" } });
        for (const piece of splitInto(String(block.thinking), 3)) {
          push("content_block_delta", {
            index,
            delta: { type: "thinking_delta", thinking: piece },
          });
        }
        push("content_block_delta", {
          index,
          delta: { type: "signature_delta", signature: String(block.signature) },
        });
        break;
      case "text":
        push("content_block_start", { index, content_block: { type: "text", text: "" } });
        for (const word of splitWords(String(block.text))) {
          push("content_block_delta", { index, delta: { type: "text_delta", text: word } });
        }
        break;
      case "tool_use":
      case "server_tool_use": {
        push("content_block_start", {
          index,
          content_block: { type: block.type, id: block.id, name: block.name, input: {} },
        });
        for (const piece of splitInto(JSON.stringify(block.input), 3)) {
          push("content_block_delta", {
            index,
            delta: { type: "input_json_delta", partial_json: piece },
          });
        }
        break;
      }
      default:
        // Result blocks arrive whole in their start event.
        push("content_block_start", { index, content_block: block });
        break;
    }
    push("content_block_stop", { index });
    if (block.type === "text" && reply.streamError) {
      push("error", {
        error: {
          type: reply.streamError.type ?? "overloaded_error",
          message: reply.streamError.message,
        },
      });
      return events;
    }
  }
  if (reply.streamError && !reply.text) {
    push("error", {
      error: {
        type: reply.streamError.type ?? "overloaded_error",
        message: reply.streamError.message,
      },
    });
    return events;
  }

  push("message_delta", {
    delta: { stop_reason: anthropicStopReason(reply), stop_sequence: null },
    usage: {
      ...wireUsage(usage),
      output_tokens: usage.outputTokens,
      ...(usage.reasoningTokens > 0
        ? { output_tokens_details: { thinking_tokens: usage.reasoningTokens } }
        : {}),
    },
  });
  push("message_stop", {});
  return events;
}

/** The non-streamed `message` object of a reply (`stream: false`). */
export function messageObject(
  reply: FakeReply,
  model: string,
  usage: CompleteUsage,
): Record<string, unknown> {
  return {
    id: "msg_fake01",
    type: "message",
    role: "assistant",
    model,
    content: contentBlocks(reply),
    stop_reason: anthropicStopReason(reply),
    stop_sequence: null,
    usage: { ...wireUsage(usage), output_tokens: usage.outputTokens },
  };
}
