import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../test/support/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../test/support/fake-gemini-server.js";
import { startFakeOpenAIServer } from "../../test/support/fake-openai-server.js";
import type { FakeRequest } from "../../test/support/fake-openai-server.js";
import {
  collectChunks,
  joinedText,
  neverAborted,
  testRequest,
} from "../../test/support/backend-test-kit.js";
import type { BackendConfig } from "../config/index.js";
import type { Backend } from "./backend.js";
import { createChatCompletionsBackend } from "./chat-completions.js";
import { createClaudeBackend } from "./claude.js";
import { createGeminiBackend } from "./gemini.js";
import { bodyMergingFetch, generationSettings, localSampling } from "./generation-settings.js";
import { createHostedChatBackend } from "./hosted-chat.js";
import { createOpenAIBackend } from "./openai.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Every sampling key MassGen's configs write. */
const sampling = {
  temperature: 0.3,
  top_p: 0.9,
  top_k: 40,
  max_tokens: 300,
  frequency_penalty: 0.5,
  presence_penalty: 0.25,
  seed: 7,
  stop: ["END"],
};

/** Makes one call without tools and returns the request the fake server received. */
async function sentBody(
  backend: Backend,
  requests: FakeRequest[],
): Promise<Record<string, unknown>> {
  const { chunks, error } = await collectChunks(
    backend.stream(
      testRequest({ tools: [], toolChoice: "none", temperature: 0.3, maxOutputTokens: 300 }),
      {
        signal: neverAborted(),
      },
    ),
  );
  expect(error).toBeUndefined();
  expect(joinedText(chunks, "text-delta")).toBe("ok");
  const calls = requests.filter((request) => request.method === "POST");
  expect(calls).toHaveLength(1);
  return calls[0]!.body;
}

async function openAIServer() {
  const server = await startFakeOpenAIServer(() => ({ text: "ok" }));
  closers.push(() => server.close());
  return server;
}

describe("generation parameters reach the wire (captured by the fake servers)", () => {
  it("vLLM (Chat Completions): the standard fields, top_k, chat_template_kwargs, reasoning_effort and extra_body in the body", async () => {
    const server = await openAIServer();
    const backend = createChatCompletionsBackend(
      {
        type: "vllm",
        model: "qwen3-8b",
        base_url: server.url,
        ...sampling,
        reasoning_effort: "low",
        chat_template_kwargs: { enable_thinking: false },
        extra_body: { repetition_penalty: 1.1, top_p: 0.8 },
      },
      {},
    );
    const body = await sentBody(backend, server.requests);
    expect(body).toMatchObject({
      temperature: 0.3,
      max_tokens: 300,
      frequency_penalty: 0.5,
      presence_penalty: 0.25,
      seed: 7,
      stop: ["END"],
      top_k: 40,
      reasoning_effort: "low",
      chat_template_kwargs: { enable_thinking: false },
      repetition_penalty: 1.1,
      // extra_body is merged last and wins, as in the OpenAI SDK.
      top_p: 0.8,
    });
  });

  it("Z.ai drops what its API has no field for (seed, penalties; warned at load)", async () => {
    const server = await openAIServer();
    const backend = createChatCompletionsBackend(
      { type: "zai", model: "glm-4.6", base_url: server.url, ...sampling },
      { ZAI_API_KEY: "zai-test" },
    );
    const body = await sentBody(backend, server.requests);
    expect(body).toMatchObject({ top_p: 0.9, stop: ["END"] });
    expect(body).not.toHaveProperty("seed");
    expect(body).not.toHaveProperty("frequency_penalty");
    expect(body).not.toHaveProperty("top_k");
  });

  it("openai (Responses): top_p and max_output_tokens", async () => {
    const server = await openAIServer();
    const backend = createOpenAIBackend(
      { type: "openai", model: "gpt-4.1", base_url: server.url, top_p: 0.9, max_tokens: 300 },
      { OPENAI_API_KEY: "sk-test" },
    );
    const body = await sentBody(backend, server.requests);
    expect(body).toMatchObject({ top_p: 0.9, max_output_tokens: 300 });
  });

  it("claude (Messages API): top_p, top_k and stop_sequences", async () => {
    const server = await startFakeAnthropicServer(() => ({ text: "ok" }));
    closers.push(() => server.close());
    const backend = createClaudeBackend(
      {
        type: "claude",
        model: "claude-sonnet-4-5",
        base_url: server.url,
        top_p: 0.9,
        top_k: 40,
        stop: "END",
      },
      { ANTHROPIC_API_KEY: "sk-ant-test" },
    );
    const body = await sentBody(backend, server.requests);
    expect(body).toMatchObject({ top_k: 40, stop_sequences: ["END"], max_tokens: 300 });
  });

  it("gemini (generateContent): generationConfig carries the sampling keys (penalties: not on 2.5 models, a warning there)", async () => {
    const server = await startFakeGeminiServer(() => ({ text: "ok" }));
    closers.push(() => server.close());
    const backend = createGeminiBackend(
      { type: "gemini", model: "gemini-2.0-flash", base_url: server.url, ...sampling },
      { GEMINI_API_KEY: "gm-test" },
    );
    const body = await sentBody(backend, server.requests);
    expect(body.generationConfig).toMatchObject({
      topP: 0.9,
      topK: 40,
      frequencyPenalty: 0.5,
      presencePenalty: 0.25,
      seed: 7,
      stopSequences: ["END"],
      maxOutputTokens: 300,
    });
  });
});

describe("MassGen's hosted provider types", () => {
  const cases: { type: BackendConfig["type"]; variable: string }[] = [
    { type: "groq", variable: "GROQ_API_KEY" },
    { type: "together", variable: "TOGETHER_API_KEY" },
    { type: "fireworks", variable: "FIREWORKS_API_KEY" },
    { type: "cerebras", variable: "CEREBRAS_API_KEY" },
    { type: "openrouter", variable: "OPENROUTER_API_KEY" },
    { type: "moonshot", variable: "KIMI_API_KEY" },
    { type: "nebius", variable: "NEBIUS_API_KEY" },
    { type: "poe", variable: "POE_API_KEY" },
    { type: "qwen", variable: "DASHSCOPE_API_KEY" },
  ];
  for (const { type, variable } of cases) {
    it(`${type}: Chat Completions with the key from ${variable} and the sampling keys`, async () => {
      const server = await openAIServer();
      const backend = createHostedChatBackend(
        { type, model: "some-model", base_url: server.url, top_p: 0.9, seed: 7, stop: ["END"] },
        { [variable]: `${type}-key` },
      );
      const body = await sentBody(backend, server.requests);
      const call = server.requests.find((request) => request.method === "POST")!;
      expect(call.path).toBe("/v1/chat/completions");
      expect(call.headers.authorization).toBe(`Bearer ${type}-key`);
      expect(body).toMatchObject({ model: "some-model", top_p: 0.9, stop: ["END"], stream: true });
      expect(backend.type).toBe(type);
    });
  }

  it("a missing key names the provider's variable", () => {
    expect(() => createHostedChatBackend({ type: "groq", model: "llama-3.3-70b" }, {})).toThrow(
      /GROQ_API_KEY/,
    );
    expect(() => createHostedChatBackend({ type: "qwen", model: "qwen-max" }, {})).toThrow(
      /QWEN_API_KEY=… \(or DASHSCOPE_API_KEY\)/,
    );
  });
});

describe("generationSettings", () => {
  it("sends only what the type takes; reasoning.effort becomes reasoning_effort on Chat Completions", () => {
    expect(generationSettings({ type: "openai", model: "m", ...sampling })).toEqual({
      callSettings: { topP: 0.9 },
      bodyFields: {},
    });
    expect(
      generationSettings({ type: "ollama", model: "m", reasoning: { effort: "high" } }).bodyFields,
    ).toEqual({ reasoning_effort: "high" });
    expect(generationSettings({ type: "claude_code" }).callSettings).toEqual({});
  });

  it("local: node-llama-cpp's options", () => {
    expect(localSampling({ type: "local", model: "m.gguf", ...sampling, stop: "END" })).toEqual({
      topP: 0.9,
      topK: 40,
      seed: 7,
      repeatPenalty: { frequencyPenalty: 0.5, presencePenalty: 0.25 },
      customStopTriggers: ["END"],
    });
  });

  it("bodyMergingFetch leaves bodies that are not a JSON object alone", async () => {
    const seen: unknown[] = [];
    const inner: typeof fetch = async (_input, init) => {
      seen.push(init?.body);
      return new Response("{}");
    };
    const merging = bodyMergingFetch({ a: 1 }, inner)!;
    await merging("http://x", { method: "POST", body: '{"b":2}' });
    await merging("http://x", { method: "POST", body: "[1]" });
    await merging("http://x", { method: "POST", body: "not json" });
    await merging("http://x", { method: "GET" });
    expect(seen).toEqual(['{"b":2,"a":1}', "[1]", "not json", undefined]);
    expect(bodyMergingFetch({}, inner)).toBe(inner);
  });
});
