import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import {
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import {
  messageFromResponseBody,
  parseRetryAfterMs,
  streamWithAiSdk,
  toBackendError,
  toModelMessages,
  toStreamTextArguments,
  toUsage,
} from "./ai-sdk-stream.js";
import { BackendError, type BackendChunk, type ModelRequest } from "./backend.js";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

const answerTool = {
  name: "new_answer",
  description: "Submit an answer.",
  inputSchema: {
    type: "object",
    properties: { content: { type: "string" } },
    required: ["content"],
    additionalProperties: false,
  },
};

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are agent1.",
    messages: [{ role: "user", content: "What is 6 x 7?" }],
    tools: [answerTool],
    toolChoice: "required",
    ...overrides,
  };
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(handler: FakeHandler | FakeReply[]): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(handler);
  return server;
}

function chatModel(url: string) {
  return createOpenAICompatible({ name: "fake", baseURL: url, includeUsage: true }).chatModel("m");
}

async function collect(
  stream: AsyncIterable<BackendChunk>,
): Promise<{ chunks: BackendChunk[]; error?: unknown }> {
  const chunks: BackendChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

describe("toModelMessages", () => {
  it("converts assistant tool calls and merges consecutive tool results", () => {
    const messages = toModelMessages([
      { role: "user", content: "Q" },
      {
        role: "assistant",
        content: "Let me check.",
        toolCalls: [
          { toolCallId: "c1", toolName: "read_file", input: { path: "a" } },
          { toolCallId: "c2", toolName: "read_file", input: { path: "b" } },
        ],
      },
      { role: "tool", toolCallId: "c1", toolName: "read_file", content: "A" },
      {
        role: "tool",
        toolCallId: "c2",
        toolName: "read_file",
        content: "no such file",
        isError: true,
      },
      { role: "assistant", content: "Done." },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ toolCallId: "c3", toolName: "vote", input: {} }],
      },
    ]);
    expect(messages).toEqual([
      { role: "user", content: "Q" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "a" } },
          { type: "tool-call", toolCallId: "c2", toolName: "read_file", input: { path: "b" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "read_file",
            output: { type: "text", value: "A" },
          },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "read_file",
            output: { type: "error-text", value: "no such file" },
          },
        ],
      },
      { role: "assistant", content: "Done." },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c3", toolName: "vote", input: {} }],
      },
    ]);
  });
});

describe("toStreamTextArguments", () => {
  it("passes system, tools, tool choice and sampling settings", () => {
    const args = toStreamTextArguments(request({ temperature: 0.3, maxOutputTokens: 500 }));
    expect(args.system).toBe("You are agent1.");
    expect(Object.keys(args.tools ?? {})).toEqual(["new_answer"]);
    expect(args.tools?.new_answer).not.toHaveProperty("execute");
    expect(args.toolChoice).toBe("required");
    expect(args.temperature).toBe(0.3);
    expect(args.maxOutputTokens).toBe(500);
  });

  it("omits an empty system prompt, and tools with tool choice when none are offered", () => {
    const args = toStreamTextArguments(request({ system: "", tools: [], toolChoice: "required" }));
    expect(args).toEqual({ messages: [{ role: "user", content: "What is 6 x 7?" }] });
  });
});

describe("toUsage", () => {
  it("reads the detailed counts and turns absent ones into 0", () => {
    expect(toUsage(undefined)).toEqual({
      inputTokens: 0,
      outputTokens: 0,
      reasoningTokens: 0,
      cachedInputTokens: 0,
    });
    expect(
      toUsage({
        inputTokens: 100,
        inputTokenDetails: { noCacheTokens: 60, cacheReadTokens: 40, cacheWriteTokens: undefined },
        outputTokens: 30,
        outputTokenDetails: { textTokens: 10, reasoningTokens: 20 },
        totalTokens: 130,
      }),
    ).toEqual({ inputTokens: 100, outputTokens: 30, reasoningTokens: 20, cachedInputTokens: 40 });
  });
});

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

  it("makes other errors non-retryable", () => {
    expect(toBackendError(new Error("schema mismatch"), context)).toMatchObject({
      retryable: false,
      message: "acme: schema mismatch",
    });
  });
});

describe("streamWithAiSdk over a socket", () => {
  it("sends the conversation, including a tool round-trip, in the provider's shape", async () => {
    const fake = await start([{ text: "ok" }]);
    const { chunks } = await collect(
      streamWithAiSdk(
        chatModel(fake.url),
        "fake",
        request({
          messages: [
            { role: "user", content: "Q" },
            {
              role: "assistant",
              content: "",
              toolCalls: [
                { toolCallId: "call_9", toolName: "new_answer", input: { content: "A" } },
              ],
            },
            {
              role: "tool",
              toolCallId: "call_9",
              toolName: "new_answer",
              content: "Answer recorded.",
            },
            { role: "user", content: "Now vote." },
          ],
          toolChoice: "auto",
          temperature: 0.5,
          maxOutputTokens: 64,
        }),
        { signal: new AbortController().signal },
      ),
    );
    expect(chunks.map((chunk) => chunk.type)).toEqual(["text-delta", "finish"]);
    const body = fake.requests[0]?.body;
    expect(body?.messages).toEqual([
      { role: "system", content: "You are agent1." },
      { role: "user", content: "Q" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_9",
            type: "function",
            function: { name: "new_answer", arguments: '{"content":"A"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_9", content: "Answer recorded." },
      { role: "user", content: "Now vote." },
    ]);
    expect(body).toMatchObject({ tool_choice: "auto", temperature: 0.5, max_tokens: 64 });
  });

  it("passes a call with unparseable arguments through with the raw text as input", async () => {
    const fake = await start([
      { toolCalls: [{ name: "new_answer", arguments: '{"content": "A' }] },
    ]);
    const { chunks, error } = await collect(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: new AbortController().signal,
      }),
    );
    expect(error).toBeUndefined();
    expect(chunks).toContainEqual({
      type: "tool-call",
      toolCallId: "call_1",
      toolName: "new_answer",
      input: '{"content": "A',
    });
  });

  it("passes a call to a tool that was not offered through for the engine to refuse", async () => {
    const fake = await start([{ toolCalls: [{ name: "delete_everything", arguments: {} }] }]);
    const { chunks } = await collect(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: new AbortController().signal,
      }),
    );
    expect(chunks[0]).toMatchObject({
      type: "tool-call",
      toolName: "delete_everything",
      input: {},
    });
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
  });

  it("throws the AbortError when the signal aborts mid-stream", async () => {
    const fake = await start([{ text: "one two three four five six", chunkDelayMs: 50 }]);
    const controller = new AbortController();
    const chunks: BackendChunk[] = [];
    let caught: unknown;
    try {
      for await (const chunk of streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: controller.signal,
      })) {
        chunks.push(chunk);
        controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(chunks).toHaveLength(1);
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).name).toBe("AbortError");
  });

  it("throws the signal's own reason, e.g. a TimeoutError, as is", async () => {
    const fake = await start([{ text: "late", delayMs: 2000 }]);
    const controller = new AbortController();
    const reason = new DOMException("request timed out", "TimeoutError");
    setTimeout(() => controller.abort(reason), 50);
    const { error } = await collect(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), { signal: controller.signal }),
    );
    expect(error).toBe(reason);
  });

  it("reports a connection cut mid-stream as a retryable network error", async () => {
    const fake = await start([{ text: "a b c d e f", dropAfterEvents: 3 }]);
    const { chunks, error } = await collect(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: new AbortController().signal,
      }),
    );
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.some((chunk) => chunk.type === "finish")).toBe(false);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ provider: "fake", retryable: true });
    expect((error as Error).message).toContain("terminated");
  });

  it("reports an unreachable server as a retryable error with the hint", async () => {
    const fake = await start([]);
    const url = fake.url;
    await fake.close();
    server = undefined;
    const { error } = await collect(
      streamWithAiSdk(chatModel(url), "fake", request(), {
        signal: new AbortController().signal,
        unreachableHint: "is it running?",
      }),
    );
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ retryable: true, status: undefined });
    expect((error as Error).message).toContain("cannot reach");
    expect((error as Error).message).toContain("(is it running?)");
  });

  it("resolves an HTTP-date Retry-After with the injected clock", async () => {
    const fake = await start([
      { error: { status: 503, message: "busy", retryAfter: new Date(NOW + 12_000).toUTCString() } },
    ]);
    const { error } = await collect(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: new AbortController().signal,
        clock: { now: () => NOW },
      }),
    );
    expect(error).toMatchObject({ status: 503, retryable: true, retryAfterMs: 12_000 });
  });
});
