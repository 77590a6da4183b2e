/**
 * What a backend does when the provider refuses the request itself,
 * over a real socket against the fake OpenAI and Anthropic servers, through the retry wrapper as
 * a run uses it:
 *
 * - a provider that refuses `tool_choice: "required"` (older vLLM's 400, OpenRouter's 404) gets
 *   the call again at once with `auto`; the backend remembers `auto` for its later calls and
 *   warns once;
 * - a prompt over the model's context (OpenAI / vLLM `context_length_exceeded`, llama.cpp's
 *   `exceed_context_size_error` even as HTTP 500, Anthropic's "prompt is too long") fails as
 *   `kind: "context-length"` with the window parsed, after exactly one request: never retried.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import {
  startFakeAnthropicServer,
  type FakeAnthropicServer,
} from "../../test/support/fake-anthropic-server.js";
import {
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import { collectChunks, neverAborted, testRequest } from "../../test/support/backend-test-kit.js";
import { createIoGate, type IoGate } from "../../test/support/io-gate.js";
import { BackendError, isContextLengthError, type Backend } from "./backend.js";
import { createChatCompletionsBackend } from "./chat-completions.js";
import { createClaudeBackend } from "./claude.js";
import { createHostedChatBackend } from "./hosted-chat.js";
import { withRetry } from "./retry.js";
import { toolChoiceWarning } from "./tool-choice-fallback.js";

let servers: Array<FakeOpenAIServer | FakeAnthropicServer> = [];
/** Virtual time for the retries, moving only while no request is on its way (io-gate.ts). */
let gate: IoGate;
beforeEach(() => {
  gate = createIoGate();
});
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function start(handler: FakeHandler | FakeReply[]): Promise<FakeOpenAIServer> {
  const server = await startFakeOpenAIServer(handler);
  servers.push(server);
  return server;
}

const answer: FakeReply = { toolCalls: [{ name: "new_answer", arguments: { content: "42" } }] };

/** A server that refuses `tool_choice: "required"` with `refusal` and answers anything else. */
function refusing(refusal: NonNullable<FakeReply["error"]>): FakeHandler {
  return (request) => (request.body.tool_choice === "required" ? { error: refusal } : answer);
}

/** The `tool_choice` each model call sent, in order. */
function toolChoices(server: FakeOpenAIServer): unknown[] {
  return server.requests
    .filter((request) => request.path === "/v1/chat/completions")
    .map((request) => request.body.tool_choice);
}

function retried(backend: Backend): Backend {
  return withRetry(backend, { clock: gate.clock, random: () => 0.5 });
}

describe("a provider that refuses tool_choice: required", () => {
  const vllmRefusal = {
    status: 400,
    message: 'tool_choice = "required" is not supported!',
    type: "BadRequestError",
  };

  test("vLLM's 400: the call is sent again with auto at once, auto is kept for the backend's later calls, one warning", async () => {
    const fake = await start(refusing(vllmRefusal));
    const backend = retried(
      createChatCompletionsBackend(
        { type: "vllm", model: "m", base_url: fake.url },
        {},
        { fetch: gate.fetch },
      ),
    );

    const first = await collectChunks(backend.stream(testRequest(), { signal: neverAborted() }));
    expect(first.error).toBeUndefined();
    expect(first.chunks.map((chunk) => chunk.type)).toEqual([
      "retry",
      "warning",
      "tool-call",
      "finish",
    ]);
    expect(first.chunks[0]).toMatchObject({
      type: "retry",
      attempt: 1,
      delayMs: 0,
      errorKind: "http",
      error: { status: 400, kind: "tool-choice" },
    });
    expect(first.chunks[1]).toEqual({ type: "warning", message: toolChoiceWarning("vllm") });
    expect(first.chunks[2]).toMatchObject({ toolName: "new_answer", input: { content: "42" } });

    const second = await collectChunks(backend.stream(testRequest(), { signal: neverAborted() }));
    expect(second.error).toBeUndefined();
    expect(second.chunks.map((chunk) => chunk.type)).toEqual(["tool-call", "finish"]);

    expect(toolChoices(fake)).toEqual(["required", "auto", "auto"]);
    expect(toolChoiceWarning("vllm")).toBe(
      "vllm refused tool_choice: required; using auto for the rest of the run (set `extra_body: {tool_choice: auto}` to skip the first try)",
    );
  });

  test("OpenRouter's 404 for a route without tool_choice support, through a hosted provider type", async () => {
    const fake = await start(
      refusing({
        status: 404,
        message:
          "No endpoints found that support the provided 'tool_choice' value. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing",
        code: "404",
      }),
    );
    const backend = retried(
      createHostedChatBackend(
        { type: "openrouter", model: "z-ai/glm-4.5-air:free", base_url: fake.url },
        { OPENROUTER_API_KEY: "sk-or-test" },
        { fetch: gate.fetch },
      ),
    );
    for (let call = 0; call < 3; call++) {
      const { error } = await collectChunks(
        backend.stream(testRequest(), { signal: neverAborted() }),
      );
      expect(error).toBeUndefined();
    }
    expect(toolChoices(fake)).toEqual(["required", "auto", "auto", "auto"]);
  });

  test("the memory is the backend instance's: another agent's backend tries required first", async () => {
    const fake = await start(refusing(vllmRefusal));
    const config = { type: "vllm" as const, model: "m", base_url: fake.url };
    const one = retried(createChatCompletionsBackend(config, {}, { fetch: gate.fetch }));
    const other = retried(createChatCompletionsBackend(config, {}, { fetch: gate.fetch }));
    await collectChunks(one.stream(testRequest(), { signal: neverAborted() }));
    const { chunks } = await collectChunks(other.stream(testRequest(), { signal: neverAborted() }));
    expect(chunks.filter((chunk) => chunk.type === "warning")).toHaveLength(1);
    expect(toolChoices(fake)).toEqual(["required", "auto", "required", "auto"]);
  });

  test("a provider that refuses auto too fails with its own message after the one retry", async () => {
    const fake = await start(() => ({
      error: {
        status: 400,
        message:
          '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
      },
    }));
    const backend = retried(
      createChatCompletionsBackend(
        { type: "vllm", model: "m", base_url: fake.url },
        {},
        { fetch: gate.fetch },
      ),
    );
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(chunks.map((chunk) => chunk.type)).toEqual(["retry", "warning"]);
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect(toolChoices(fake)).toEqual(["required", "auto"]);
  });

  test("any other 400 is not mistaken for a refusal: one request, no fallback", async () => {
    const fake = await start(() => ({
      error: { status: 400, message: "The model `m` does not exist." },
    }));
    const backend = retried(
      createChatCompletionsBackend(
        { type: "vllm", model: "m", base_url: fake.url },
        {},
        { fetch: gate.fetch },
      ),
    );
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(chunks).toEqual([]);
    expect(error).toMatchObject({ status: 400, kind: undefined });
    expect(toolChoices(fake)).toEqual(["required"]);
  });
});

describe("a prompt over the model's context", () => {
  test("OpenAI-style context_length_exceeded: kind context-length, the window parsed, one request", async () => {
    const fake = await start(() => ({
      error: {
        status: 400,
        message:
          "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens. Please reduce the length of the messages.",
        code: "context_length_exceeded",
      },
    }));
    const backend = retried(
      createChatCompletionsBackend(
        { type: "chatcompletion", model: "m", base_url: fake.url },
        {},
        { fetch: gate.fetch },
      ),
    );
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(chunks).toEqual([]);
    expect(isContextLengthError(error)).toBe(true);
    expect(error).toMatchObject({
      kind: "context-length",
      contextWindow: 8192,
      retryable: false,
      status: 400,
    });
    expect(fake.requests).toHaveLength(1);
  });

  test("llama.cpp's exceed_context_size_error is not retried even as an HTTP 500", async () => {
    const fake = await start(() => ({
      error: {
        status: 500,
        message:
          "the request exceeds the available context size. try increasing the context size or enable context shift",
        type: "exceed_context_size_error",
      },
    }));
    const backend = retried(
      createChatCompletionsBackend(
        { type: "chatcompletion", model: "m", base_url: fake.url },
        {},
        { fetch: gate.fetch },
      ),
    );
    const { chunks, error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(chunks.filter((chunk) => chunk.type === "retry")).toEqual([]);
    expect(error).toMatchObject({ kind: "context-length", retryable: false, status: 500 });
    expect(fake.requests).toHaveLength(1);
  });

  test("Anthropic's prompt is too long: the window is the maximum it names", async () => {
    const fake = await startFakeAnthropicServer(() => ({
      error: { status: 400, message: "prompt is too long: 208656 tokens > 200000 maximum" },
    }));
    servers.push(fake);
    const backend = retried(
      createClaudeBackend(
        { type: "claude", model: "claude-sonnet-4-5", base_url: fake.url },
        { ANTHROPIC_API_KEY: "sk-ant-test" },
        { fetch: gate.fetch },
      ),
    );
    const { error } = await collectChunks(
      backend.stream(testRequest(), { signal: neverAborted() }),
    );
    expect(error).toMatchObject({ kind: "context-length", contextWindow: 200_000 });
    expect(fake.requests).toHaveLength(1);
  });
});
