import { afterEach, describe, expect, it } from "vitest";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import type { BackendConfig } from "../config/schema.js";
import { ConfigError } from "../errors.js";
import { BackendError, type ModelRequest } from "./backend.js";
import {
  CHAT_COMPLETIONS_DEFAULT_BASE_URLS,
  createChatCompletionsBackend,
  isLocalHost,
  providerForHost,
  resolveChatCompletionsEndpoint,
} from "./chat-completions.js";
import { collectChunks, neverAborted } from "../../test/support/backend-test-kit.js";

const answerTool = {
  name: "new_answer",
  description: "Submit a new answer.",
  inputSchema: {
    type: "object",
    properties: { content: { type: "string" } },
    required: ["content"],
  },
};
function voteTool(ids: string[]) {
  return {
    name: "vote",
    description: "Vote for the best answer.",
    inputSchema: {
      type: "object",
      properties: { agent_id: { type: "string", enum: ids }, reason: { type: "string" } },
      required: ["agent_id", "reason"],
    },
  };
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are agent2 of a team.",
    messages: [{ role: "user", content: "Name a prime number." }],
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

async function backendFor(
  handler: FakeHandler | FakeReply[],
  config: Partial<BackendConfig> = {},
  env: Record<string, string> = {},
) {
  server = await startFakeOpenAIServer(handler);
  const backend = createChatCompletionsBackend(
    { type: "chatcompletion", model: "qwen3-8b", base_url: server.url, ...config },
    env,
  );
  return { backend, fake: server };
}

/** A fetch that sends requests meant for `from` to the fake server and records the real URLs. */
function redirectingFetch(from: string, to: string, seen: string[]): typeof fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    seen.push(url);
    return fetch(url.replace(from, to), init);
  };
}

describe("createChatCompletionsBackend over a socket", () => {
  it("streams reasoning_content, text and parallel tool calls, then the usage as sent", async () => {
    const { backend, fake } = await backendFor([
      {
        reasoning: "Two is the smallest prime.",
        text: "Here is my answer.",
        toolCalls: [
          { name: "new_answer", arguments: { content: "2 is prime." }, id: "call_x" },
          { name: "new_answer", arguments: { content: "3 is prime too." }, id: "call_y" },
        ],
        usage: {
          inputTokens: 1200,
          outputTokens: 90,
          reasoningTokens: 30,
          cachedInputTokens: 1024,
        },
      },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(request(), { signal: neverAborted() }),
    );
    expect(error).toBeUndefined();
    expect(backend).toMatchObject({ type: "chatcompletion", model: "qwen3-8b" });

    const reasoning = chunks.filter((chunk) => chunk.type === "reasoning-delta");
    expect(reasoning.length).toBeGreaterThan(1);
    expect(reasoning.map((chunk) => chunk.text).join("")).toBe("Two is the smallest prime.");
    const text = chunks.filter((chunk) => chunk.type === "text-delta");
    expect(text.map((chunk) => chunk.text).join("")).toBe("Here is my answer.");
    expect(chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([
      {
        type: "tool-call",
        toolCallId: "call_x",
        toolName: "new_answer",
        input: { content: "2 is prime." },
      },
      {
        type: "tool-call",
        toolCallId: "call_y",
        toolName: "new_answer",
        input: { content: "3 is prime too." },
      },
    ]);
    expect(chunks.filter((chunk) => chunk.type === "finish")).toEqual([
      {
        type: "finish",
        finishReason: "tool-calls",
        usage: {
          inputTokens: 1200,
          outputTokens: 90,
          reasoningTokens: 30,
          cachedInputTokens: 1024,
        },
      },
    ]);
    expect(chunks.at(-1)?.type).toBe("finish");
    expect(fake.requests[0]?.body).toMatchObject({
      model: "qwen3-8b",
      stream: true,
      stream_options: { include_usage: true },
      tool_choice: "required",
    });
  });

  it("sends system, tools and a tool result round-trip in the Chat Completions shape", async () => {
    const { backend, fake } = await backendFor([{ text: "ok" }]);
    await collectChunks(
      backend.stream(
        request({
          messages: [
            { role: "user", content: "Name a prime number." },
            {
              role: "assistant",
              content: "Reading the notes first.",
              toolCalls: [{ toolCallId: "call_1", toolName: "read_file", input: { path: "n.md" } }],
            },
            {
              role: "tool",
              toolCallId: "call_1",
              toolName: "read_file",
              content: "ENOENT: n.md",
              isError: true,
            },
          ],
          tools: [
            answerTool,
            {
              name: "read_file",
              description: "Read a file.",
              inputSchema: { type: "object", properties: { path: { type: "string" } } },
            },
          ],
          toolChoice: "auto",
          temperature: 0.2,
        }),
        { signal: neverAborted() },
      ),
    );
    const body = fake.requests[0]?.body;
    expect(body?.tools).toEqual([
      {
        type: "function",
        function: {
          name: "new_answer",
          description: "Submit a new answer.",
          parameters: answerTool.inputSchema,
        },
      },
      {
        type: "function",
        function: {
          name: "read_file",
          description: "Read a file.",
          parameters: { type: "object", properties: { path: { type: "string" } } },
        },
      },
    ]);
    expect(body?.messages).toEqual([
      { role: "system", content: "You are agent2 of a team." },
      { role: "user", content: "Name a prime number." },
      {
        role: "assistant",
        content: "Reading the notes first.",
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "read_file", arguments: '{"path":"n.md"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "ENOENT: n.md" },
    ]);
    expect(body).toMatchObject({ tool_choice: "auto", temperature: 0.2 });
  });

  it("reports a 429 with Retry-After as retryable with the wait", async () => {
    const { backend } = await backendFor([
      { error: { status: 429, message: "Too many requests, slow down.", retryAfter: "2" } },
    ]);
    const { error } = await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 2000 });
    expect((error as Error).message).toContain("Too many requests, slow down.");
  });

  it("reports a 401 as non-retryable with the provider's message and the key variable", async () => {
    const seen: string[] = [];
    server = await startFakeOpenAIServer([
      { error: { status: 401, message: "No auth credentials found" } },
    ]);
    const backend = createChatCompletionsBackend(
      { type: "chatcompletion", model: "x/y", base_url: "https://openrouter.ai/api/v1" },
      { OPENROUTER_API_KEY: "sk-or-wrong" },
      { fetch: redirectingFetch("https://openrouter.ai/api/v1", server.url, seen) },
    );
    const { error } = await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(error).toMatchObject({ provider: "openrouter", status: 401, retryable: false });
    expect((error as Error).message).toBe(
      "openrouter returned HTTP 401: No auth credentials found (check OPENROUTER_API_KEY or `api_key:` in the config)",
    );
  });

  it("reports an error frame inside the stream", async () => {
    const { backend } = await backendFor([
      { text: "Par", streamError: { message: "Upstream overloaded", type: "overloaded_error" } },
    ]);
    const { chunks, error } = await collectChunks(
      backend.stream(request(), { signal: neverAborted() }),
    );
    expect(chunks).toEqual([{ type: "text-delta", text: "Par" }]);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect((error as Error).message).toContain("Upstream overloaded");
  });
});

describe("base URLs and keys", () => {
  it("uses each type's default base URL", async () => {
    expect(CHAT_COMPLETIONS_DEFAULT_BASE_URLS).toEqual({
      chatcompletion: undefined,
      zai: "https://api.z.ai/api/paas/v4",
      lmstudio: "http://localhost:1234/v1",
      vllm: "http://localhost:8000/v1",
      sglang: "http://localhost:30000/v1",
      ollama: "http://localhost:11434/v1",
    });
    for (const type of ["lmstudio", "vllm", "sglang", "ollama"] as const) {
      const endpoint = resolveChatCompletionsEndpoint({ type, model: "m" }, {});
      expect(endpoint).toMatchObject({
        type,
        baseURL: CHAT_COMPLETIONS_DEFAULT_BASE_URLS[type],
        providerName: type,
        apiKey: undefined,
      });
    }
    expect(
      resolveChatCompletionsEndpoint({ type: "zai", model: "glm-4.6" }, { ZAI_API_KEY: "z" }),
    ).toMatchObject({ baseURL: "https://api.z.ai/api/paas/v4", apiKey: "z" });
  });

  it("calls the default URL through the real client, and lets base_url override it", async () => {
    server = await startFakeOpenAIServer([{ text: "a" }, { text: "b" }]);
    const seen: string[] = [];
    const fetchVia = { fetch: redirectingFetch("http://localhost:1234/v1", server.url, seen) };
    const lmstudio = createChatCompletionsBackend(
      { type: "lmstudio", model: "qwen" },
      {},
      fetchVia,
    );
    await collectChunks(lmstudio.stream(request(), { signal: neverAborted() }));
    const overridden = createChatCompletionsBackend(
      { type: "ollama", model: "llama3.2", base_url: `${server.url}/` },
      {},
    );
    const { error } = await collectChunks(overridden.stream(request(), { signal: neverAborted() }));
    expect(error).toBeUndefined();
    expect(seen).toEqual(["http://localhost:1234/v1/chat/completions"]);
    expect(server.requests.map((entry) => entry.path)).toEqual([
      "/v1/chat/completions",
      "/v1/chat/completions",
    ]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it("picks the key variable by host", () => {
    const cases: [string, string][] = [
      ["https://openrouter.ai/api/v1", "OPENROUTER_API_KEY"],
      ["https://api.groq.com/openai/v1", "GROQ_API_KEY"],
      ["https://api.together.xyz/v1", "TOGETHER_API_KEY"],
      ["https://api.fireworks.ai/inference/v1", "FIREWORKS_API_KEY"],
      ["https://api.cerebras.ai/v1", "CEREBRAS_API_KEY"],
      ["https://api.moonshot.ai/v1", "MOONSHOT_API_KEY"],
      ["https://api.studio.nebius.com/v1", "NEBIUS_API_KEY"],
      ["https://api.z.ai/api/paas/v4", "ZAI_API_KEY"],
      ["https://open.bigmodel.cn/api/paas/v4", "ZAI_API_KEY"],
      ["https://api.openai.com/v1", "OPENAI_API_KEY"],
    ];
    for (const [baseURL, variable] of cases) {
      const endpoint = resolveChatCompletionsEndpoint(
        { type: "chatcompletion", model: "m", base_url: baseURL },
        { [variable]: `key-for-${variable}` },
      );
      expect(endpoint.apiKey, baseURL).toBe(`key-for-${variable}`);
      expect(endpoint.keyVariable, baseURL).toBe(variable);
    }
    expect(providerForHost("evil-openrouter.ai")).toBeUndefined();
  });

  it("sends the host's key as a bearer token", async () => {
    server = await startFakeOpenAIServer([{ text: "ok" }]);
    const seen: string[] = [];
    const backend = createChatCompletionsBackend(
      {
        type: "chatcompletion",
        model: "llama-3.3-70b",
        base_url: "https://api.groq.com/openai/v1",
      },
      { GROQ_API_KEY: "gsk-test", OPENAI_API_KEY: "sk-not-this" },
      { fetch: redirectingFetch("https://api.groq.com/openai/v1", server.url, seen) },
    );
    await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(seen).toEqual(["https://api.groq.com/openai/v1/chat/completions"]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer gsk-test");
  });

  it("prefers api_key from the config over the environment", () => {
    const endpoint = resolveChatCompletionsEndpoint(
      {
        type: "chatcompletion",
        model: "m",
        base_url: "https://openrouter.ai/api/v1",
        api_key: "cfg",
      },
      { OPENROUTER_API_KEY: "env" },
    );
    expect(endpoint.apiKey).toBe("cfg");
  });

  it("throws a ConfigError naming the variable when a hosted provider's key is missing", () => {
    const openrouter = () =>
      createChatCompletionsBackend(
        { type: "chatcompletion", model: "m", base_url: "https://openrouter.ai/api/v1" },
        {},
      );
    expect(openrouter).toThrow(ConfigError);
    expect(openrouter).toThrow(/OPENROUTER_API_KEY/);
    expect(openrouter).toThrow(/~\/\.config\/coord\/\.env/);
    const zai = () => createChatCompletionsBackend({ type: "zai", model: "glm-4.6" }, {});
    expect(zai).toThrow(ConfigError);
    expect(zai).toThrow(/ZAI_API_KEY/);
  });

  it("needs no key for local or unknown hosts", () => {
    for (const baseURL of [
      "http://localhost:8080/v1",
      "http://127.0.0.1:9000/v1",
      "http://192.168.1.20:1234/v1",
      "https://llm.internal.example.com/v1",
    ]) {
      const endpoint = resolveChatCompletionsEndpoint(
        { type: "chatcompletion", model: "m", base_url: baseURL },
        {},
      );
      expect(endpoint.apiKey, baseURL).toBeUndefined();
    }
    expect(isLocalHost("10.0.0.5")).toBe(true);
    expect(isLocalHost("172.20.1.1")).toBe(true);
    expect(isLocalHost("172.40.1.1")).toBe(false);
    expect(isLocalHost("8.8.8.8")).toBe(false);
  });

  it("throws a ConfigError for chatcompletion without base_url, a bad URL or no model", () => {
    expect(() => createChatCompletionsBackend({ type: "chatcompletion", model: "m" }, {})).toThrow(
      /base_url:/,
    );
    expect(() =>
      createChatCompletionsBackend({ type: "chatcompletion", model: "m", base_url: "nope" }, {}),
    ).toThrow(ConfigError);
    expect(() => createChatCompletionsBackend({ type: "ollama" }, {})).toThrow(/model:/);
  });

  it("hints that a local server may not be running when it cannot be reached", async () => {
    server = await startFakeOpenAIServer([]);
    const url = server.url;
    await server.close();
    server = undefined;
    const backend = createChatCompletionsBackend({ type: "vllm", model: "m", base_url: url }, {});
    const { error } = await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(error).toMatchObject({ provider: "vllm", retryable: true });
    expect((error as Error).message).toContain("is vLLM running at");
  });
});

describe("provider quirks", () => {
  it("Z.ai: sends tool_choice auto instead of required, drops tools for none, no stream_options", async () => {
    server = await startFakeOpenAIServer([{ text: "a" }, { text: "b" }]);
    const backend = createChatCompletionsBackend(
      { type: "zai", model: "glm-4.6", base_url: server.url },
      { ZAI_API_KEY: "zk" },
    );
    await collectChunks(
      backend.stream(request({ toolChoice: "required" }), { signal: neverAborted() }),
    );
    await collectChunks(
      backend.stream(request({ toolChoice: "none" }), { signal: neverAborted() }),
    );
    const [required, none] = server.requests.map((entry) => entry.body);
    expect(required).toMatchObject({ tool_choice: "auto" });
    expect(required?.tools).toHaveLength(1);
    expect(required).not.toHaveProperty("stream_options");
    expect(none).not.toHaveProperty("tools");
    expect(none).not.toHaveProperty("tool_choice");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer zk");
  });
});

describe("coordinationHandler", () => {
  it("answers first, votes once answers exist, and writes plain text without tools", async () => {
    const { backend } = await backendFor(coordinationHandler({ answer: "2 is the answer." }));
    const answer = await collectChunks(backend.stream(request(), { signal: neverAborted() }));
    expect(answer.chunks.find((chunk) => chunk.type === "tool-call")).toMatchObject({
      toolName: "new_answer",
      input: { content: "2 is the answer." },
    });

    const vote = await collectChunks(
      backend.stream(request({ tools: [answerTool, voteTool(["agent1", "agent2"])] }), {
        signal: neverAborted(),
      }),
    );
    expect(vote.chunks.find((chunk) => chunk.type === "tool-call")).toMatchObject({
      toolName: "vote",
      input: { agent_id: "agent1" },
    });

    const onlyOthers = await collectChunks(
      backend.stream(request({ tools: [answerTool, voteTool(["agent2"])] }), {
        signal: neverAborted(),
      }),
    );
    expect(onlyOthers.chunks.find((chunk) => chunk.type === "tool-call")).toMatchObject({
      toolName: "vote",
      input: { agent_id: "agent2" },
    });

    const noAnswersYet = await collectChunks(
      backend.stream(
        request({
          messages: [{ role: "user", content: "Current answers: (no answers available yet)" }],
          tools: [answerTool, voteTool([])],
        }),
        { signal: neverAborted() },
      ),
    );
    expect(noAnswersYet.chunks.find((chunk) => chunk.type === "tool-call")).toMatchObject({
      toolName: "new_answer",
    });

    const final = await collectChunks(
      backend.stream(request({ tools: [], toolChoice: "auto" }), { signal: neverAborted() }),
    );
    expect(final.chunks.filter((chunk) => chunk.type === "tool-call")).toEqual([]);
    expect(
      final.chunks
        .filter((chunk) => chunk.type === "text-delta")
        .map((chunk) => chunk.text)
        .join(""),
    ).toBe("Final answer: The answer is 42.");
  });
});

describe("fake server extras", () => {
  it("answers non-streaming requests with one chat.completion object", async () => {
    server = await startFakeOpenAIServer([
      { text: "Hello", toolCalls: [{ name: "vote", arguments: { agent_id: "agent1" } }] },
    ]);
    const response = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      object: "chat.completion",
      choices: [
        {
          message: {
            role: "assistant",
            content: "Hello",
            tool_calls: [{ function: { name: "vote", arguments: '{"agent_id":"agent1"}' } }],
          },
          finish_reason: "tool_calls",
        },
      ],
    });
    const recorded = await fetch(server.url.replace("/v1", "/__requests"));
    expect(((await recorded.json()) as unknown[]).length).toBe(1);
  });
});
