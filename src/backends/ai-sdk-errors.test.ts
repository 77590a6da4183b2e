import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { messageFromResponseBody, parseRetryAfterMs, toBackendError } from "./ai-sdk-errors.js";
import { BackendError } from "./backend.js";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

describe("parseRetryAfterMs", () => {
  it("reads delay-seconds, HTTP-dates and retry-after-ms", () => {
    expect(parseRetryAfterMs({ "retry-after": "7" }, NOW)).toBe(7000);
    expect(parseRetryAfterMs({ "Retry-After": "1.5" }, NOW)).toBe(1500);
    expect(parseRetryAfterMs({ "retry-after": new Date(NOW + 30_000).toUTCString() }, NOW)).toBe(
      30_000,
    );
    expect(parseRetryAfterMs({ "retry-after": new Date(NOW - 5_000).toUTCString() }, NOW)).toBe(0);
    expect(parseRetryAfterMs({ "retry-after-ms": "250", "retry-after": "9" }, NOW)).toBe(250);
  });

  it("returns undefined when absent or unparseable", () => {
    expect(parseRetryAfterMs(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfterMs({}, NOW)).toBeUndefined();
    expect(parseRetryAfterMs({ "retry-after": "soon" }, NOW)).toBeUndefined();
  });
});

describe("messageFromResponseBody", () => {
  it("finds the provider's message in the usual error bodies", () => {
    expect(messageFromResponseBody('{"error":{"message":"bad key","code":"x"}}')).toBe("bad key");
    expect(messageFromResponseBody('{"error":"model \\"x\\" not found"}')).toBe(
      'model "x" not found',
    );
    expect(messageFromResponseBody('{"message":"overloaded"}')).toBe("overloaded");
    expect(messageFromResponseBody('{"detail":"Not Found"}')).toBe("Not Found");
    expect(messageFromResponseBody("<html>502</html>")).toBeUndefined();
    expect(messageFromResponseBody(undefined)).toBeUndefined();
  });
});

describe("toBackendError", () => {
  const context = { provider: "acme", nowMs: NOW };

  function apiError(statusCode: number | undefined, responseBody?: string, headers = {}) {
    return new APICallError({
      message: "Bad Request",
      url: "http://127.0.0.1:1/v1/chat/completions",
      requestBodyValues: {},
      ...(statusCode !== undefined ? { statusCode } : {}),
      responseHeaders: headers,
      ...(responseBody !== undefined ? { responseBody } : {}),
    });
  }

  it("classifies HTTP statuses and keeps the provider's message", () => {
    for (const [status, retryable] of [
      [400, false],
      [401, false],
      [404, false],
      [408, true],
      [409, true],
      [429, true],
      [500, true],
      [503, true],
    ] as const) {
      const error = toBackendError(apiError(status, '{"error":{"message":"why"}}'), context);
      expect(error).toBeInstanceOf(BackendError);
      expect(error).toMatchObject({ provider: "acme", status, retryable });
      expect(error.message).toBe(`acme returned HTTP ${status}: why`);
    }
  });

  it("adds the auth hint to 401 and 403 only", () => {
    const hinted = { ...context, authHint: "check ACME_API_KEY" };
    expect(toBackendError(apiError(401, '{"error":{"message":"no"}}'), hinted).message).toBe(
      "acme returned HTTP 401: no (check ACME_API_KEY)",
    );
    expect(toBackendError(apiError(500, '{"error":{"message":"no"}}'), hinted).message).toBe(
      "acme returned HTTP 500: no",
    );
  });

  it("does not retry a 429 for an exhausted quota", () => {
    const body =
      '{"error":{"message":"You exceeded your current quota","code":"insufficient_quota"}}';
    expect(toBackendError(apiError(429, body), context)).toMatchObject({
      status: 429,
      retryable: false,
    });
  });

  it("reads Retry-After from the response headers", () => {
    const error = toBackendError(apiError(503, "{}", { "retry-after": "3" }), context);
    expect(error.retryAfterMs).toBe(3000);
  });

  it("treats connection failures as retryable network errors", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), {
      code: "ECONNREFUSED",
    });
    const fetchFailed = new TypeError("fetch failed", { cause: refused });
    expect(toBackendError(fetchFailed, context)).toMatchObject({
      retryable: true,
      status: undefined,
    });
    expect(toBackendError(new TypeError("terminated"), context).retryable).toBe(true);
  });

  it("maps error frames from inside a stream", () => {
    expect(
      toBackendError({ message: "slow down", type: "error", code: "rate_limit_exceeded" }, context),
    ).toMatchObject({ status: 429, retryable: true, message: "acme returned HTTP 429: slow down" });
    expect(
      toBackendError({ error: { message: "bad input", type: "invalid_request_error" } }, context),
    ).toMatchObject({ status: 400, retryable: false });
    expect(
      toBackendError({ message: "x", statusCode: 500, isRetryable: false, code: "e" }, context),
    ).toMatchObject({ status: 500, retryable: false });
  });

  it("recognises a context overflow in a stream's error frame (Responses API) and over HTTP", () => {
    const frame = {
      type: "error",
      code: "context_length_exceeded",
      message:
        "Your input exceeds the context window of this model. Please adjust your input and try again.",
    };
    expect(toBackendError(frame, context)).toMatchObject({
      kind: "context-length",
      contextWindow: undefined,
      retryable: false,
      status: 400,
    });
    const body = JSON.stringify({
      error: {
        code: 500,
        message: "the request exceeds the available context size",
        type: "exceed_context_size_error",
        n_ctx: 4096,
      },
    });
    expect(toBackendError(apiError(500, body), context)).toMatchObject({
      kind: "context-length",
      contextWindow: 4096,
      retryable: false,
      status: 500,
    });
  });

  it("recognises a refused tool_choice, and nothing else as one", () => {
    const refused =
      '{"object":"error","message":"tool_choice = \\"required\\" is not supported!","type":"BadRequestError","code":400}';
    expect(toBackendError(apiError(400, refused), context)).toMatchObject({
      kind: "tool-choice",
      status: 400,
    });
    expect(toBackendError(apiError(400, '{"error":{"message":"why"}}'), context).kind).toBe(
      undefined,
    );
  });

  it("makes other errors non-retryable", () => {
    expect(toBackendError(new Error("schema mismatch"), context)).toMatchObject({
      retryable: false,
      message: "acme: schema mismatch",
    });
  });
});
