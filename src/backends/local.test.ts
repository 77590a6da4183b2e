/**
 * Real inference on stories260K (models/stories260K.gguf, shipped with coord): a tiny story model that cannot answer
 * anything, so these tests check structure (grammar-valid tool calls, streaming, usage, abort,
 * concurrency), never content.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { BackendError } from "./backend.js";
import type { Backend, BackendChunk, ModelRequest, ToolSpec } from "./backend.js";
import { createLocalBackend } from "./local.js";

const modelPath = fileURLToPath(new URL("../../models/stories260K.gguf", import.meta.url));

const newAnswer: ToolSpec = {
  name: "new_answer",
  description: "Submit a new answer to the question.",
  inputSchema: {
    type: "object",
    properties: { content: { type: "string", description: "The full answer." } },
    required: ["content"],
    additionalProperties: false,
  },
};
const vote: ToolSpec = {
  name: "vote",
  description: "Vote for the best existing answer.",
  inputSchema: {
    type: "object",
    properties: {
      agent_id: { type: "string", enum: ["agent1", "agent2"] },
      reason: { type: "string" },
    },
    required: ["agent_id", "reason"],
  },
};

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are agent1 of a team. Answer the question, or vote for the best answer.",
    messages: [{ role: "user", content: "Once upon a time, what did the little cat find?" }],
    tools: [],
    toolChoice: "auto",
    ...overrides,
  };
}

async function collect(backend: Backend, req: ModelRequest, signal = new AbortController().signal) {
  const chunks: BackendChunk[] = [];
  for await (const chunk of backend.stream(req, { signal })) chunks.push(chunk);
  return chunks;
}

function finishOf(chunks: BackendChunk[]) {
  const finishes = chunks.filter((chunk) => chunk.type === "finish");
  expect(finishes).toHaveLength(1);
  expect(chunks.at(-1)).toBe(finishes[0]);
  return finishes[0]!;
}

/** Checks a tool call against the two test tools' schemas; returns the tool name. */
function expectValidToolCall(chunks: BackendChunk[], offered: readonly ToolSpec[]): string {
  const calls = chunks.filter((chunk) => chunk.type === "tool-call");
  expect(calls).toHaveLength(1);
  const call = calls[0]!;
  expect(call.toolCallId).toMatch(/\S/);
  expect(offered.map((tool) => tool.name)).toContain(call.toolName);
  const input = call.input as Record<string, unknown>;
  if (call.toolName === "new_answer") {
    expect(Object.keys(input)).toEqual(["content"]);
    expect(typeof input.content).toBe("string");
  } else {
    expect(Object.keys(input).sort()).toEqual(["agent_id", "reason"]);
    expect(["agent1", "agent2"]).toContain(input.agent_id);
    expect(typeof input.reason).toBe("string");
  }
  expect(chunks.some((chunk) => chunk.type === "text-delta")).toBe(false);
  const finish = finishOf(chunks);
  expect(finish.finishReason).toBe("tool-calls");
  expect(finish.usage.inputTokens).toBeGreaterThan(0);
  expect(finish.usage.outputTokens).toBeGreaterThan(0);
  return call.toolName;
}

const backends: Backend[] = [];
function local(config: { threads?: number; context_size?: number; max_tokens?: number } = {}) {
  let id = 0;
  const backend = createLocalBackend(
    { type: "local", model: modelPath, ...config },
    { newToolCallId: () => `call_${++id}` },
  );
  backends.push(backend);
  return backend;
}

afterAll(async () => {
  for (const backend of backends) await backend.close?.();
});

// Real CPU inference: seconds per test on a loaded machine, beyond the unit project's 10 s.
describe("createLocalBackend", { timeout: 60_000 }, () => {
  it("throws ConfigError naming the path when the model file is missing", () => {
    const missing = join(tmpdir(), "coord-no-such-model.gguf");
    expect(() => createLocalBackend({ type: "local", model: missing })).toThrow(ConfigError);
    expect(() => createLocalBackend({ type: "local", model: missing })).toThrow(missing);
    expect(() => createLocalBackend({ type: "local" })).toThrow(ConfigError);
  });

  it("throws ConfigError for a file that is not GGUF, and resolves relative paths against cwd", () => {
    const dir = mkdtempSync(join(tmpdir(), "coord-local-"));
    writeFileSync(join(dir, "fake.gguf"), "not a model");
    expect(() => createLocalBackend({ type: "local", model: "fake.gguf" }, { cwd: dir })).toThrow(
      /not a GGUF/,
    );
    const relativePath = relative(process.cwd(), modelPath);
    const backend = createLocalBackend({ type: "local", model: relativePath });
    expect(backend).toMatchObject({ type: "local", model: relativePath });
    backends.push(backend);
  });

  it("turns a tool-choice request into exactly one schema-valid tool call", async () => {
    const backend = local();
    const both = await collect(
      backend,
      request({ tools: [newAnswer, vote], toolChoice: "required" }),
    );
    expectValidToolCall(both, [newAnswer, vote]);
    const voteOnly = await collect(backend, request({ tools: [vote], toolChoice: "required" }));
    expect(expectValidToolCall(voteOnly, [vote])).toBe("vote");
    const answerOnly = await collect(
      backend,
      request({ tools: [newAnswer], toolChoice: "required" }),
    );
    expect(expectValidToolCall(answerOnly, [newAnswer])).toBe("new_answer");
  });

  it("follows richer input schemas: nested objects, arrays, unions, optional properties", async () => {
    const tool: ToolSpec = {
      name: "write_file",
      description: "Write a file.",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", maxLength: 12 },
          mode: { anyOf: [{ const: "create" }, { const: "append" }] },
          lines: { type: "array", items: { type: "string" }, maxItems: 2 },
          options: {
            type: "object",
            properties: { overwrite: { type: "boolean" }, retries: { type: "integer" } },
          },
          note: { type: ["string", "null"] },
          comment: { type: "string", description: "optional, so never generated" },
        },
        required: ["path", "mode", "lines", "options", "note"],
      },
    };
    const chunks = await collect(local(), request({ tools: [tool], toolChoice: "required" }));
    const call = chunks.find((chunk) => chunk.type === "tool-call");
    expect(finishOf(chunks).finishReason).toBe("tool-calls");
    expect(call?.toolName).toBe("write_file");
    const input = call?.input as Record<string, unknown>;
    expect(Object.keys(input).sort()).toEqual(["lines", "mode", "note", "options", "path"]);
    expect(typeof input.path === "string" && input.path.length <= 12).toBe(true);
    expect(["create", "append"]).toContain(input.mode);
    expect(Array.isArray(input.lines) && input.lines.length <= 2).toBe(true);
    expect((input.lines as unknown[]).every((line) => typeof line === "string")).toBe(true);
    const options = input.options as Record<string, unknown>;
    expect(Object.keys(options).sort()).toEqual(["overwrite", "retries"]);
    expect(typeof options.overwrite).toBe("boolean");
    expect(Number.isInteger(options.retries)).toBe(true);
    expect(input.note === null || typeof input.note === "string").toBe(true);
  });

  it("with toolChoice auto, gives either one schema-valid tool call or a plain reply", async () => {
    const chunks = await collect(
      local(),
      request({ tools: [newAnswer, vote], toolChoice: "auto" }),
    );
    const finish = finishOf(chunks);
    if (finish.finishReason === "tool-calls") {
      expectValidToolCall(chunks, [newAnswer, vote]);
    } else {
      // The reply's text, not its JSON wrapper.
      const text = chunks.map((chunk) => (chunk.type === "text-delta" ? chunk.text : "")).join("");
      expect(text.startsWith('{"reply"')).toBe(false);
      expect(chunks.some((chunk) => chunk.type === "tool-call")).toBe(false);
    }
  });

  it("says which key to raise when the tools do not fit the context", async () => {
    const wordy: ToolSpec = {
      name: "read_file",
      description: "Read a file. ".repeat(300),
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    };
    const error = await collect(
      local({ context_size: 512 }),
      request({ tools: [newAnswer, wordy], toolChoice: "required" }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BackendError);
    expect((error as Error).message).toMatch(
      /the system prompt with its 2 tools takes \d+ tokens, more than context_size 512 leaves .*raise `context_size`/,
    );
  });

  it("still completes a tool call when the output cap is below the JSON's own size", async () => {
    // The skeleton of a vote call alone is about 60 tokens: strings get a minimum length and the
    // cap is raised to fit them.
    const backend = local({ max_tokens: 16 });
    const chunks = await collect(
      backend,
      request({ tools: [newAnswer, vote], toolChoice: "required" }),
    );
    expectValidToolCall(chunks, [newAnswer, vote]);
    expect(finishOf(chunks).usage.outputTokens).toBeLessThan(256);
  });

  it("renders tool calls and tool results from the history", async () => {
    const backend = local();
    const chunks = await collect(
      backend,
      request({
        messages: [
          { role: "user", content: "Once upon a time, what did the little cat find?" },
          {
            role: "assistant",
            content: "",
            toolCalls: [{ toolCallId: "c1", toolName: "vote", input: { agent_id: "agent3" } }],
          },
          {
            role: "tool",
            toolCallId: "c1",
            toolName: "vote",
            content: "agent3 has no answer",
            isError: true,
          },
          { role: "user", content: "Vote again." },
        ],
        tools: [newAnswer, vote],
        toolChoice: "required",
      }),
    );
    expectValidToolCall(chunks, [newAnswer, vote]);
  });

  it("streams plain text with usage when no tools are offered", async () => {
    const backend = local({ max_tokens: 64 });
    const chunks = await collect(backend, request());
    const deltas = chunks.filter((chunk) => chunk.type === "text-delta");
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.every((delta) => delta.text.length > 0)).toBe(true);
    expect(chunks.some((chunk) => chunk.type === "tool-call")).toBe(false);
    const finish = finishOf(chunks);
    expect(["stop", "length"]).toContain(finish.finishReason);
    expect(finish.usage.inputTokens).toBeGreaterThan(10);
    expect(finish.usage.outputTokens).toBeGreaterThan(0);
    expect(finish.usage.outputTokens).toBeLessThanOrEqual(64);
    expect(finish.usage.reasoningTokens).toBe(0);
  });

  it("reports the reused prompt prefix as cached input on the next call", async () => {
    const backend = local({ max_tokens: 16 });
    const first = finishOf(await collect(backend, request()));
    const second = finishOf(
      await collect(
        backend,
        request({
          messages: [...request().messages, { role: "assistant", content: "A ball." }],
        }),
      ),
    );
    expect(first.usage.cachedInputTokens).toBe(0);
    expect(second.usage.cachedInputTokens).toBeGreaterThan(10);
    expect(second.usage.cachedInputTokens).toBeLessThan(second.usage.inputTokens);
  });

  it("completes two concurrent calls on one backend and one on another", async () => {
    const first = local({ max_tokens: 32 });
    const second = local({ max_tokens: 32 });
    const results = await Promise.all([
      collect(first, request()),
      collect(first, request({ tools: [newAnswer, vote], toolChoice: "required" })),
      collect(second, request({ tools: [vote], toolChoice: "required" })),
    ]);
    expect(finishOf(results[0]).usage.outputTokens).toBeGreaterThan(0);
    expectValidToolCall(results[1], [newAnswer, vote]);
    expectValidToolCall(results[2], [vote]);
  });

  it("drops the oldest turns when the history does not fit the context", async () => {
    const backend = local({ context_size: 512, max_tokens: 32 });
    const story = "The little cat found a red ball in the garden and played all day. ";
    const messages: ModelRequest["messages"] = [];
    for (let turn = 0; turn < 12; turn++) {
      messages.push({ role: "user", content: `${turn}: ${story.repeat(3)}` });
      messages.push({ role: "assistant", content: story });
    }
    messages.push({ role: "user", content: "What happened next?" });
    const finish = finishOf(await collect(backend, request({ messages })));
    expect(finish.usage.inputTokens).toBeGreaterThan(100);
    expect(finish.usage.inputTokens).toBeLessThanOrEqual(512 - 32);
  });

  it("aborts a running generation with the signal's AbortError", async () => {
    const backend = local({ max_tokens: 1000 });
    const controller = new AbortController();
    const chunks: BackendChunk[] = [];
    const run = async () => {
      for await (const chunk of backend.stream(request(), { signal: controller.signal })) {
        chunks.push(chunk);
        controller.abort();
      }
    };
    await expect(run()).rejects.toMatchObject({ name: "AbortError" });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.some((chunk) => chunk.type === "finish")).toBe(false);

    const aborted = AbortSignal.abort();
    await expect(collect(backend, request(), aborted)).rejects.toMatchObject({
      name: "AbortError",
    });
    // The backend still works after an abort.
    const after = finishOf(await collect(backend, request({ maxOutputTokens: 8 })));
    expect(after.usage.outputTokens).toBeGreaterThan(0);
    expect(after.usage.outputTokens).toBeLessThanOrEqual(8);
  });

  it("refuses calls after close()", async () => {
    const backend = local({ max_tokens: 8 });
    finishOf(await collect(backend, request()));
    await backend.close?.();
    await expect(collect(backend, request())).rejects.toBeInstanceOf(BackendError);
  });
});
