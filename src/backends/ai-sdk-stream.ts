/**
 * The bridge between coord's provider-neutral backend types (`backend.ts`) and the `ai` SDK v6:
 * one {@link ModelRequest} becomes one `streamText` call with no tool execution (the engine owns
 * the tool loop, STYLE.md rule 4), and the SDK's `fullStream` parts become {@link BackendChunk}s.
 * Every provider failure leaves here as a {@link BackendError}; aborts leave as the abort reason.
 *
 * Shared by the OpenAI (Responses) and Chat Completions backends; other ai-SDK providers can use it
 * as they are added.
 */
import {
  APICallError,
  jsonSchema,
  streamText,
  tool,
  type JSONSchema7,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolSet,
} from "ai";
import type { Clock } from "../clock.js";
import {
  BackendError,
  isRetryableStatus,
  type BackendChunk,
  type ChatMessage,
  type ModelRequest,
  type StreamOptions,
  type ToolSpec,
  type Usage,
} from "./backend.js";

type StreamTextArguments = Parameters<typeof streamText>[0];

/** Provider-specific options passed through to the ai SDK (`{openai: {...}}`, …). */
export type AiSdkProviderOptions = NonNullable<StreamTextArguments["providerOptions"]>;

/** Options of {@link streamWithAiSdk}: the per-call options plus injected helpers. */
export interface AiSdkStreamOptions extends StreamOptions {
  /** Provider options for this model (e.g. `{openai: {reasoningSummary: "auto"}}`). */
  providerOptions?: AiSdkProviderOptions;
  /** Clock used to turn a `Retry-After` HTTP-date into milliseconds. Default: `Date.now`. */
  clock?: Pick<Clock, "now">;
  /**
   * Appended to 401/403 error messages to say what fixes them, e.g.
   * `"check OPENAI_API_KEY or api_key: in the config"`.
   */
  authHint?: string;
  /** Appended to "cannot reach" messages, e.g. `"is LM Studio running? check base_url:"`. */
  unreachableHint?: string;
}

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
 * Streams one model call through the ai SDK and yields coord's chunks: `text-delta`,
 * `reasoning-delta` and `tool-call` (with the parsed input object) as they arrive, then exactly
 * one `finish` with the usage in tokens (absent counts are 0).
 *
 * The SDK neither executes tools (tools carry no `execute`) nor retries (`maxRetries: 0`; retries
 * are a wrapper, STYLE.md rule 5).
 *
 * @param model an ai SDK language model, e.g. `createOpenAI(...).responses("gpt-5")`.
 * @param providerName who to blame in errors (`openai`, `openrouter`, `lmstudio`, …).
 * @param request the one model call to make.
 * @param options the abort signal plus optional provider options, clock and auth hint.
 * @throws BackendError for HTTP errors, error events in the stream, network failures and
 *   malformed responses; `retryable` for 408/409/429/5xx and network errors, `retryAfterMs` from
 *   `retry-after-ms` / `Retry-After` (seconds or HTTP-date).
 * @throws the signal's abort reason (an `AbortError` DOMException unless the caller gave another
 *   Error) when `options.signal` aborts.
 */
export async function* streamWithAiSdk(
  model: LanguageModel,
  providerName: string,
  request: ModelRequest,
  options: AiSdkStreamOptions,
): AsyncIterable<BackendChunk> {
  const { signal } = options;
  const mapError = (error: unknown): unknown =>
    isAbortLike(error, signal)
      ? abortReason(signal, error)
      : toBackendError(error, {
          provider: providerName,
          nowMs: (options.clock ?? Date).now(),
          authHint: options.authHint,
          unreachableHint: options.unreachableHint,
        });

  if (signal.aborted) throw abortReason(signal);

  let finish: Extract<BackendChunk, { type: "finish" }> | undefined;
  try {
    const result = streamText({
      model,
      ...toStreamTextArguments(request),
      abortSignal: signal,
      maxRetries: 0,
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
      // Errors arrive as `error` parts below; without this the SDK also prints them to stderr.
      onError: () => {},
    });

    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-delta":
          if (part.text !== "") yield { type: "text-delta", text: part.text };
          break;
        case "reasoning-delta":
          if (part.text !== "") yield { type: "reasoning-delta", text: part.text };
          break;
        case "tool-call":
          // Provider-executed calls (hosted tools) are not ours to run.
          if (part.providerExecuted !== true) {
            yield {
              type: "tool-call",
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
            };
          }
          break;
        case "error":
          throw mapError(part.error);
        case "abort":
          throw abortReason(signal);
        case "finish":
          finish = {
            type: "finish",
            finishReason: part.finishReason,
            usage: toUsage(part.totalUsage),
          };
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (error instanceof BackendError || isAbortLike(error, signal)) throw error;
    throw mapError(error);
  }

  if (signal.aborted) throw abortReason(signal);
  if (finish === undefined) {
    throw new BackendError({
      message: `${providerName}: the response stream ended without a finish event`,
      provider: providerName,
      retryable: true,
    });
  }
  yield finish;
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

/** Converts ai SDK usage to coord's usage in tokens; absent counts become 0. */
export function toUsage(usage: LanguageModelUsage | undefined): Usage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    reasoningTokens: usage?.outputTokenDetails?.reasoningTokens ?? usage?.reasoningTokens ?? 0,
    cachedInputTokens: usage?.inputTokenDetails?.cacheReadTokens ?? usage?.cachedInputTokens ?? 0,
  };
}

/**
 * Maps any failure of an ai SDK call to a {@link BackendError} naming the provider and carrying
 * the provider's own message. Handles `APICallError` (HTTP status, response body, headers),
 * stream error objects (`{message, statusCode?, isRetryable?}` as the OpenAI providers emit them,
 * or a raw `{error: {message, code}}` frame) and network errors.
 *
 * @param error whatever the SDK threw or put in an `error` stream part.
 * @param context.provider provider name for the message and `BackendError.provider`.
 * @param context.nowMs current time (ms since epoch), to resolve an HTTP-date `Retry-After`.
 * @param context.authHint appended to 401/403 messages.
 * @param context.unreachableHint appended to connection-failure messages.
 */
export function toBackendError(
  error: unknown,
  context: {
    provider: string;
    nowMs: number;
    authHint?: string | undefined;
    unreachableHint?: string | undefined;
  },
): BackendError {
  if (error instanceof BackendError) return error;
  const { provider } = context;
  const unreachable = context.unreachableHint ? ` (${context.unreachableHint})` : "";

  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    if (status === undefined) {
      return new BackendError({
        message: `${provider}: cannot reach ${error.url}: ${error.message}${unreachable}`,
        provider,
        retryable: error.isRetryable || isNetworkError(error),
        cause: error,
      });
    }
    if (status < 400) {
      // A successful response whose body broke off or could not be read.
      const reason = error.cause === undefined ? "" : `: ${errorText(error.cause)}`;
      return new BackendError({
        message: `${provider}: the response stream failed (${error.message}${reason})`,
        provider,
        retryable: isNetworkError(error),
        cause: error,
      });
    }
    const detail = messageFromResponseBody(error.responseBody) ?? error.message;
    return new BackendError({
      message: httpErrorMessage(provider, status, detail, context.authHint),
      provider,
      status,
      retryable: isRetryableStatus(status) && !isQuotaExhausted(error.responseBody),
      retryAfterMs: parseRetryAfterMs(error.responseHeaders, context.nowMs),
      cause: error,
    });
  }

  if (isNetworkError(error)) {
    return new BackendError({
      message: `${provider}: network error: ${errorText(error)}${unreachable}`,
      provider,
      retryable: true,
      cause: error,
    });
  }

  const streamError = streamErrorFields(error);
  if (streamError !== undefined) {
    const { status, message } = streamError;
    return new BackendError({
      message:
        status !== undefined
          ? httpErrorMessage(provider, status, message, context.authHint)
          : `${provider}: ${message}`,
      provider,
      ...(status !== undefined ? { status } : {}),
      retryable: streamError.retryable,
      cause: error,
    });
  }

  return new BackendError({
    message: `${provider}: ${errorText(error)}`,
    provider,
    retryable: false,
    cause: error,
  });
}

/**
 * Milliseconds a provider asked us to wait, from `retry-after-ms` (milliseconds, OpenAI) or
 * `Retry-After` (delay-seconds or an HTTP-date, RFC 9110 §10.2.3). Header names are matched
 * case-insensitively; a date in the past gives 0.
 *
 * @param headers response headers, or undefined.
 * @param nowMs current time in ms since the epoch (for HTTP-dates).
 * @returns the delay in ms, or undefined when absent or unparseable.
 */
export function parseRetryAfterMs(
  headers: Record<string, string> | undefined,
  nowMs: number,
): number | undefined {
  if (headers === undefined) return undefined;
  const lower = new Map(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));

  const milliseconds = lower.get("retry-after-ms")?.trim();
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds)) {
    return Math.round(Number(milliseconds));
  }

  const retryAfter = lower.get("retry-after")?.trim();
  if (retryAfter === undefined || retryAfter === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

/**
 * The provider's own error message from a JSON error body: `{"error": {"message"}}` (OpenAI and
 * most compatible servers), `{"error": "text"}` (Ollama), `{"message"}` or `{"detail"}` (vLLM,
 * FastAPI). Returns undefined for an empty or non-JSON body.
 */
export function messageFromResponseBody(body: string | undefined): string | undefined {
  if (body === undefined || body.trim() === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const { error } = parsed;
  if (isRecord(error) && typeof error.message === "string") return error.message;
  if (typeof error === "string") return error;
  if (typeof parsed.message === "string") return parsed.message;
  if (typeof parsed.detail === "string") return parsed.detail;
  return undefined;
}

function httpErrorMessage(
  provider: string,
  status: number,
  detail: string,
  authHint: string | undefined,
): string {
  const hint = (status === 401 || status === 403) && authHint ? ` (${authHint})` : "";
  return `${provider} returned HTTP ${status}: ${detail}${hint}`;
}

/**
 * `message`/status/retryable of an error object that is not an `APICallError`: an error frame
 * inside a stream, raw (`{error: {message, type, code}}`, Chat Completions servers) or flattened
 * by `@ai-sdk/openai` (`{message, code, statusCode, isRetryable}`).
 */
function streamErrorFields(
  error: unknown,
): { message: string; status?: number; retryable: boolean } | undefined {
  if (!isRecord(error)) return undefined;
  const inner = isRecord(error.error) ? error.error : error;
  if (typeof inner.message !== "string") return undefined;
  if (error instanceof Error && !("statusCode" in error) && !("code" in inner)) {
    // A plain Error (a parse failure, an SDK bug): not a provider error frame.
    return undefined;
  }
  const status =
    typeof error.statusCode === "number"
      ? error.statusCode
      : (statusFromCode(inner.code) ?? statusFromErrorType(inner.code, inner.type));
  const retryable =
    typeof error.isRetryable === "boolean"
      ? error.isRetryable
      : // A stream that broke off with an unclassified error is worth another try.
        status === undefined || isRetryableStatus(status);
  return {
    message: inner.message,
    ...(status !== undefined ? { status } : {}),
    retryable: retryable && inner.code !== "insufficient_quota",
  };
}

function statusFromCode(code: unknown): number | undefined {
  const value = typeof code === "string" && /^\d{3}$/.test(code) ? Number(code) : code;
  return typeof value === "number" && value >= 400 && value <= 599 ? value : undefined;
}

/** The HTTP status an OpenAI-style error `code`/`type` stands for (`rate_limit_exceeded` → 429). */
function statusFromErrorType(code: unknown, type: unknown): number | undefined {
  const words = [code, type]
    .filter((value) => typeof value === "string")
    .join(" ")
    .toLowerCase();
  if (/rate_limit|insufficient_quota/.test(words)) return 429;
  if (/authentication|invalid_api_key/.test(words)) return 401;
  if (/permission/.test(words)) return 403;
  if (/not_found/.test(words)) return 404;
  if (/context_length|invalid|bad_request/.test(words)) return 400;
  if (/overload/.test(words)) return 503;
  if (/timeout/.test(words)) return 504;
  if (/server_error|internal/.test(words)) return 500;
  return undefined;
}

/**
 * OpenAI answers 429 both for rate limits (retry) and for an exhausted quota (`insufficient_quota`:
 * retrying cannot help until billing changes).
 */
function isQuotaExhausted(body: string | undefined): boolean {
  return body !== undefined && body.includes('"insufficient_quota"');
}

const NETWORK_ERROR_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** True when the error (or a cause) is a socket-level failure, e.g. a reset mid-stream. */
function isNetworkError(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_ERROR_CODES.has(code)) return true;
    // undici: "fetch failed" before the response, "terminated" when the body is cut off.
    if (current instanceof TypeError && /^(fetch failed|terminated)$/i.test(current.message)) {
      return true;
    }
    current = current.cause;
  }
  return false;
}

function isAbortLike(error: unknown, signal: AbortSignal): boolean {
  if (error === signal.reason && signal.aborted) return true;
  return (
    (error instanceof Error || error instanceof DOMException) &&
    (error.name === "AbortError" || (signal.aborted && error.name === "TimeoutError"))
  );
}

/** The error to throw for an abort: the signal's reason when it is an Error, else an AbortError. */
function abortReason(signal: AbortSignal, fallback?: unknown): unknown {
  if (signal.reason instanceof Error) return signal.reason;
  if (fallback instanceof Error) return fallback;
  return new DOMException("The operation was aborted.", "AbortError");
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (isRecord(error) && typeof error.message === "string") return error.message;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
