import { describe, expect, it } from "vitest";
import { toModelMessages, toStreamTextArguments } from "./ai-sdk-request.js";
import type { ModelRequest } from "./backend.js";

const answerTool = {
  name: "new_answer",
  description: "Submit an answer.",
  inputSchema: {
    type: "object",
    properties: { content: { type: "string" } },
    required: ["content"],
    additionalProperties: false,
  },
};

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: "You are agent1.",
    messages: [{ role: "user", content: "What is 6 x 7?" }],
    tools: [answerTool],
    toolChoice: "required",
    ...overrides,
  };
}

describe("toModelMessages", () => {
  it("converts assistant tool calls and merges consecutive tool results", () => {
    const messages = toModelMessages([
      { role: "user", content: "Q" },
      {
        role: "assistant",
        content: "Let me check.",
        toolCalls: [
          { toolCallId: "c1", toolName: "read_file", input: { path: "a" } },
          { toolCallId: "c2", toolName: "read_file", input: { path: "b" } },
        ],
      },
      { role: "tool", toolCallId: "c1", toolName: "read_file", content: "A" },
      {
        role: "tool",
        toolCallId: "c2",
        toolName: "read_file",
        content: "no such file",
        isError: true,
      },
      { role: "assistant", content: "Done." },
      {
        role: "assistant",
        content: "",
        toolCalls: [{ toolCallId: "c3", toolName: "vote", input: {} }],
      },
    ]);
    expect(messages).toEqual([
      { role: "user", content: "Q" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me check." },
          { type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "a" } },
          { type: "tool-call", toolCallId: "c2", toolName: "read_file", input: { path: "b" } },
        ],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "read_file",
            output: { type: "text", value: "A" },
          },
          {
            type: "tool-result",
            toolCallId: "c2",
            toolName: "read_file",
            output: { type: "error-text", value: "no such file" },
          },
        ],
      },
      { role: "assistant", content: "Done." },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c3", toolName: "vote", input: {} }],
      },
    ]);
  });
});

describe("toStreamTextArguments", () => {
  it("passes system, tools, tool choice and sampling settings", () => {
    const args = toStreamTextArguments(request({ temperature: 0.3, maxOutputTokens: 500 }));
    expect(args.system).toBe("You are agent1.");
    expect(Object.keys(args.tools ?? {})).toEqual(["new_answer"]);
    expect(args.tools?.new_answer).not.toHaveProperty("execute");
    expect(args.toolChoice).toBe("required");
    expect(args.temperature).toBe(0.3);
    expect(args.maxOutputTokens).toBe(500);
  });

  it("omits an empty system prompt, and tools with tool choice when none are offered", () => {
    const args = toStreamTextArguments(request({ system: "", tools: [], toolChoice: "required" }));
    expect(args).toEqual({ messages: [{ role: "user", content: "What is 6 x 7?" }] });
  });
});
