/**
 * Wire activity reaches the listener of the call that made the request (`ai-sdk-activity.ts`):
 * through the real providers (`@ai-sdk/openai-compatible`, `@ai-sdk/openai` Responses) over a
 * real socket, every body chunk is reported before the SDK yields the parts it holds back, and
 * two calls in flight on one abort signal each hear only their own response.
 */
import { afterEach, describe, expect, test } from "vitest";
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import type { Backend, BackendChunk } from "./backend.js";
import { createChatCompletionsBackend } from "./chat-completions.js";
import { createOpenAIBackend } from "./openai.js";

const request = {
  system: "",
  messages: [{ role: "user" as const, content: "What is 2+2?" }],
  tools: [],
  toolChoice: "auto" as const,
};

let fake: FakeOpenAIServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** Streams one call; returns its chunks and the activity count seen when each arrived. */
async function call(
  backend: Backend,
  signal: AbortSignal,
): Promise<{ chunks: BackendChunk[]; seen: number[]; activity: () => number }> {
  let count = 0;
  const chunks: BackendChunk[] = [];
  const seen: number[] = [];
  for await (const chunk of backend.stream(request, { signal, onActivity: () => count++ })) {
    chunks.push(chunk);
    seen.push(count);
  }
  return { chunks, seen, activity: () => count };
}

const chatCompletions = (url: string) =>
  createChatCompletionsBackend(
    { type: "chatcompletion", model: "m", base_url: url },
    { OPENAI_API_KEY: "sk-test-activity" },
  );

describe("wire activity", () => {
  test.each([
    ["chatcompletion", chatCompletions],
    [
      "openai (Responses)",
      (url: string) =>
        createOpenAIBackend(
          { type: "openai", model: "gpt-4o", base_url: url },
          { OPENAI_API_KEY: "sk-test-activity" },
        ),
    ],
  ])("%s: the headers and each body chunk are reported as they arrive", async (_name, make) => {
    // A tool call's arguments come in several chunks the SDK holds back until the call ends.
    const reply: FakeReply = {
      toolCalls: [{ name: "new_answer", arguments: { content: "four, as 2 + 2 = 4" } }],
      chunkDelayMs: 5,
    };
    fake = await startFakeOpenAIServer([reply]);
    const { chunks, seen, activity } = await call(make(fake.url), new AbortController().signal);
    expect(chunks.map((chunk) => chunk.type)).toEqual(["tool-call", "finish"]);
    // Headers plus one report per event read, all before the SDK yielded the tool call.
    expect(seen[0]).toBeGreaterThanOrEqual(4);
    expect(activity()).toBeGreaterThanOrEqual(seen[0]!);
  });

  test("two calls in flight on one signal: each listener hears only its own response", async () => {
    fake = await startFakeOpenAIServer((summary) =>
      JSON.stringify(summary.body).includes("long")
        ? { textChunks: Array.from({ length: 12 }, () => "word "), chunkDelayMs: 5 }
        : { textChunks: ["short"], chunkDelayMs: 5 },
    );
    const backend = chatCompletions(fake.url);
    const shared = new AbortController().signal;
    const ask = (content: string) => ({
      ...request,
      messages: [{ role: "user" as const, content }],
    });
    const counts = [0, 0];
    const drain = async (index: number, content: string) => {
      for await (const chunk of backend.stream(ask(content), {
        signal: shared,
        onActivity: () => counts[index]!++,
      })) {
        void chunk;
      }
    };
    await Promise.all([drain(0, "long answer please"), drain(1, "short answer please")]);
    // The long reply's 12 text events (and more) reach the first listener alone; the short
    // reply's few events the second. Had the second call taken over the signal, the first
    // listener would hear nothing and the second both responses.
    expect(counts[0]).toBeGreaterThanOrEqual(13);
    expect(counts[1]).toBeGreaterThanOrEqual(2);
    expect(counts[1]).toBeLessThan(10);
  });
});
