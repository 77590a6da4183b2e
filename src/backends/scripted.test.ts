import { describe, expect, test } from "vitest";
import type { ModelRequest } from "./backend.js";
import { createScriptedBackend } from "./scripted.js";

function request(text: string): ModelRequest {
  return {
    system: "sys",
    messages: [{ role: "user", content: text }],
    tools: [],
  } as unknown as ModelRequest;
}

async function play(backend: ReturnType<typeof createScriptedBackend>, text: string) {
  const chunks: unknown[] = [];
  for await (const chunk of backend.stream(request(text), { signal: new AbortController().signal }))
    chunks.push(chunk);
  return chunks;
}

describe("scripted backend: scripts per run", () => {
  const scripts = [
    { match: "What is 2+2?", steps: [{ answer: "4" }] },
    { match: "Double it", steps: [{ answer: "8", expect_prompt_contains: "4" }] },
  ];

  test("the script whose match occurs latest in the prompt plays (the current question)", async () => {
    const backend = createScriptedBackend({ steps: [], scripts });
    const prompt = "History: User: What is 2+2? Assistant: 4\nQuestion: Double it";
    const chunks = await play(backend, prompt);
    expect(chunks).toContainEqual(
      expect.objectContaining({ type: "tool-call", input: { content: "8" } }),
    );
    backend.assertDone();
  });

  test("the first turn plays its own script", async () => {
    const backend = createScriptedBackend({ steps: [], scripts });
    await play(backend, "Question: What is 2+2?");
    expect(() => backend.assertDone()).not.toThrow();
  });

  test("no match: the plain steps play; none either: an unexpected call fails loudly", async () => {
    const fallback = createScriptedBackend({ steps: [{ text: "fallback" }], scripts });
    const chunks = await play(fallback, "something else");
    expect(chunks).toContainEqual({ type: "text-delta", text: "fallback" });
    const empty = createScriptedBackend({ steps: [], scripts });
    await expect(play(empty, "something else")).rejects.toThrow(/unexpected call #1/);
  });
});
