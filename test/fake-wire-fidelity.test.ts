/**
 * The fake servers' assembled streams against the recorded wire samples in
 * `test/fixtures/wire/<provider>/`: every kind of event a recorded stream contains, the fake
 * produces too, with at least the same fields (paths of keys). A fake that drifts from the
 * provider's format (a renamed field, a missing usage detail) fails here, not only when an SDK
 * update starts parsing strictly.
 */
import { afterEach, describe, expect, test } from "vitest";
import { startFakeAnthropicServer } from "./support/fake-anthropic-server.js";
import { startFakeAzureServer } from "./support/fake-azure-server.js";
import { startFakeGeminiServer } from "./support/fake-gemini-server.js";
import { parseSse, readWireFixture } from "./support/fake-http.js";
import type { FakeReply } from "./support/fake-openai-server.js";
import { isRecord } from "./support/fake-openai/wire-helpers.js";
import { startFakeXaiServer } from "./support/fake-xai-server.js";

/** Key paths of a JSON value, arrays as `[]`, e.g. `message.usage.input_tokens`. */
function keyPaths(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) {
    return value.flatMap((entry) => keyPaths(entry, `${prefix}[]`));
  }
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, entry]) => {
    const path = prefix === "" ? key : `${prefix}.${key}`;
    return [path, ...keyPaths(entry, path)];
  });
}

/** Events of an SSE body as JSON (the `[DONE]` sentinel kept as a string). */
function events(sse: string): unknown[] {
  return parseSse(sse).map((event) =>
    typeof event.data === "string" && event.data !== "[DONE]"
      ? (JSON.parse(event.data) as unknown)
      : event.data,
  );
}

/**
 * Checks that for every event kind in `recorded`, the assembled stream has events of that kind
 * carrying every recorded key path.
 */
function expectCovers(
  recorded: readonly unknown[],
  assembled: readonly unknown[],
  kindOf: (event: unknown) => string,
  ignore: RegExp = /^$/,
): void {
  const assembledPaths = new Map<string, Set<string>>();
  for (const event of assembled) {
    const paths = assembledPaths.get(kindOf(event)) ?? new Set<string>();
    for (const path of keyPaths(event)) paths.add(path);
    assembledPaths.set(kindOf(event), paths);
  }
  for (const event of recorded) {
    const kind = kindOf(event);
    const have = assembledPaths.get(kind);
    expect(have, `the fake never sends a "${kind}" event`).toBeDefined();
    const missing = keyPaths(event).filter((path) => !have!.has(path) && !ignore.test(path));
    expect(missing, `fields of "${kind}" the fake leaves out`).toEqual([]);
  }
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The raw SSE body a fake sends for `reply` to `path` with `body`. */
async function assembledStream(
  start: (replies: FakeReply[]) => Promise<{ origin: string; close(): Promise<void> }>,
  reply: FakeReply,
  path: string,
  body: Record<string, unknown>,
): Promise<unknown[]> {
  const server = await start([reply]);
  closers.push(() => server.close());
  const response = await fetch(`${server.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return events(await response.text());
}

const USAGE = { inputTokens: 25, outputTokens: 15, reasoningTokens: 0, cachedInputTokens: 0 };
const CALL = { name: "get_weather", arguments: { location: "San Francisco, CA" } };

describe("assembled streams cover the recorded samples", () => {
  test("anthropic: text, tool use, thinking", async () => {
    const kind = (event: unknown) => {
      if (!isRecord(event)) return String(event);
      const block = isRecord(event.content_block) ? `:${String(event.content_block.type)}` : "";
      const delta =
        isRecord(event.delta) && event.type === "content_block_delta"
          ? `:${String(event.delta.type)}`
          : "";
      return `${String(event.type)}${block}${delta}`;
    };
    const cases: [string, FakeReply][] = [
      ["text.sse", { text: "Hello!", usage: USAGE }],
      ["tool-use.sse", { text: "Okay, let's check.", toolCalls: [CALL], usage: USAGE }],
      ["thinking.sse", { reasoning: "GCD is 21.", text: "21", usage: USAGE }],
    ];
    for (const [fixture, reply] of cases) {
      const assembled = await assembledStream(startFakeAnthropicServer, reply, "/v1/messages", {
        model: "claude-sonnet-4-5-20250929",
        stream: true,
        messages: [],
      });
      expectCovers(events(readWireFixture("anthropic", fixture)), assembled, kind);
    }
  });

  test("gemini: text, thinking, function call", async () => {
    const kind = (event: unknown) => {
      if (!isRecord(event) || !Array.isArray(event.candidates)) return "other";
      const candidate = isRecord(event.candidates[0]) ? event.candidates[0] : {};
      const parts =
        isRecord(candidate.content) && Array.isArray(candidate.content.parts)
          ? candidate.content.parts
          : [];
      const part = isRecord(parts[0]) ? parts[0] : {};
      const what = "functionCall" in part ? "call" : part.thought === true ? "thought" : "text";
      return `${what}${candidate.finishReason !== undefined ? ":final" : ""}`;
    };
    const cases: [string, FakeReply][] = [
      ["text.sse", { text: "The quick brown fox.", usage: USAGE }],
      [
        "thinking.sse",
        { reasoning: "6 by 7.", text: "42", usage: { ...USAGE, reasoningTokens: 8 } },
      ],
      ["function-call.sse", { toolCalls: [CALL], usage: { ...USAGE, reasoningTokens: 8 } }],
    ];
    for (const [fixture, reply] of cases) {
      const assembled = await assembledStream(
        startFakeGeminiServer,
        reply,
        "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
        { contents: [] },
      );
      // The fake puts the function call in its own chunk and the finish reason (with the full
      // usage) in the next; the recorded sample has both in one.
      expectCovers(
        events(readWireFixture("gemini", fixture)),
        assembled,
        (event) => kind(event).replace(/^call:final$/, "call"),
        /^candidates\[\]\.finishReason$|usageMetadata\.(candidatesTokenCount|promptTokensDetails|thoughtsTokenCount)/,
      );
    }
  });

  test("xai: reasoning and a whole tool call", async () => {
    const kind = (event: unknown) => {
      if (!isRecord(event) || !Array.isArray(event.choices)) return String(event);
      const choice = isRecord(event.choices[0]) ? event.choices[0] : {};
      const delta = isRecord(choice.delta) ? choice.delta : {};
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) return "finish";
      return Object.keys(delta)
        .filter((key) => key !== "role")
        .sort()
        .join("+");
    };
    const cases: [string, FakeReply][] = [
      ["reasoning.sse", { reasoning: "First, 101 x 3.", text: "303", usage: USAGE }],
      ["tool-call.sse", { toolCalls: [CALL], usage: USAGE }],
    ];
    for (const [fixture, reply] of cases) {
      const assembled = await assembledStream(startFakeXaiServer, reply, "/v1/chat/completions", {
        model: "grok-3-mini",
        stream: true,
        messages: [],
      });
      // Tool-call `index` is not in xAI's schema; the recorded sample happens to carry it.
      expectCovers(
        events(readWireFixture("xai", fixture)),
        assembled,
        kind,
        /\.tool_calls\[\]\.index$/,
      );
    }
  });

  test("azure: chat text and a tool call with Azure's filter annotations", async () => {
    const kind = (event: unknown) => {
      if (!isRecord(event)) return String(event);
      if ("prompt_filter_results" in event) return "prompt-filter";
      if (!Array.isArray(event.choices) || event.choices.length === 0) return "usage";
      const choice = isRecord(event.choices[0]) ? event.choices[0] : {};
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) return "finish";
      const delta = isRecord(choice.delta) ? choice.delta : {};
      return "tool_calls" in delta ? "tool" : "content";
    };
    const cases: [string, FakeReply][] = [
      ["chat-text.sse", { text: "Azure says hello.", usage: USAGE }],
      ["chat-tool-call.sse", { toolCalls: [CALL], usage: USAGE }],
    ];
    for (const [fixture, reply] of cases) {
      const assembled = await assembledStream(
        startFakeAzureServer,
        reply,
        "/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
        { stream: true, stream_options: { include_usage: true }, messages: [] },
      );
      // The fake announces the role (with empty content) in its own first chunk; Azure may put
      // it on the first tool-call chunk instead. Both parse the same.
      expectCovers(
        events(readWireFixture("azure", fixture)),
        assembled,
        kind,
        /^choices\[\]\.delta\.(role|content|refusal)$/,
      );
    }
  });
});
