/**
 * Error mapping for ai SDK calls: turns whatever a provider call threw or streamed (an
 * `APICallError`, an error frame inside a stream, a socket failure) into a {@link BackendError}
 * that names the provider, carries the provider's own message, and says whether a retry can help
 * and after how long (CONTRIBUTING.md rule 7). Used by `streamWithAiSdk` in `ai-sdk-stream.ts`.
 */
import { APICallError } from "@ai-sdk/provider";
import { BackendError, isRetryableStatus, type BackendErrorKind } from "./backend.js";
import { contextOverflowOf } from "./context-length.js";
import { isToolChoiceRefusal } from "./tool-choice-fallback.js";

/**
 * Maps any failure of an ai SDK call to a {@link BackendError} naming the provider and carrying
 * the provider's own message, with its `kind` when recognised (`context-length` with the
 * `contextWindow` in tokens, never retryable; `tool-choice` for a refused `tool_choice`). Handles `APICallError` (HTTP status, response body, headers),
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
  return classified(mapError(error, context), error);
}

/**
 * `mapped` with its {@link BackendErrorKind} when the provider's message or error body says what
 * it is: a context overflow (`context-length`, never retried, with the window in tokens when
 * named) or a refused `tool_choice` (`tool-choice`).
 */
function classified(mapped: BackendError, error: unknown): BackendError {
  const body = APICallError.isInstance(error) ? error.responseBody : error;
  const overflow = contextOverflowOf(mapped.message, body);
  const kind: BackendErrorKind | undefined =
    overflow !== undefined
      ? "context-length"
      : isToolChoiceRefusal(mapped.status, mapped.message)
        ? "tool-choice"
        : undefined;
  if (kind === undefined) return mapped;
  return new BackendError({
    message: mapped.message,
    provider: mapped.provider,
    status: mapped.status,
    retryable: mapped.retryable,
    retryAfterMs: mapped.retryAfterMs,
    kind,
    contextWindow: overflow?.contextWindow,
    cause: error,
  });
}

function mapError(error: unknown, context: Parameters<typeof toBackendError>[1]): BackendError {
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
        // xAI answers 200 with an error body when the service is unavailable (retryable).
        retryable: error.isRetryable || isNetworkError(error),
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
