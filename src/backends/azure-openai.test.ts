import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import {
  collectChunks,
  joinedText,
  neverAborted,
  testRequest,
  weatherTool,
} from "../../test/support/backend-test-kit.js";
import {
  azureErrorBody,
  azureFixture,
  startFakeAzureServer,
  type FakeAzureServer,
} from "../../test/support/fake-azure-server.js";
import { wireFixtureDir } from "../../test/support/fake-http.js";
import {
  coordinationHandler,
  summarizeRequest,
  type FakeHandler,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import { ConfigError } from "../errors.js";
import { createAzureOpenAIBackend, resolveAzureEndpoint } from "./azure-openai.js";

let server: FakeAzureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(handler: FakeHandler | FakeReply[], extra: Record<string, unknown> = {}) {
  server = await startFakeAzureServer(handler);
  const backend = createAzureOpenAIBackend(
    { type: "azure_openai", model: "my-gpt4o", ...extra },
    {
      AZURE_OPENAI_API_KEY: "az-test",
      AZURE_OPENAI_ENDPOINT: server.endpoint,
      AZURE_OPENAI_API_VERSION: "2024-10-21",
    },
  );
  return { backend, fake: server };
}

const noTools = () => testRequest({ tools: [], toolChoice: "none" });

describe("createAzureOpenAIBackend, deployment API, against recorded Azure streams", () => {
  it("replays a text stream with Azure's prompt-filter chunk, at the deployment URL", async () => {
    const { backend, fake } = await backendFor([{ sse: azureFixture("chat-text.sse") }]);
    const { chunks, error } = await collectChunks(
      backend.stream(noTools(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "text-delta")).toBe("Azure says hello.");
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 19, outputTokens: 4, reasoningTokens: 0, cachedInputTokens: 0 },
    });
    const call = fake.modelCalls()[0]!;
    expect(call.path).toBe("/openai/deployments/my-gpt4o/chat/completions");
    expect(call.query).toEqual({ "api-version": "2024-10-21" });
    expect(call.headers["api-key"]).toBe("az-test");
    expect(call.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  });

  it("replays a tool call streamed in pieces, with cached prompt tokens", async () => {
    const { backend } = await backendFor([{ sse: azureFixture("chat-tool-call.sse") }]);
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [weatherTool], toolChoice: "auto" }), {
        signal: neverAborted(),
      }),
    );
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "call_Xk3mQ2vR8sT1",
        toolName: "get_weather",
        input: { location: "Seattle, WA" },
      },
    ]);
    expect(chunks.at(-1)).toMatchObject({
      finishReason: "tool-calls",
      usage: { inputTokens: 84, outputTokens: 17, cachedInputTokens: 64 },
    });
  });

  it("replays a content-filtered completion as finish reason content-filter", async () => {
    const { backend } = await backendFor([{ sse: azureFixture("chat-content-filter.sse") }]);
    const { chunks } = await collectChunks(backend.stream(noTools(), { signal: neverAborted() }));
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "content-filter" });
  });

  it("answers a 429 with the recorded Azure body and Retry-After", async () => {
    const recorded = JSON.parse(
      await readFile(`${wireFixtureDir()}/azure/error-429.json`, "utf8"),
    ) as { error: { message: string } };
    expect(azureErrorBody(429, { message: recorded.error.message })).toEqual(recorded);
    const { backend } = await backendFor([
      { error: { status: 429, message: recorded.error.message, retryAfter: 6 } },
    ]);
    const { error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toMatchObject({
      provider: "azure_openai",
      status: 429,
      retryable: true,
      retryAfterMs: 6000,
    });
    expect((error as Error).message).toContain("exceeded token rate limit");
  });
});

describe("createAzureOpenAIBackend, assembled streams", () => {
  it("deployment API: Azure's filter annotations do not disturb text, calls and usage", async () => {
    const { backend, fake } = await backendFor([
      {
        text: "Submitting.",
        toolCalls: [{ name: "new_answer", arguments: { content: "42" } }],
        usage: { inputTokens: 70, outputTokens: 9, cachedInputTokens: 20 },
      },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "text-delta")).toBe("Submitting.");
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toMatchObject([
      { toolName: "new_answer", input: { content: "42" } },
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 70, outputTokens: 9, reasoningTokens: 0, cachedInputTokens: 20 },
    });
    expect(summarizeRequest(fake.modelCalls()[0]!).toolNames).toEqual(["new_answer", "vote"]);
  });

  it("v1 API (the default version): Responses at /openai/v1/responses with the deployment as model", async () => {
    server = await startFakeAzureServer([
      {
        reasoning: "Thinking it over.",
        text: "Done.",
        usage: { inputTokens: 40, outputTokens: 12, reasoningTokens: 5 },
      },
    ]);
    const backend = createAzureOpenAIBackend(
      {
        type: "azure_openai",
        model: "my-o4-mini",
        base_url: `${server.origin}/openai/v1/`,
        api_key: "from-config",
        reasoning: { effort: "low", summary: "detailed" },
      } as never,
      { AZURE_OPENAI_API_KEY: "from-env" },
    );
    const { chunks, error } = await collectChunks(
      backend.stream(noTools(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "reasoning-delta")).toBe("Thinking it over.");
    expect(joinedText(chunks, "text-delta")).toBe("Done.");
    expect(chunks.at(-1)).toMatchObject({
      usage: { inputTokens: 40, outputTokens: 12, reasoningTokens: 5 },
    });
    const call = server.modelCalls()[0]!;
    expect(call.path).toBe("/openai/v1/responses");
    expect(call.headers["api-key"]).toBe("from-config");
    expect(call.body).toMatchObject({
      model: "my-o4-mini",
      reasoning: { effort: "low", summary: "detailed" },
    });
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
});

describe("createAzureOpenAIBackend configuration", () => {
  const env = { AZURE_OPENAI_ENDPOINT: "https://res.openai.azure.com" };

  it("throws a ConfigError naming AZURE_OPENAI_API_KEY and how to set it", () => {
    expect(() => createAzureOpenAIBackend({ type: "azure_openai", model: "d" }, env)).toThrow(
      /No Azure OpenAI API key: export AZURE_OPENAI_API_KEY=.*~\/\.config\/coord\/\.env.*api_key:/,
    );
  });

  it("throws a ConfigError naming AZURE_OPENAI_ENDPOINT when no endpoint is set", () => {
    expect(() =>
      createAzureOpenAIBackend({ type: "azure_openai", model: "d", api_key: "k" }, {}),
    ).toThrow(ConfigError);
    expect(() =>
      createAzureOpenAIBackend({ type: "azure_openai", model: "d", api_key: "k" }, {}),
    ).toThrow(/AZURE_OPENAI_ENDPOINT=https:\/\/<resource>\.openai\.azure\.com.*base_url:/);
  });

  it("resolves the endpoint, version and API", () => {
    expect(resolveAzureEndpoint({ type: "azure_openai" }, env)).toEqual({
      resource: "https://res.openai.azure.com",
      apiVersion: "v1",
      api: "responses",
    });
    expect(
      resolveAzureEndpoint(
        {
          type: "azure_openai",
          base_url: "https://other.openai.azure.com/openai/",
          api_version: "2025-04-01-preview",
        } as never,
        { ...env, AZURE_OPENAI_API_VERSION: "2024-10-21" },
      ),
    ).toEqual({
      resource: "https://other.openai.azure.com",
      apiVersion: "2025-04-01-preview",
      api: "deployment-chat",
    });
    expect(
      resolveAzureEndpoint(
        { type: "azure_openai" },
        { ...env, AZURE_OPENAI_API_VERSION: "2024-10-21" },
      ).api,
    ).toBe("deployment-chat");
  });
});
