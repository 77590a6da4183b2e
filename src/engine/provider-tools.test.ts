/**
 * Tools the provider runs itself (web search, code execution) reach the log as `tool-call` /
 * `tool-result` events, and the engine neither runs them nor takes them as workflow calls — even
 * when one is named like a workflow tool.
 */
import { describe, expect, it } from "vitest";
import type { Backend, BackendChunk, ModelRequest } from "../backends/backend.js";
import { createVirtualClock } from "../clock.js";
import type { CoordEvent } from "../events/events.js";
import { runCoordination } from "./run.js";
import { DEFAULT_SETTINGS, trace } from "./test-helpers.js";

const USAGE = { inputTokens: 10, outputTokens: 5, reasoningTokens: 0, cachedInputTokens: 0 };

/** A backend that plays the given chunk lists, one per call, and records the requests. */
function playing(calls: BackendChunk[][]): Backend & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    type: "fake",
    model: "fake",
    requests,
    async *stream(request) {
      requests.push(request);
      const chunks = calls[requests.length - 1];
      if (chunks === undefined) throw new Error(`unexpected call ${requests.length}`);
      for (const chunk of chunks) yield chunk;
      await Promise.resolve();
    },
  };
}

describe("provider-executed tools", () => {
  it("are logged as tool-call/tool-result and never taken as workflow calls", async () => {
    const backend = playing([
      [
        {
          type: "provider-tool-call",
          toolCallId: "srv_1",
          toolName: "web_search",
          input: { query: "2+2" },
        },
        {
          type: "provider-tool-result",
          toolCallId: "srv_1",
          toolName: "web_search",
          output: [{ url: "https://example.com", title: "Math" }],
          isError: false,
        },
        // Named like a workflow tool, but run by the provider: must not count as a vote.
        { type: "provider-tool-call", toolCallId: "srv_2", toolName: "vote", input: {} },
        { type: "text-delta", text: "Searching done." },
        {
          type: "tool-call",
          toolCallId: "call_1",
          toolName: "new_answer",
          input: { content: "4" },
        },
        { type: "finish", finishReason: "tool-calls", usage: USAGE },
      ],
      [
        {
          type: "tool-call",
          toolCallId: "call_2",
          toolName: "vote",
          input: { agent_id: "agent1", reason: "correct" },
        },
        { type: "finish", finishReason: "tool-calls", usage: USAGE },
      ],
      [
        { type: "text-delta", text: "4" },
        { type: "finish", finishReason: "stop", usage: USAGE },
      ],
    ]);
    const events: CoordEvent[] = [];
    for await (const event of runCoordination({
      runId: "run_test",
      question: "What is 2+2?",
      mode: "voting",
      orchestratorTimeoutMs: 60_000,
      clock: createVirtualClock(),
      settings: DEFAULT_SETTINGS,
      agents: [{ id: "solo", backend }],
    })) {
      events.push(event);
    }
    const lines = trace(events);
    expect(lines).toEqual(
      expect.arrayContaining([
        "solo tool-call web_search",
        "solo tool-result web_search",
        "solo tool-call vote",
        "solo answer agent1.1",
      ]),
    );
    expect(lines.indexOf("solo tool-call web_search")).toBeLessThan(
      lines.indexOf("solo tool-result web_search"),
    );
    const result = events.find((event) => event.type === "tool-result");
    expect(result).toMatchObject({
      toolCallId: "srv_1",
      output: '[{"url":"https://example.com","title":"Math"}]',
      isError: false,
    });
    expect(events.filter((event) => event.type === "workflow-invalid")).toEqual([]);
    // The only vote is the real workflow call of the second round.
    expect(events.filter((event) => event.type === "vote")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    // Answer, vote, presentation: the engine never looped back to "return" the provider's results.
    expect(backend.requests).toHaveLength(3);
    expect(JSON.stringify(backend.requests[1]?.messages)).not.toContain("srv_1");
  });
});
