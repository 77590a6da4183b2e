import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import {
  collectChunks,
  joinedText,
  neverAborted,
  testRequest,
  toolRoundTripRequest,
  weatherTool,
} from "../../test/support/backend-test-kit.js";
import { wireFixtureDir } from "../../test/support/fake-http.js";
import {
  coordinationHandler,
  summarizeRequest,
  type FakeHandler,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import {
  startFakeXaiServer,
  xaiErrorBody,
  xaiFixture,
  type FakeXaiServer,
} from "../../test/support/fake-xai-server.js";
import { ConfigError } from "../errors.js";
import { BackendError } from "./backend.js";
import { createGrokBackend, grokProviderOptions } from "./grok.js";

let server: FakeXaiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(handler: FakeHandler | FakeReply[], extra: Record<string, unknown> = {}) {
  server = await startFakeXaiServer(handler);
  const backend = createGrokBackend(
    { type: "grok", model: "grok-3-mini", base_url: server.url, ...extra },
    { XAI_API_KEY: "xai-test" },
  );
  return { backend, fake: server };
}

const noTools = () => testRequest({ tools: [], toolChoice: "none" });

describe("createGrokBackend against recorded xAI streams", () => {
  it("replays a reasoning stream: reasoning_content as reasoning, xAI usage with cached tokens", async () => {
    const { backend, fake } = await backendFor([{ sse: xaiFixture("reasoning.sse") }], {
      reasoning_effort: "high",
    });
    const { chunks, error } = await collectChunks(
      backend.stream(noTools(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "reasoning-delta")).toBe(
      "First, the user asked what 101 times 3 is. 101 x 3 = 303.",
    );
    expect(joinedText(chunks, "text-delta")).toBe("101 times 3 is 303.");
    // completion_tokens (7) exclude reasoning_tokens (20): output is their sum.
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 14, outputTokens: 27, reasoningTokens: 20, cachedInputTokens: 6 },
    });
    const call = fake.modelCalls()[0]!;
    expect(call.headers.authorization).toBe("Bearer xai-test");
    expect(call.body).toMatchObject({
      model: "grok-3-mini",
      stream: true,
      stream_options: { include_usage: true },
      reasoning_effort: "high",
    });
  });

  it("replays a whole tool call in one chunk", async () => {
    const { backend } = await backendFor([{ sse: xaiFixture("tool-call.sse") }]);
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [weatherTool], toolChoice: "auto" }), {
        signal: neverAborted(),
      }),
    );
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "call_58213047",
        toolName: "get_weather",
        input: { location: "San Francisco, CA", unit: "celsius" },
      },
    ]);
    expect(chunks.at(-1)).toMatchObject({
      finishReason: "tool-calls",
      usage: { inputTokens: 320, outputTokens: 216, reasoningTokens: 188 },
    });
  });

  it("answers errors with the recorded xAI bodies", async () => {
    const recorded = JSON.parse(
      await readFile(`${wireFixtureDir()}/xai/error-429.json`, "utf8"),
    ) as { error: string };
    expect(xaiErrorBody(429, { message: recorded.error })).toEqual(recorded);
    const { backend } = await backendFor([
      { error: { status: 429, message: recorded.error, retryAfter: 2 } },
    ]);
    const { error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({
      provider: "xai",
      status: 429,
      retryable: true,
      retryAfterMs: 2000,
    });
    expect((error as Error).message).toContain("monthly spending limit");
  });

  it("reports xAI's HTTP 200 'service unavailable' body as a retryable BackendError", async () => {
    const recorded = JSON.parse(
      await readFile(`${wireFixtureDir()}/xai/error-unavailable-200.json`, "utf8"),
    ) as { code: string; error: string };
    const { backend } = await backendFor([
      { streamError: { message: recorded.error, code: recorded.code } },
    ]);
    const { error } = await collectChunks(backend.stream(noTools(), { signal: neverAborted() }));
    expect(error).toMatchObject({ provider: "xai", retryable: true });
    expect((error as Error).message).toContain("temporarily overloaded");
  });
});

describe("createGrokBackend against assembled streams", () => {
  it("streams reasoning, text and a workflow call, and sends the conversation", async () => {
    const { backend, fake } = await backendFor([
      {
        reasoning: "Six sevens.",
        text: "Answering.",
        toolCalls: [{ name: "new_answer", arguments: { content: "42" } }],
        usage: { inputTokens: 50, outputTokens: 30, reasoningTokens: 12, cachedInputTokens: 10 },
      },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(toolRoundTripRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "reasoning-delta")).toBe("Six sevens.");
    expect(joinedText(chunks, "text-delta")).toBe("Answering.");
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "call_fake1",
        toolName: "new_answer",
        input: { content: "42" },
      },
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 50, outputTokens: 30, reasoningTokens: 12, cachedInputTokens: 10 },
    });
    const summary = summarizeRequest(fake.modelCalls()[0]!);
    expect(summary.api).toBe("chat");
    expect(summary.system).toBe("You are agent1 of a team.");
    expect(summary.toolNames).toEqual(["new_answer", "vote", "get_weather"]);
    expect(summary.toolChoice).toBe("required");
    expect(summary.lastItem).toBe("tool");
  });

  it("plays a coordinating agent through the shared handler", async () => {
    const { backend } = await backendFor(coordinationHandler({ answer: "Forty-two." }));
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [testRequest().tools[0]!] }), { signal: neverAborted() }),
    );
    expect(chunks.find((chunk) => chunk.type === "tool-call")).toMatchObject({
      toolName: "new_answer",
      input: { content: "Forty-two." },
    });
  });

  it("reports a 401 as not retryable, naming XAI_API_KEY", async () => {
    const { backend } = await backendFor([
      { error: { status: 401, message: "Incorrect API key provided: xa***st." } },
    ]);
    const { error } = await collectChunks(backend.stream(noTools(), { signal: neverAborted() }));
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect((error as Error).message).toContain("XAI_API_KEY");
  });
});

describe("createGrokBackend with server-side tools (xAI Responses API)", () => {
  it("moves to /v1/responses and streams web search as provider tool call and result", async () => {
    const { backend, fake } = await backendFor(
      [
        {
          reasoning: "Let me search.",
          providerToolCalls: [
            {
              name: "web_search",
              input: { query: "grok release" },
              result: [{ url: "https://x.ai/news", title: "xAI news" }],
            },
          ],
          text: "Grok was released by xAI.",
          toolCalls: [{ name: "new_answer", arguments: { content: "xAI" } }],
          usage: { inputTokens: 80, outputTokens: 40, reasoningTokens: 15, cachedInputTokens: 8 },
        },
      ],
      { enable_web_search: true },
    );
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "reasoning-delta")).toBe("Let me search.");
    expect(joinedText(chunks, "text-delta")).toBe("Grok was released by xAI.");
    // The SDK's web_search input schema has no fields, so the call's input arrives empty.
    expect(chunks.find((chunk) => chunk.type === "provider-tool-call")).toMatchObject({
      toolCallId: "ws_fake_1",
      toolName: "web_search",
    });
    const result = chunks.find((chunk) => chunk.type === "provider-tool-result");
    expect(JSON.stringify(result)).toContain("https://x.ai/news");
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toMatchObject([
      { toolName: "new_answer", input: { content: "xAI" } },
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 80, outputTokens: 40, reasoningTokens: 15, cachedInputTokens: 8 },
    });
    const call = fake.modelCalls()[0]!;
    expect(call.path).toBe("/v1/responses");
    expect(call.body.tools).toEqual(expect.arrayContaining([{ type: "web_search" }]));
    expect(summarizeRequest(call).toolNames).toEqual(
      expect.arrayContaining(["new_answer", "vote"]),
    );
  });

  it("streams code execution as a provider tool call", async () => {
    const { backend } = await backendFor(
      [
        {
          providerToolCalls: [
            { name: "code_execution", input: { code: "print(6*7)" }, result: { stdout: "42" } },
          ],
          text: "42",
        },
      ],
      { enable_code_execution: true },
    );
    const { chunks, error } = await collectChunks(
      backend.stream(noTools(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(chunks.find((chunk) => chunk.type === "provider-tool-call")).toMatchObject({
      toolName: "code_execution",
    });
    expect(chunks.find((chunk) => chunk.type === "provider-tool-result")).toMatchObject({
      toolName: "code_execution",
    });
  });
});

describe("createGrokBackend configuration", () => {
  it("throws a ConfigError naming XAI_API_KEY and how to set it", () => {
    expect(() => createGrokBackend({ type: "grok", model: "grok-4" }, {})).toThrow(ConfigError);
    expect(() => createGrokBackend({ type: "grok", model: "grok-4" }, {})).toThrow(
      /XAI_API_KEY=.*~\/\.config\/coord\/\.env.*api_key:/,
    );
  });

  it("lets api_key in the config win over XAI_API_KEY", async () => {
    server = await startFakeXaiServer([{ text: "hi" }]);
    const backend = createGrokBackend(
      { type: "grok", model: "grok-4", base_url: server.url, api_key: "from-config" },
      { XAI_API_KEY: "from-env" },
    );
    await collectChunks(backend.stream(noTools(), { signal: neverAborted() }));
    expect(server.modelCalls()[0]?.headers.authorization).toBe("Bearer from-config");
  });

  it("maps reasoning effort keys", () => {
    expect(grokProviderOptions({ type: "grok", reasoning: { effort: "low" } } as never)).toEqual({
      xai: { reasoningEffort: "low" },
    });
    expect(grokProviderOptions({ type: "grok" })).toEqual({ xai: {} });
  });
});
