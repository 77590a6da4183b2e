/**
 * Shared pieces of the provider backend tests (`src/backends/*.test.ts`): the workflow tools as
 * the engine offers them, a request builder, and a collector that keeps the chunks streamed before
 * an error. Imports nothing from vitest.
 */
import type { BackendChunk, ModelRequest, ToolSpec } from "../../src/backends/backend.js";

/** The `new_answer` workflow tool. */
export const answerTool: ToolSpec = {
  name: "new_answer",
  description: "Submit a new answer.",
  inputSchema: {
    type: "object",
    properties: { content: { type: "string" } },
    required: ["content"],
    additionalProperties: false,
  },
};

/** The `vote` workflow tool with two allowed ids. */
export const voteTool: ToolSpec = {
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

/** A `get_weather` tool, as in the providers' documented tool-use samples. */
export const weatherTool: ToolSpec = {
  name: "get_weather",
  description: "Get the current weather in a given location.",
  inputSchema: {
    type: "object",
    properties: { location: { type: "string" }, unit: { type: "string" } },
    required: ["location"],
  },
};

/** A workflow-round request (both workflow tools, `required`), with overrides. */
export function testRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are agent1 of a team.",
    messages: [{ role: "user", content: "What is 6 x 7?" }],
    tools: [answerTool, voteTool],
    toolChoice: "required",
    ...overrides,
  };
}

/** A conversation with a tool round trip, to check message conversion. */
export function toolRoundTripRequest(): ModelRequest {
  return testRequest({
    messages: [
      { role: "user", content: "What is 6 x 7?" },
      {
        role: "assistant",
        content: "Let me check.",
        toolCalls: [
          { toolCallId: "call_1", toolName: "get_weather", input: { location: "Paris" } },
        ],
      },
      { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "sunny" },
    ],
    tools: [answerTool, voteTool, weatherTool],
  });
}

/** Collects a stream's chunks; an error ends collection and is returned beside them. */
export async function collectChunks(
  stream: AsyncIterable<BackendChunk>,
): Promise<{ chunks: BackendChunk[]; error?: unknown }> {
  const chunks: BackendChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

/** Joined text of the chunks of one type (`text-delta` or `reasoning-delta`). */
export function joinedText(
  chunks: readonly BackendChunk[],
  type: "text-delta" | "reasoning-delta",
): string {
  return chunks.map((chunk) => (chunk.type === type ? chunk.text : "")).join("");
}

/** A fresh, never-aborted signal. */
export function neverAborted(): AbortSignal {
  return new AbortController().signal;
}
