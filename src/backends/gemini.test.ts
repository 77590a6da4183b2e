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
  geminiFixture,
  googleErrorBody,
  startFakeGeminiServer,
  type FakeGeminiServer,
} from "../../test/support/fake-gemini-server.js";
import {
  coordinationHandler,
  summarizeRequest,
  type FakeHandler,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import { ConfigError } from "../errors.js";
import { BackendError } from "./backend.js";
import {
  createGeminiBackend,
  geminiProviderOptions,
  groundingToolChunks,
  isThinkingModelName,
  retryInfoDelayMs,
} from "./gemini.js";

let server: FakeGeminiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(
  handler: FakeHandler | FakeReply[],
  extra: Record<string, unknown> = {},
  model = "gemini-2.5-flash",
) {
  server = await startFakeGeminiServer(handler);
  const backend = createGeminiBackend(
    { type: "gemini", model, base_url: server.url, ...extra },
    { GEMINI_API_KEY: "gm-test" },
  );
  return { backend, fake: server };
}

const noTools = () => testRequest({ tools: [], toolChoice: "none" });
/** No function tools, hosted tools allowed (`auto`). */
const hostedOnly = () => testRequest({ tools: [], toolChoice: "auto" });

describe("createGeminiBackend against recorded Gemini streams", () => {
  it("replays the documented text stream with its usage", async () => {
    const { backend, fake } = await backendFor([{ sse: geminiFixture("text.sse") }]);
    const { chunks, error } = await collectChunks(
      backend.stream(noTools(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "text-delta")).toBe("The quick brown fox jumps over the lazy dog.");
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 8, outputTokens: 10, reasoningTokens: 0, cachedInputTokens: 0 },
    });
    const call = fake.modelCalls()[0]!;
    expect(call.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
    expect(call.query).toEqual({ alt: "sse" });
    expect(call.headers["x-goog-api-key"]).toBe("gm-test");
  });

  it("replays a thinking stream: thoughts as reasoning, thought tokens counted", async () => {
    const { backend } = await backendFor([{ sse: geminiFixture("thinking.sse") }], {
      thinking_budget: 1024,
    });
    const { chunks } = await collectChunks(backend.stream(noTools(), { signal: neverAborted() }));
    expect(joinedText(chunks, "reasoning-delta")).toContain("I multiply 6 by 7");
    expect(joinedText(chunks, "text-delta")).toBe("6 x 7 = 42.");
    expect(chunks.at(-1)).toMatchObject({
      usage: { inputTokens: 12, outputTokens: 56, reasoningTokens: 48 },
    });
    expect(server?.modelCalls()[0]?.body.generationConfig).toMatchObject({
      thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
    });
  });

  it("replays a function call and maps STOP with calls to tool-calls", async () => {
    const { backend } = await backendFor([{ sse: geminiFixture("function-call.sse") }]);
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [weatherTool], toolChoice: "auto" }), {
        signal: neverAborted(),
      }),
    );
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toMatchObject([
      { type: "tool-call", toolName: "get_weather", input: { location: "Boston, MA" } },
    ]);
    expect(chunks.at(-1)).toMatchObject({ finishReason: "tool-calls" });
  });

  it("replays code execution as provider tool call and result", async () => {
    const { backend, fake } = await backendFor([{ sse: geminiFixture("code-execution.sse") }], {
      enable_code_execution: true,
    });
    const { chunks } = await collectChunks(
      backend.stream(hostedOnly(), { signal: neverAborted() }),
    );
    expect(chunks.find((chunk) => chunk.type === "provider-tool-call")).toMatchObject({
      toolName: "code_execution",
      input: { language: "PYTHON", code: "print(sum(range(1, 11)))\n" },
    });
    expect(chunks.find((chunk) => chunk.type === "provider-tool-result")).toMatchObject({
      toolName: "code_execution",
      output: { outcome: "OUTCOME_OK", output: "55\n" },
    });
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([]);
    expect(fake.modelCalls()[0]?.body.tools).toEqual([{ codeExecution: {} }]);
  });

  it("replays a grounded answer as a web_search provider tool call and result", async () => {
    const { backend, fake } = await backendFor([{ sse: geminiFixture("web-search.sse") }], {
      enable_web_search: true,
    });
    const { chunks } = await collectChunks(
      backend.stream(hostedOnly(), { signal: neverAborted() }),
    );
    expect(chunks.filter((chunk) => chunk.type.startsWith("provider-tool"))).toEqual([
      {
        type: "provider-tool-call",
        toolCallId: "gemini_web_search",
        toolName: "web_search",
        input: { queries: ["UEFA Euro 2024 winner", "who won euro 2024"] },
      },
      {
        type: "provider-tool-result",
        toolCallId: "gemini_web_search",
        toolName: "web_search",
        output: [
          {
            url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/aljazeera",
            title: "aljazeera.com",
          },
          {
            url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/uefa",
            title: "uefa.com",
          },
        ],
        isError: false,
      },
    ]);
    expect(fake.modelCalls()[0]?.body.tools).toEqual([{ googleSearch: {} }]);
  });

  it("answers HTTP errors with the recorded error body, and honours its RetryInfo", async () => {
    const recorded = JSON.parse(
      await readFile(`${wireFixtureDir()}/gemini/error-429.json`, "utf8"),
    ) as { error: { message: string } };
    expect(googleErrorBody(429, { message: recorded.error.message, retryAfter: 37 })).toEqual(
      recorded,
    );
    const { backend } = await backendFor([
      { error: { status: 429, message: recorded.error.message, retryAfter: 37 } },
    ]);
    const { error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({
      provider: "gemini",
      status: 429,
      retryable: true,
      retryAfterMs: 37_000,
    });
    expect((error as Error).message).toContain("exceeded your current quota");
  });
});

describe("createGeminiBackend against assembled streams", () => {
  it("streams thoughts, text and a workflow call, and sends Gemini's request shape", async () => {
    const { backend, fake } = await backendFor([
      {
        reasoning: "Six times seven.",
        text: "Submitting now.",
        toolCalls: [{ name: "new_answer", arguments: { content: "42" } }],
        usage: { inputTokens: 90, outputTokens: 25, reasoningTokens: 10, cachedInputTokens: 20 },
      },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(toolRoundTripRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "reasoning-delta")).toBe("Six times seven.");
    expect(joinedText(chunks, "text-delta")).toBe("Submitting now.");
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toMatchObject([
      { toolName: "new_answer", input: { content: "42" } },
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 90, outputTokens: 25, reasoningTokens: 10, cachedInputTokens: 20 },
    });
    const call = fake.modelCalls()[0]!;
    expect(call.body).toMatchObject({
      systemInstruction: { parts: [{ text: "You are agent1 of a team." }] },
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
    });
    const summary = summarizeRequest(call);
    expect(summary.api).toBe("gemini");
    expect(summary.toolNames).toEqual(["new_answer", "vote", "get_weather"]);
    expect(summary.text).toContain("sunny");
    expect(call.body.contents).toMatchObject([
      { role: "user", parts: [{ text: "What is 6 x 7?" }] },
      {
        role: "model",
        parts: [
          { text: "Let me check." },
          { functionCall: { name: "get_weather", args: { location: "Paris" } } },
        ],
      },
      {
        role: "user",
        parts: [{ functionResponse: { name: "get_weather" } }],
      },
    ]);
  });

  it("plays a coordinating agent through the shared handler", async () => {
    const { backend } = await backendFor(coordinationHandler({ answer: "Forty-two." }));
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [testRequest().tools[0]!] }), {
        signal: neverAborted(),
      }),
    );
    expect(chunks.find((chunk) => chunk.type === "tool-call")).toMatchObject({
      toolName: "new_answer",
      input: { content: "Forty-two." },
    });
  });

  it("reports an error chunk in the stream as a BackendError", async () => {
    const { backend } = await backendFor([
      { text: "Partial", streamError: { message: "The model is overloaded." } },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(noTools(), { signal: neverAborted() }),
    );
    expect(joinedText(chunks, "text-delta")).toBe("Partial");
    expect(error).toMatchObject({ provider: "gemini", status: 503, retryable: true });
  });

  it("reports a 400 as not retryable with Google's message", async () => {
    const { backend } = await backendFor([
      { error: { status: 400, message: "API key not valid. Please pass a valid API key." } },
    ]);
    const { error } = await collectChunks(backend.stream(noTools(), { signal: neverAborted() }));
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect((error as Error).message).toContain("API key not valid");
  });
});

describe("createGeminiBackend configuration", () => {
  it("throws a ConfigError naming GEMINI_API_KEY (or GOOGLE_API_KEY) and how to set it", () => {
    expect(() => createGeminiBackend({ type: "gemini", model: "gemini-2.5-pro" }, {})).toThrow(
      ConfigError,
    );
    expect(() => createGeminiBackend({ type: "gemini", model: "gemini-2.5-pro" }, {})).toThrow(
      /GEMINI_API_KEY=.*\(or GOOGLE_API_KEY.*~\/\.config\/coord\/\.env/,
    );
  });

  it("takes GOOGLE_API_KEY when GEMINI_API_KEY is unset; api_key in the config wins", async () => {
    server = await startFakeGeminiServer([{ text: "a" }, { text: "b" }]);
    const fromGoogle = createGeminiBackend(
      { type: "gemini", model: "gemini-2.0-flash", base_url: server.url },
      { GOOGLE_API_KEY: "google-key" },
    );
    await collectChunks(fromGoogle.stream(noTools(), { signal: neverAborted() }));
    const fromConfig = createGeminiBackend(
      { type: "gemini", model: "gemini-2.0-flash", base_url: server.origin, api_key: "cfg" },
      { GEMINI_API_KEY: "env" },
    );
    await collectChunks(fromConfig.stream(noTools(), { signal: neverAborted() }));
    expect(server.modelCalls().map((call) => call.headers["x-goog-api-key"])).toEqual([
      "google-key",
      "cfg",
    ]);
  });

  it("maps MassGen thinking keys to Google provider options", () => {
    const options = (extra: Record<string, unknown>, model = "gemini-2.0-flash") =>
      geminiProviderOptions({ type: "gemini", model, ...extra } as never);
    expect(options({ thinking_budget: 2048 })).toEqual({
      google: { thinkingConfig: { thinkingBudget: 2048, includeThoughts: true } },
    });
    expect(options({ thinking_config: { thinking_budget: 0 } })).toEqual({
      google: { thinkingConfig: { thinkingBudget: 0 } },
    });
    expect(options({ include_thoughts: false }, "gemini-2.5-pro")).toEqual({
      google: { thinkingConfig: { includeThoughts: false } },
    });
    expect(options({}, "gemini-2.5-pro")).toEqual({
      google: { thinkingConfig: { includeThoughts: true } },
    });
    expect(options({})).toEqual({ google: {} });
    expect(isThinkingModelName("gemini-3-pro-preview")).toBe(true);
    expect(isThinkingModelName("gemini-1.5-flash")).toBe(false);
  });

  it("reads RetryInfo delays and ignores ungrounded metadata", () => {
    expect(retryInfoDelayMs('{"retryDelay": "1.5s"}')).toBe(1500);
    expect(retryInfoDelayMs("{}")).toBeUndefined();
    expect(groundingToolChunks({ google: { groundingMetadata: null } })).toEqual([]);
    expect(groundingToolChunks(undefined)).toEqual([]);
  });
});
