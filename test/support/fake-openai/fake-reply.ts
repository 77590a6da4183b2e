/**
 * The fake OpenAI server's vocabulary: a received {@link FakeRequest}, the {@link FakeReply} a
 * handler scripts for it (text, reasoning, tool calls, usage, HTTP or in-stream errors, delays and
 * dropped connections), and the {@link FakeHandler} that decides one from the other.
 */
import type { IncomingHttpHeaders } from "node:http";

/** One request as the server received it. */
export interface FakeRequest {
  method: string;
  /** Path without query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Query parameters (`?alt=sse`, `?api-version=…`); absent on servers that do not record them. */
  query?: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The JSON body (an empty object when there was none or it was not JSON). */
  body: Record<string, unknown>;
}

/** Token counts to report; absent counts are estimated (≈ 4 characters per token) or 0. */
export interface FakeUsage {
  inputTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** A tool call to stream. `arguments` is an object (JSON-encoded) or raw argument text. */
export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  /** Call id; default `call_<n>`. */
  id?: string;
}

/**
 * A tool the provider runs itself (web search, code execution), streamed before the text in the
 * provider's own format. Only the Anthropic, Gemini, xAI and Azure fakes send these.
 */
export interface FakeProviderToolCall {
  /** Provider tool: `web_search` or `code_execution`. */
  name: "web_search" | "code_execution";
  /** The call's input, e.g. `{query: "…"}` or `{code: "…"}`. */
  input: Record<string, unknown>;
  /** Results: for web search a list of `{url, title}`, for code execution `{stdout, stderr?, returnCode?}`. */
  result:
    { url: string; title: string }[] | { stdout: string; stderr?: string; returnCode?: number };
  /** Call id; default from the provider's id scheme. */
  id?: string;
}

/** What the server should answer to one request. */
export interface FakeReply {
  /**
   * Tools the provider executes itself, streamed before the text (Anthropic, Gemini, and the
   * Responses API of the OpenAI and Azure fakes; not Chat Completions).
   */
  providerToolCalls?: FakeProviderToolCall[];
  /**
   * A recorded SSE body (e.g. `readWireFixture("anthropic", "text.sse")`) to replay verbatim
   * instead of assembling one from the other fields (not the OpenAI fake).
   */
  sse?: string;
  /** Reasoning streamed first (`reasoning_content` / reasoning summary). */
  reasoning?: string;
  /** Assistant text, streamed a word at a time. */
  text?: string;
  /** Chat Completions: stream the text as exactly these deltas (set `text` to their join too). */
  textChunks?: string[];
  /** Tool calls streamed after the text. */
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  /**
   * Finish reason in the API's vocabulary (Chat Completions: `stop`, `tool_calls`, `length`,
   * `content_filter`; Responses: `max_output_tokens` or `content_filter` make it incomplete).
   * Default: `tool_calls` when there are tool calls, else `stop`.
   */
  finishReason?: string;
  /** Answer with an HTTP error instead. */
  error?: {
    status: number;
    message: string;
    /** Default: from the status (`invalid_request_error`, `rate_limit_error`, …). */
    type?: string;
    code?: string | null;
    /** `Retry-After` header value: seconds or an HTTP-date. */
    retryAfter?: string | number;
    /** `retry-after-ms` header value in milliseconds. */
    retryAfterMs?: number;
  };
  /** Send this error frame after the text, then end the stream (HTTP 200). */
  streamError?: { message: string; type?: string; code?: string | null };
  /** Wait this long (ms) before sending the response headers. */
  delayMs?: number;
  /** Wait this long (ms) between streamed events. */
  chunkDelayMs?: number;
  /** Cut the connection (no clean end) after this many streamed events. */
  dropAfterEvents?: number;
}

/** Decides the reply to one request. */
export type FakeHandler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;
