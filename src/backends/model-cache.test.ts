/**
 * The shared language models (`model-cache.ts`): built once per distinct settings, never shared
 * between backends whose requests differ (another key, base URL, body fields, injected fetch,
 * provider type), bounded, and what a backend learns in its run stays its own.
 */
import { afterEach, describe, expect, test } from "vitest";
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import type { AiSdkModel } from "./ai-sdk-stream.js";
import type { Backend } from "./backend.js";
import { createChatCompletionsBackend } from "./chat-completions.js";
import { createHostedChatBackend } from "./hosted-chat.js";
import { MODEL_CACHE_SIZE, sharedLanguageModel } from "./model-cache.js";

let servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function start(handler: (request: { body: Record<string, unknown> }) => FakeReply) {
  const server = await startFakeOpenAIServer(handler);
  servers.push(server);
  return server;
}

const answer: FakeReply = { text: "4" };
const request = (toolChoice: "auto" | "required" = "auto") => ({
  system: "",
  messages: [{ role: "user" as const, content: "What is 2+2?" }],
  tools:
    toolChoice === "required"
      ? [{ name: "new_answer", description: "Answer.", inputSchema: { type: "object" } }]
      : [],
  toolChoice,
});

async function drain(backend: Backend, toolChoice?: "auto" | "required"): Promise<void> {
  for await (const chunk of backend.stream(request(toolChoice), {
    signal: new AbortController().signal,
  })) {
    void chunk;
  }
}

/** A model stand-in: only its identity matters to the cache. */
const fakeModel = () => ({}) as AiSdkModel;

describe("sharedLanguageModel", () => {
  test("builds once per settings and fetch; any difference builds another", () => {
    let builds = 0;
    const build = () => {
      builds++;
      return fakeModel();
    };
    const settings = { sdk: "t", baseURL: "http://a", apiKey: "k1", model: "m" };
    const first = sharedLanguageModel(settings, undefined, build);
    expect(sharedLanguageModel({ ...settings }, undefined, build)).toBe(first);
    expect(builds).toBe(1);
    const injected: typeof fetch = (input, init) => fetch(input, init);
    for (const other of [
      { ...settings, apiKey: "k2" },
      { ...settings, baseURL: "http://b" },
      { ...settings, model: "m2" },
      { ...settings, bodyFields: { seed: 1 } },
    ]) {
      expect(sharedLanguageModel(other, undefined, build)).not.toBe(first);
    }
    expect(sharedLanguageModel(settings, injected, build)).not.toBe(first);
    expect(builds).toBe(6);
  });

  test("keeps the most recently used models only", () => {
    const settings = (index: number) => ({ sdk: "bounded", index });
    const built: AiSdkModel[] = [];
    for (let index = 0; index < MODEL_CACHE_SIZE; index++) {
      built.push(sharedLanguageModel(settings(index), undefined, fakeModel));
    }
    // 0 and 1 used again: the oldest is now 2, dropped when one more is added.
    expect(sharedLanguageModel(settings(0), undefined, fakeModel)).toBe(built[0]);
    expect(sharedLanguageModel(settings(1), undefined, fakeModel)).toBe(built[1]);
    sharedLanguageModel(settings(MODEL_CACHE_SIZE), undefined, fakeModel);
    expect(sharedLanguageModel(settings(0), undefined, fakeModel)).toBe(built[0]);
    expect(sharedLanguageModel(settings(1), undefined, fakeModel)).toBe(built[1]);
    expect(sharedLanguageModel(settings(2), undefined, fakeModel)).not.toBe(built[2]);
  });
});

describe("backends with shared models", () => {
  test("two chatcompletion backends with different keys send their own Authorization, however interleaved", async () => {
    const fake = await start(() => answer);
    const make = (apiKey: string) =>
      createChatCompletionsBackend(
        { type: "chatcompletion", model: "m", base_url: fake.url, api_key: apiKey },
        {},
      );
    const one = make("sk-key-one");
    const two = make("sk-key-two");
    const oneAgain = make("sk-key-one");
    await drain(one);
    await drain(two);
    await drain(oneAgain);
    await Promise.all([drain(two), drain(one)]);
    const sent = fake.requests.map((entry) => entry.headers.authorization);
    expect(sent.slice(0, 3)).toEqual([
      "Bearer sk-key-one",
      "Bearer sk-key-two",
      "Bearer sk-key-one",
    ]);
    expect([...sent.slice(3)].sort()).toEqual(["Bearer sk-key-one", "Bearer sk-key-two"]);
  });

  test("same key and model, other base URL or extra_body: each backend reaches its own server with its own body", async () => {
    const first = await start(() => answer);
    const second = await start(() => answer);
    const make = (url: string, extra?: Record<string, unknown>) =>
      createChatCompletionsBackend(
        {
          type: "chatcompletion",
          model: "m",
          base_url: url,
          api_key: "sk-same",
          ...(extra ? { extra_body: extra } : {}),
        },
        {},
      );
    await drain(make(first.url));
    await drain(make(second.url, { seed: 7 }));
    await drain(make(first.url));
    expect(first.requests).toHaveLength(2);
    expect(second.requests).toHaveLength(1);
    expect(second.requests[0]!.body).toMatchObject({ seed: 7 });
    expect(first.requests.map((entry) => entry.body.seed)).toEqual([undefined, undefined]);
  });

  test("hosted provider types: another key is another model", async () => {
    const fake = await start(() => answer);
    const make = (key: string) =>
      createHostedChatBackend(
        { type: "moonshot", model: "m", base_url: fake.url },
        {
          MOONSHOT_API_KEY: key,
        },
      );
    await drain(make("sk-moon-1"));
    await drain(make("sk-moon-2"));
    expect(fake.requests.map((entry) => entry.headers.authorization)).toEqual([
      "Bearer sk-moon-1",
      "Bearer sk-moon-2",
    ]);
  });

  test("a backend's tool-choice fallback is its own: a new backend on the same model tries required again", async () => {
    const fake = await start((sent) =>
      sent.body.tool_choice === "required"
        ? { error: { status: 400, message: 'tool_choice = "required" is not supported!' } }
        : answer,
    );
    const make = () =>
      createChatCompletionsBackend({ type: "vllm", model: "m", base_url: fake.url }, {});
    const first = make();
    await drain(first, "required");
    await drain(first, "required");
    await drain(make(), "required");
    expect(fake.requests.map((entry) => entry.body.tool_choice)).toEqual([
      "required",
      "auto",
      "auto",
      "required",
      "auto",
    ]);
  });
});
