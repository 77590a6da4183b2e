import { describe, expect, it } from "vitest";
import { toCallArguments, toPrompt } from "./ai-sdk-request.js";
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

describe("toPrompt", () => {
  it("converts assistant tool calls and merges consecutive tool results", () => {
    const messages = toPrompt("You are agent1.", [
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
      { role: "system", content: "You are agent1." },
      { role: "user", content: [{ type: "text", text: "Q" }] },
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
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c3", toolName: "vote", input: {} }],
      },
    ]);
  });
});

describe("toCallArguments", () => {
  it("passes system, tools, tool choice and sampling settings", () => {
    const args = toCallArguments(request({ temperature: 0.3, maxOutputTokens: 500 }));
    expect(args.prompt[0]).toEqual({ role: "system", content: "You are agent1." });
    expect(args.tools).toEqual([
      {
        type: "function",
        name: "new_answer",
        description: "Submit an answer.",
        inputSchema: answerTool.inputSchema,
      },
    ]);
    expect(args.toolChoice).toEqual({ type: "required" });
    expect(args.temperature).toBe(0.3);
    expect(args.maxOutputTokens).toBe(500);
  });

  it("omits an empty system prompt, and tools with tool choice when none are offered", () => {
    const args = toCallArguments(request({ system: "", tools: [], toolChoice: "required" }));
    expect(args).toEqual({
      prompt: [{ role: "user", content: [{ type: "text", text: "What is 6 x 7?" }] }],
    });
  });
});
