import { afterEach, describe, expect, it } from "vitest";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import { ConfigError } from "../errors.js";
import { BackendError, type ModelRequest } from "./backend.js";
import { createOpenAIBackend, isReasoningModelName, responsesProviderOptions } from "./openai.js";
import { collectChunks, neverAborted } from "../../test/support/backend-test-kit.js";

const answerTool = {
  name: "new_answer",
  description: "Submit a new answer.",
  inputSchema: {
    type: "object",
    properties: { content: { type: "string" } },
    required: ["content"],
    additionalProperties: false,
  },
};
const voteTool = {
  name: "vote",
  description: "Vote for the best answer.",
  inputSchema: {
    type: "object",
    properties: {
      agent_id: { type: "string", enum: ["agent1", "agent2"] },
      reason: { type: "string" },
    },
    required: ["agent_id", "reason"],
    additionalProperties: false,
  },
};

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are agent1 of a team.",
    messages: [{ role: "user", content: "What is 6 x 7?" }],
    tools: [answerTool, voteTool],
    toolChoice: "required",
    ...overrides,
  };
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function backendFor(handler: FakeHandler | FakeReply[], model = "gpt-4.1-mini") {
  server = await startFakeOpenAIServer(handler);
  const backend = createOpenAIBackend(
    { type: "openai", model, base_url: server.url },
    { OPENAI_API_KEY: "sk-test" },
  );
  return { backend, fake: server };
}

describe("createOpenAIBackend (Responses API)", () => {
  it("streams reasoning, text and a tool call, then one finish with the server's usage", async () => {
    const { backend, fake } = await backendFor([
      {
        reasoning: "Six times seven is forty-two.",
        text: "The answer is 42.",
        toolCalls: [{ name: "new_answer", arguments: { content: "42, because 6 x 7 = 42." } }],
        usage: { inputTokens: 321, outputTokens: 87, reasoningTokens: 64, cachedInputTokens: 128 },
      },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(request(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(backend).toMatchObject({ type: "openai", model: "gpt-4.1-mini" });

    const reasoning = chunks.filter((chunk) => chunk.type === "reasoning-delta");
    const text = chunks.filter((chunk) => chunk.type === "text-delta");
    expect(reasoning.length).toBeGreaterThan(1);
    expect(reasoning.map((chunk) => chunk.text).join("")).toBe("Six times seven is forty-two.");
    expect(text.length).toBeGreaterThan(1);
    expect(text.map((chunk) => chunk.text).join("")).toBe("The answer is 42.");
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "call_1",
        toolName: "new_answer",
        input: { content: "42, because 6 x 7 = 42." },
      },
    ]);
    expect(chunks.filter((chunk) => chunk.type === "finish")).toHaveLength(1);
    expect(chunks.at(-1)).toEqual({
      type: "finish",
      finishReason: "tool-calls",
      usage: { inputTokens: 321, outputTokens: 87, reasoningTokens: 64, cachedInputTokens: 128 },
    });
    expect(fake.requests[0]?.path).toBe("/v1/responses");
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer sk-test");
  });

  it("sends system, tools, tool choice and the whole conversation incl. a tool result", async () => {
    const { backend, fake } = await backendFor([{ text: "Noted." }]);
    await collectChunks(
      backend.stream(
        request({
          messages: [
            { role: "user", content: "What is 6 x 7?" },
            {
              role: "assistant",
              content: "Submitting.",
              toolCalls: [
                { toolCallId: "call_a", toolName: "new_answer", input: { content: "42" } },
              ],
            },
            {
              role: "tool",
              toolCallId: "call_a",
              toolName: "new_answer",
              content: "Answer recorded as agent1.1",
            },
            { role: "user", content: "Update: agent2 answered." },
          ],
          toolChoice: "auto",
          maxOutputTokens: 256,
        }),
        { signal: neverAborted() },
      ),
    );
    const body = fake.requests[0]?.body;
    expect(body).toMatchObject({
      model: "gpt-4.1-mini",
      stream: true,
      tool_choice: "auto",
      max_output_tokens: 256,
    });
    expect(body?.tools).toEqual([
      {
        type: "function",
        name: "new_answer",
        description: "Submit a new answer.",
        parameters: answerTool.inputSchema,
      },
      {
        type: "function",
        name: "vote",
        description: "Vote for the best answer.",
        parameters: voteTool.inputSchema,
      },
    ]);
    expect(body?.input).toEqual([
      { role: "system", content: "You are agent1 of a team." },
      { role: "user", content: [{ type: "input_text", text: "What is 6 x 7?" }] },
      { role: "assistant", content: [{ type: "output_text", text: "Submitting." }] },
      {
        type: "function_call",
        call_id: "call_a",
        name: "new_answer",
        arguments: '{"content":"42"}',
      },
      { type: "function_call_output", call_id: "call_a", output: "Answer recorded as agent1.1" },
      { role: "user", content: [{ type: "input_text", text: "Update: agent2 answered." }] },
    ]);
  });

  it("asks reasoning models for a reasoning summary, and sends the system prompt as developer", async () => {
    const { backend, fake } = await backendFor([{ reasoning: "Hmm.", text: "42" }], "gpt-5-mini");
    const { chunks } = await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(chunks[0]).toEqual({ type: "reasoning-delta", text: "Hmm." });
    expect(fake.requests[0]?.body.reasoning).toEqual({ summary: "auto" });
    expect(fake.requests[0]?.body.input).toContainEqual({
      role: "developer",
      content: "You are agent1 of a team.",
    });
  });

  it("reassembles tool-call arguments streamed in pieces, one call per tool", async () => {
    const { backend } = await backendFor(coordinationHandler());
    const { chunks } = await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "call_1",
        toolName: "vote",
        input: { agent_id: "agent1", reason: "agent1's answer is correct and complete." },
      },
    ]);
  });

  it("reports a 429 with Retry-After as a retryable BackendError", async () => {
    const { backend } = await backendFor([
      {
        error: {
          status: 429,
          message: "Rate limit reached for gpt-4.1-mini on tokens per min (TPM).",
          retryAfter: 20,
        },
      },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(request(), { signal: neverAborted() }),
    );
    expect(chunks).toEqual([]);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({
      provider: "openai",
      status: 429,
      retryable: true,
      retryAfterMs: 20_000,
    });
    expect((error as Error).message).toContain("Rate limit reached for gpt-4.1-mini");
  });

  it("reports a 401 as non-retryable with OpenAI's message and what to check", async () => {
    const { backend } = await backendFor([
      { error: { status: 401, message: "Incorrect API key provided: sk-test." } },
    ]);
    const { error } = await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(error).toMatchObject({ provider: "openai", status: 401, retryable: false });
    expect((error as Error).message).toBe(
      "openai returned HTTP 401: Incorrect API key provided: sk-test. (check OPENAI_API_KEY or `api_key:` in the config)",
    );
  });

  it("reports an error event after some output as a BackendError", async () => {
    const { backend } = await backendFor([
      {
        text: "Partial",
        streamError: { message: "The server had an error.", code: "server_error" },
      },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(request(), { signal: neverAborted() }),
    );
    expect(chunks).toEqual([{ type: "text-delta", text: "Partial" }]);
    expect(error).toMatchObject({ provider: "openai", status: 500, retryable: true });
    expect((error as Error).message).toContain("The server had an error.");
  });

  it("reports an incomplete response as finish reason length", async () => {
    const { backend } = await backendFor([{ text: "Cut", finishReason: "max_output_tokens" }]);
    const { chunks } = await collectChunks(
      backend.stream(request({ tools: [] }), { signal: neverAborted() }),
    );
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "length" });
  });
});

describe("createOpenAIBackend configuration", () => {
  it("throws a ConfigError naming OPENAI_API_KEY and how to set it when no key is set", () => {
    const create = () => createOpenAIBackend({ type: "openai", model: "gpt-5" }, {});
    expect(create).toThrow(ConfigError);
    expect(create).toThrow(/OPENAI_API_KEY/);
    expect(create).toThrow(/~\/\.config\/coord\/\.env/);
    expect(create).toThrow(/api_key:/);
  });

  it("throws a ConfigError when no model is set", () => {
    expect(() => createOpenAIBackend({ type: "openai" }, { OPENAI_API_KEY: "k" })).toThrow(
      /model:/,
    );
  });

  it("prefers api_key from the config, and takes the base URL from OPENAI_BASE_URL", async () => {
    server = await startFakeOpenAIServer([{ text: "hi" }]);
    const backend = createOpenAIBackend(
      { type: "openai", model: "gpt-4.1", api_key: "sk-config" },
      { OPENAI_API_KEY: "sk-env", OPENAI_BASE_URL: server.url },
    );
    const { error } = await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(error).toBeUndefined();
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-config");
  });

  it("defaults to api.openai.com", async () => {
    server = await startFakeOpenAIServer([{ text: "hi" }]);
    const target = server.url;
    const seen: string[] = [];
    const redirect: typeof fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      seen.push(url);
      return fetch(url.replace("https://api.openai.com/v1", target), init);
    };
    const backend = createOpenAIBackend(
      { type: "openai", model: "gpt-4.1" },
      { OPENAI_API_KEY: "sk-env" },
      { fetch: redirect },
    );
    await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(seen).toEqual(["https://api.openai.com/v1/responses"]);
  });

  it("asks only reasoning models for a summary by default, and passes MassGen's reasoning settings", () => {
    expect(responsesProviderOptions({ type: "openai", model: "gpt-5" })).toEqual({
      openai: { reasoningSummary: "auto" },
    });
    expect(responsesProviderOptions({ type: "openai", model: "gpt-4.1" })).toEqual({ openai: {} });
    expect(
      responsesProviderOptions({
        type: "openai",
        model: "o4-mini",
        reasoning: { effort: "high", summary: "detailed" },
      } as never),
    ).toEqual({ openai: { reasoningSummary: "detailed", reasoningEffort: "high" } });
  });

  it("recognizes reasoning model names", () => {
    for (const name of ["o1", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-5.1", "gpt-6"]) {
      expect(isReasoningModelName(name), name).toBe(true);
    }
    for (const name of ["gpt-4o", "gpt-4.1-mini", "gpt-5-chat-latest", "my-finetune"]) {
      expect(isReasoningModelName(name), name).toBe(false);
    }
  });
});
