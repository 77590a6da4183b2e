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
import {
  anthropicErrorBody,
  anthropicFixture,
  coordinationHandler,
  startFakeAnthropicServer,
  summarizeRequest,
  type FakeAnthropicServer,
  type FakeHandler,
  type FakeReply,
} from "../../test/support/fake-anthropic-server.js";
import { wireFixtureDir } from "../../test/support/fake-http.js";
import { ConfigError } from "../errors.js";
import { BackendError } from "./backend.js";
import { claudeProviderOptions, createClaudeBackend } from "./claude.js";

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(handler: FakeHandler | FakeReply[], extra: Record<string, unknown> = {}) {
  server = await startFakeAnthropicServer(handler);
  const backend = createClaudeBackend(
    { type: "claude", model: "claude-sonnet-4-5", base_url: server.url, ...extra },
    { ANTHROPIC_API_KEY: "sk-ant-test" },
  );
  return { backend, fake: server };
}

describe("createClaudeBackend against recorded Anthropic streams", () => {
  it("replays the documented text stream: deltas, end_turn, usage", async () => {
    const { backend } = await backendFor([{ sse: anthropicFixture("text.sse") }]);
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest({ tools: [], toolChoice: "none" }), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "text-delta")).toBe("Hello!");
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 25, outputTokens: 15, reasoningTokens: 0, cachedInputTokens: 0 },
    });
  });

  it("replays the documented tool-use stream: text, then the call with its streamed input", async () => {
    const { backend } = await backendFor([{ sse: anthropicFixture("tool-use.sse") }]);
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [weatherTool], toolChoice: "auto" }), {
        signal: neverAborted(),
      }),
    );
    expect(joinedText(chunks, "text-delta")).toBe(
      "Okay, let's check the weather for San Francisco, CA:",
    );
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "toolu_01T1x1fJ34qAmk2tNTrN7Up6",
        toolName: "get_weather",
        input: { location: "San Francisco, CA", unit: "fahrenheit" },
      },
    ]);
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
  });

  it("replays the documented thinking stream as reasoning deltas", async () => {
    const { backend } = await backendFor([{ sse: anthropicFixture("thinking.sse") }], {
      thinking_budget_tokens: 2048,
    });
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [], toolChoice: "none" }), { signal: neverAborted() }),
    );
    expect(joinedText(chunks, "reasoning-delta")).toContain("GCD(1071, 462) = 21");
    expect(joinedText(chunks, "text-delta")).toBe(
      "The greatest common divisor of 1071 and 462 is **21**.",
    );
    expect(server?.modelCalls()[0]?.body.thinking).toEqual({
      type: "enabled",
      budget_tokens: 2048,
    });
  });

  it("reports the SDK's call warning (temperature ignored while thinking) as a warning chunk", async () => {
    const { backend } = await backendFor([{ sse: anthropicFixture("thinking.sse") }], {
      thinking_budget_tokens: 2048,
    });
    const { chunks } = await collectChunks(
      backend.stream(testRequest({ tools: [], toolChoice: "none", temperature: 0.3 }), {
        signal: neverAborted(),
      }),
    );
    const warnings = chunks.filter((chunk) => chunk.type === "warning");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({
      message: expect.stringMatching(/^temperature /) as unknown,
    });
    expect(server?.modelCalls()[0]?.body.temperature).toBeUndefined();
  });

  it("sends a workflow round's required tool choice as auto while thinking (Anthropic refuses any)", async () => {
    const { backend, fake } = await backendFor([{ text: "a" }, { text: "b" }], {
      thinking: { type: "enabled", budget_tokens: 1024 },
    });
    await collectChunks(backend.stream(testRequest(), { signal: neverAborted() }));
    await collectChunks(
      backend.stream(testRequest({ toolChoice: "none", tools: [] }), { signal: neverAborted() }),
    );
    expect(fake.modelCalls()[0]?.body.tool_choice).toEqual({ type: "auto" });
    expect(fake.modelCalls()[1]?.body.tool_choice).toBeUndefined();
  });

  it("replays the documented web search stream as provider tool call and result", async () => {
    const { backend, fake } = await backendFor([{ sse: anthropicFixture("web-search.sse") }], {
      enable_web_search: true,
      web_search_max_uses: 2,
    });
    const { chunks } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([]);
    expect(chunks.find((chunk) => chunk.type === "provider-tool-call")).toEqual({
      type: "provider-tool-call",
      toolCallId: "srvtoolu_014hJH82Qum7Td6UV8gDXThB",
      toolName: "web_search",
      input: { query: "weather NYC today" },
    });
    const result = chunks.find((chunk) => chunk.type === "provider-tool-result");
    expect(result).toMatchObject({
      toolCallId: "srvtoolu_014hJH82Qum7Td6UV8gDXThB",
      isError: false,
    });
    expect(JSON.stringify(result)).toContain("timeanddate.com");
    expect(joinedText(chunks, "text-delta")).toContain("It is sunny in New York City today.");
    // The server tool was offered beside the workflow tools.
    expect(fake.modelCalls()[0]?.body.tools).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "web_search_20250305", name: "web_search", max_uses: 2 }),
      ]),
    );
  });

  it("replays an in-stream overloaded_error as a retryable BackendError", async () => {
    const { backend } = await backendFor([{ sse: anthropicFixture("error-overloaded.sse") }]);
    const { error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ provider: "anthropic", retryable: true });
    expect((error as Error).message).toContain("Overloaded");
  });

  it("answers HTTP errors with the recorded error body", async () => {
    const recorded = JSON.parse(
      await readFile(`${wireFixtureDir()}/anthropic/error-429.json`, "utf8"),
    ) as { error: { message: string } };
    expect(anthropicErrorBody(429, { message: recorded.error.message })).toEqual(recorded);
  });
});

describe("createClaudeBackend against assembled streams", () => {
  it("streams thinking, text and a workflow call with usage, and sends Anthropic's request shape", async () => {
    const { backend, fake } = await backendFor([
      {
        reasoning: "Six times seven is forty-two.",
        text: "Submitting.",
        toolCalls: [{ name: "new_answer", arguments: { content: "42" } }],
        usage: { inputTokens: 100, outputTokens: 20, reasoningTokens: 7, cachedInputTokens: 30 },
      },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(toolRoundTripRequest(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(joinedText(chunks, "reasoning-delta")).toBe("Six times seven is forty-two.");
    expect(joinedText(chunks, "text-delta")).toBe("Submitting.");
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "toolu_fake1",
        toolName: "new_answer",
        input: { content: "42" },
      },
    ]);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 100, outputTokens: 20, reasoningTokens: 7, cachedInputTokens: 30 },
    });

    const call = fake.modelCalls()[0]!;
    expect(call.headers["x-api-key"]).toBe("sk-ant-test");
    expect(call.headers["anthropic-version"]).toBe("2023-06-01");
    expect(call.body).toMatchObject({
      model: "claude-sonnet-4-5",
      stream: true,
      system: [{ type: "text", text: "You are agent1 of a team." }],
      tool_choice: { type: "any" },
    });
    const summary = summarizeRequest(call);
    expect(summary.api).toBe("anthropic");
    expect(summary.toolNames).toEqual(["new_answer", "vote", "get_weather"]);
    expect(call.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "What is 6 x 7?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool_use", id: "call_1", name: "get_weather", input: { location: "Paris" } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "call_1", content: "sunny" }],
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

  it("streams code execution as provider tool call and result", async () => {
    const { backend, fake } = await backendFor(
      [
        {
          providerToolCalls: [
            {
              name: "code_execution",
              input: { command: "python -c 'print(6*7)'" },
              result: { stdout: "42\n" },
            },
          ],
          text: "It is 42.",
        },
      ],
      { enable_code_execution: true },
    );
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest({ tools: [], toolChoice: "auto" }), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(chunks.find((chunk) => chunk.type === "provider-tool-call")).toMatchObject({
      toolName: "code_execution",
    });
    expect(JSON.stringify(chunks.find((chunk) => chunk.type === "provider-tool-result"))).toContain(
      "42\\n",
    );
    expect(fake.modelCalls()[0]?.body.tools).toEqual([
      expect.objectContaining({ type: "code_execution_20250825", name: "code_execution" }),
    ]);
  });

  it("reports a 429 with retry-after as retryable, and a 401 with what to check", async () => {
    const { backend } = await backendFor([
      {
        error: {
          status: 429,
          message: "Number of requests has exceeded your rate limit",
          retryAfter: 3,
        },
      },
      { error: { status: 401, message: "invalid x-api-key" } },
    ]);
    const first = await collectChunks(backend.stream(testRequest(), { signal: neverAborted() }));
    expect(first.error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3000 });
    expect((first.error as Error).message).toContain("exceeded your rate limit");
    const second = await collectChunks(backend.stream(testRequest(), { signal: neverAborted() }));
    expect(second.error).toMatchObject({ status: 401, retryable: false });
    expect((second.error as Error).message).toContain("ANTHROPIC_API_KEY");
  });

  it("reports a 529 overloaded as retryable", async () => {
    const { backend } = await backendFor([{ error: { status: 529, message: "Overloaded" } }]);
    const { error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toMatchObject({ status: 529, retryable: true });
  });
});

describe("createClaudeBackend configuration", () => {
  it("throws a ConfigError naming ANTHROPIC_API_KEY and how to set it", () => {
    expect(() => createClaudeBackend({ type: "claude", model: "claude-sonnet-4-5" }, {})).toThrow(
      ConfigError,
    );
    expect(() => createClaudeBackend({ type: "claude", model: "claude-sonnet-4-5" }, {})).toThrow(
      /ANTHROPIC_API_KEY=.*~\/\.config\/coord\/\.env.*api_key:/,
    );
  });

  it("lets api_key in the config win, and takes ANTHROPIC_BASE_URL without /v1", async () => {
    server = await startFakeAnthropicServer([{ text: "hi" }]);
    const backend = createClaudeBackend(
      { type: "claude", model: "claude-haiku-4-5", api_key: "from-config" },
      { ANTHROPIC_API_KEY: "from-env", ANTHROPIC_BASE_URL: server.origin },
    );
    await collectChunks(backend.stream(testRequest(), { signal: neverAborted() }));
    expect(server.modelCalls()[0]?.headers["x-api-key"]).toBe("from-config");
  });

  it("maps MassGen thinking keys to Anthropic provider options", () => {
    expect(
      claudeProviderOptions({ type: "claude", thinking_budget_tokens: 4096 } as never),
    ).toEqual({
      anthropic: { thinking: { type: "enabled", budgetTokens: 4096 } },
    });
    expect(
      claudeProviderOptions({
        type: "claude",
        thinking: { type: "enabled", budget_tokens: 1024 },
      } as never),
    ).toEqual({ anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } });
    expect(
      claudeProviderOptions({
        type: "claude",
        thinking: { type: "adaptive" },
        effort: "low",
      } as never),
    ).toEqual({ anthropic: { thinking: { type: "adaptive" }, effort: "low" } });
    expect(claudeProviderOptions({ type: "claude" })).toEqual({ anthropic: {} });
  });
});
