import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterEach, describe, expect, it } from "vitest";
import {
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import { streamWithAiSdk, toUsage } from "./ai-sdk-stream.js";
import { BackendError, type BackendChunk, type ModelRequest } from "./backend.js";
import { collectChunks } from "../../test/support/backend-test-kit.js";

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
        inputTokens: { total: 100, noCache: 60, cacheRead: 40, cacheWrite: undefined },
        outputTokens: { total: 30, text: 10, reasoning: 20 },
      }),
    ).toEqual({ inputTokens: 100, outputTokens: 30, reasoningTokens: 20, cachedInputTokens: 40 });
  });
});

describe("streamWithAiSdk over a socket", () => {
  it("sends the conversation, including a tool round-trip, in the provider's shape", async () => {
    const fake = await start([{ text: "ok" }]);
    const { chunks } = await collectChunks(
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

  it("repairs a call whose arguments were cut off, and marks it repaired", async () => {
    const fake = await start([
      { toolCalls: [{ name: "new_answer", arguments: '{"content": "A' }] },
    ]);
    const { chunks, error } = await collectChunks(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: new AbortController().signal,
      }),
    );
    expect(error).toBeUndefined();
    expect(chunks).toContainEqual({
      type: "tool-call",
      toolCallId: "call_1",
      toolName: "new_answer",
      input: { content: "A" },
      repaired: true,
    });
  });

  it("passes a call whose arguments no repair reads as an object through with the raw text and inputError", async () => {
    const fake = await start([
      { toolCalls: [{ name: "new_answer", arguments: "Sure! The answer is 18." }] },
    ]);
    const { chunks, error } = await collectChunks(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: new AbortController().signal,
      }),
    );
    expect(error).toBeUndefined();
    expect(chunks).toContainEqual({
      type: "tool-call",
      toolCallId: "call_1",
      toolName: "new_answer",
      input: "Sure! The answer is 18.",
      inputError:
        'the arguments are not a JSON object (read as a string): "Sure! The answer is 18."',
    });
  });

  it("reads a call with empty arguments as an empty input object", async () => {
    const fake = await start([{ toolCalls: [{ name: "vote", arguments: "" }] }]);
    const { chunks, error } = await collectChunks(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: new AbortController().signal,
      }),
    );
    expect(error).toBeUndefined();
    expect(chunks[0]).toMatchObject({ type: "tool-call", toolName: "vote", input: {} });
  });

  it("passes a call to a tool that was not offered through for the engine to refuse", async () => {
    const fake = await start([{ toolCalls: [{ name: "delete_everything", arguments: {} }] }]);
    const { chunks } = await collectChunks(
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
    // The server holds the reply; the call is aborted once the request reached it.
    let arrived: () => void = () => undefined;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => undefined;
    const fake = await start(() => {
      arrived();
      return new Promise<FakeReply>((resolve) => (release = () => resolve({ text: "late" })));
    });
    const controller = new AbortController();
    const reason = new DOMException("request timed out", "TimeoutError");
    const collected = collectChunks(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), { signal: controller.signal }),
    );
    await received;
    controller.abort(reason);
    const { chunks, error } = await collected;
    release();
    expect(error).toBe(reason);
    expect(chunks).toEqual([]);
  });

  it("reports a connection cut mid-stream as a retryable network error", async () => {
    const fake = await start([{ text: "a b c d e f", dropAfterEvents: 3 }]);
    const { chunks, error } = await collectChunks(
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
    const { error } = await collectChunks(
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
    const { error } = await collectChunks(
      streamWithAiSdk(chatModel(fake.url), "fake", request(), {
        signal: new AbortController().signal,
        clock: { now: () => NOW },
      }),
    );
    expect(error).toMatchObject({ status: 503, retryable: true, retryAfterMs: 12_000 });
  });
});
