/**
 * Pieces both fake wire formats (Chat Completions and Responses) and the server share: the SSE
 * event shape, the fixed `created` timestamp, usage with every count filled in, OpenAI's error
 * body, and the text splitting that turns one reply into many streamed deltas.
 */
import type { FakeReply, FakeToolCall } from "./fake-reply.js";

/** Fixed `created` timestamp (s) so recorded streams are reproducible. */
export const CREATED_AT = 1_700_000_000;

/** One server-sent event as the fake writes it. */
export interface SseEvent {
  /** `event:` line (Responses API); absent for Chat Completions. */
  event?: string;
  /** JSON payload, or a raw string such as `[DONE]`. */
  data: unknown;
}

/** Token counts of one reply with every count present (see {@link completeUsage}). */
export interface CompleteUsage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
}

/** OpenAI's error body: `{"error": {"message", "type", "param", "code"}}`. */
export function openAIErrorBody(
  status: number,
  error: { message: string; type?: string; code?: string | null },
): { error: { message: string; type: string; param: null; code: string | null } } {
  const type =
    error.type ??
    (status === 401
      ? "invalid_request_error"
      : status === 429
        ? "rate_limit_error"
        : status >= 500
          ? "server_error"
          : "invalid_request_error");
  const code =
    error.code !== undefined
      ? error.code
      : status === 401
        ? "invalid_api_key"
        : status === 429
          ? "rate_limit_exceeded"
          : null;
  return { error: { message: error.message, type, param: null, code } };
}

/** The reply's usage, estimating absent input/output counts (≈ 4 characters per token). */
export function completeUsage(reply: FakeReply, body: Record<string, unknown>): CompleteUsage {
  const estimate = (text: string) => Math.max(1, Math.ceil(text.length / 4));
  const output = [
    reply.reasoning ?? "",
    reply.text ?? "",
    ...(reply.toolCalls ?? []).map(argumentsText),
  ].join("");
  return {
    inputTokens:
      reply.usage?.inputTokens ?? estimate(JSON.stringify(body.messages ?? body.input ?? "")),
    outputTokens: reply.usage?.outputTokens ?? estimate(output),
    reasoningTokens: reply.usage?.reasoningTokens ?? 0,
    cachedInputTokens: reply.usage?.cachedInputTokens ?? 0,
  };
}

/** A tool call's arguments as the JSON text sent on the wire. */
export function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

/** Splits text into words with their trailing spaces (`"a b"` → `["a ", "b"]`). */
export function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits text into `parts` pieces of about equal length (fewer when the text is shorter). */
export function splitInto(text: string, parts: number): string[] {
  if (text === "") return [];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
