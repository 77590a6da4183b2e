/**
 * The fake Anthropic server's own contract (shared with the `claude_code` tests): routes, the
 * non-streamed message object, errors, request recording.
 */
import { afterEach, describe, expect, test } from "vitest";
import {
  startFakeAnthropicServer,
  type FakeAnthropicServer,
} from "./support/fake-anthropic-server.js";

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server!.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "k" },
    body: JSON.stringify(body),
  });
}

describe("fake Anthropic server", () => {
  test("answers a non-streamed message, count_tokens and models; records requests", async () => {
    server = await startFakeAnthropicServer([
      {
        text: "Hi there",
        toolCalls: [
          { name: "vote", arguments: { agent_id: "agent1", reason: "best" }, id: "toolu_x" },
        ],
        usage: { inputTokens: 10, outputTokens: 4 },
      },
    ]);
    const response = await post("/v1/messages?beta=true", {
      model: "claude-fake",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(await response.json()).toEqual({
      id: "msg_fake01",
      type: "message",
      role: "assistant",
      model: "claude-fake",
      content: [
        { type: "text", text: "Hi there" },
        {
          type: "tool_use",
          id: "toolu_x",
          name: "vote",
          input: { agent_id: "agent1", reason: "best" },
        },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 4,
      },
    });
    const count = await post("/v1/messages/count_tokens", {
      messages: [{ role: "user", content: "hi" }],
    });
    expect(await count.json()).toEqual({ input_tokens: expect.any(Number) as number });
    const models = await fetch(`${server.url}/models`);
    expect(((await models.json()) as { data: unknown[] }).data).toHaveLength(1);
    expect(server.modelCalls()).toHaveLength(1);
    expect(server.modelCalls()[0]?.query).toEqual({ beta: "true" });
    expect(server.requests).toHaveLength(3);
    const recorded = await fetch(`${server.origin}/__requests`);
    expect(await recorded.json()).toHaveLength(3);
  });

  test("answers unknown routes and exhausted scripts with Anthropic error bodies", async () => {
    server = await startFakeAnthropicServer([]);
    const missing = await post("/v1/complete", {});
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      type: "error",
      error: { type: "not_found_error" },
    });
    const exhausted = await post("/v1/messages", { stream: true });
    expect(exhausted.status).toBe(500);
    expect(exhausted.headers.get("request-id")).toBe("req_fake01");
    expect(await exhausted.json()).toMatchObject({ type: "error", error: { type: "api_error" } });
  });

  test("streams the SSE event sequence with event names", async () => {
    server = await startFakeAnthropicServer([{ reasoning: "think", text: "a b" }]);
    const response = await post("/v1/messages", { stream: true, messages: [] });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = [...(await response.text()).matchAll(/^event: (\S+)$/gm)].map((m) => m[1]);
    expect(events).toEqual([
      "message_start",
      "ping",
      "content_block_start",
      "content_block_delta", // thinking "th"
      "content_block_delta", // "in"
      "content_block_delta", // "k"
      "content_block_delta", // signature
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });
});
