/**
 * The server's error vocabulary: {@link ApiError} and the OpenAI-style error body every non-2xx
 * response carries (`{"error": {"message", "type", "param", "code"}}`), so OpenAI clients surface
 * the message as they would OpenAI's own (spec section 7; docs/server.md "Errors").
 */

/** The `error.type` values this server uses (OpenAI's vocabulary where it has one). */
export type ApiErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "permission_error"
  | "not_found_error"
  | "server_error"
  | "timeout_error"
  | "service_unavailable_error";

/** The body of every error response. */
export interface ApiErrorBody {
  error: { message: string; type: ApiErrorType; param: string | null; code: string | null };
}

/** An HTTP error with an OpenAI-style body; thrown by request parsing, caught by the app. */
export class ApiError extends Error {
  readonly status: number;
  readonly type: ApiErrorType;
  /** The request field at fault, e.g. `messages[2].content`; null when none is. */
  readonly param: string | null;
  /** A stable machine-readable code, e.g. `invalid_json`, `streaming_not_supported`. */
  readonly code: string | null;
  /**
   * True when sending the same request again may succeed (the server busy, shutting down): the
   * response says `x-should-retry: true`. False (the default) for every other error: a 5xx then
   * says `x-should-retry: false`, so OpenAI's SDKs do not re-run a failed team (a paid run).
   */
  readonly retryable: boolean;

  /**
   * @param status HTTP status (400, 401, 403, 404, 405, 413, 415, 500, 501, 503, 504).
   * @param message one line saying what is wrong and what fixes it.
   */
  constructor(
    status: number,
    message: string,
    options: {
      type?: ApiErrorType;
      param?: string | null;
      code?: string | null;
      retryable?: boolean;
    } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.type = options.type ?? defaultType(status);
    this.param = options.param ?? null;
    this.code = options.code ?? null;
    this.retryable = options.retryable ?? false;
  }

  /** The response body for this error. */
  toBody(): ApiErrorBody {
    return {
      error: { message: this.message, type: this.type, param: this.param, code: this.code },
    };
  }
}

/** The error type a status implies when none is given. */
function defaultType(status: number): ApiErrorType {
  if (status === 401) return "authentication_error";
  if (status === 403) return "permission_error";
  if (status === 404) return "not_found_error";
  if (status === 503) return "service_unavailable_error";
  if (status === 504) return "timeout_error";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

/** A 400 for a request field: `invalid_request_error` with `param` and `code`. */
export function invalidRequest(message: string, param: string | null, code: string): ApiError {
  return new ApiError(400, message, { param, code });
}

/** What stands in for an address removed from a message sent to a client. */
export const ADDRESS_PLACEHOLDER = "<address>";

/**
 * `message` without network addresses: URLs (`https://api.example.com/v1/…`), IPv4 and
 * bracketed IPv6 addresses with or without a port (`127.0.0.1:4321`, `[::1]:80`) and
 * `localhost:PORT` become {@link ADDRESS_PLACEHOLDER}. A server error quotes provider errors
 * (`connect ECONNREFUSED 10.0.0.5:8000`); the client learns that a provider failed, not where the
 * server's providers are. The server's log keeps the full message.
 */
export function withoutAddresses(message: string): string {
  return message
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]*[^\s"'<>`.,;:)\]]/gi, ADDRESS_PLACEHOLDER)
    .replace(/\[[0-9a-f:.]*:[0-9a-f:.]*\](?::\d+)?/gi, ADDRESS_PLACEHOLDER)
    .replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, ADDRESS_PLACEHOLDER)
    .replace(/\blocalhost:\d+\b/gi, ADDRESS_PLACEHOLDER);
}
