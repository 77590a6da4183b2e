/**
 * The local model's JSON choices: the plain-reply choice offered with `toolChoice: auto` (a
 * presenter with file tools may write its final answer instead of calling a tool).
 */
import { describe, expect, test } from "vitest";
import type { ToolSpec } from "./backend.js";
import {
  describeTools,
  parseReply,
  parseToolChoice,
  replyChoiceSchema,
  toolChoiceSchema,
} from "./local-grammar.js";

const readFile: ToolSpec = {
  name: "read_file",
  description: "Read a file.",
  inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

describe("the plain-reply choice", () => {
  test("is offered in the prompt after the tools and parsed back as text, never as a call", () => {
    const reply = replyChoiceSchema(64);
    expect(reply).toEqual({
      type: "object",
      properties: { reply: { type: "string", maxLength: 48 } },
      additionalProperties: false,
    });
    const choice = toolChoiceSchema(readFile, 64).schema;
    const prompt = describeTools([readFile], [choice, reply], reply);
    expect(prompt.split("\n").slice(-2)).toEqual([
      "- or answer without a tool:",
      '  {"reply": string (at most 48 characters)}',
    ]);
    expect(parseReply('{"reply": "The final answer."}')).toBe("The final answer.");
    expect(parseToolChoice('{"reply": "The final answer."}', [readFile])).toBeUndefined();
    expect(parseReply('{"tool": "read_file", "arguments": {"path": "a"}}')).toBeUndefined();
    expect(parseReply('{"reply": "cut off')).toBeUndefined();
  });

  test("is absent without toolChoice auto", () => {
    const choice = toolChoiceSchema(readFile, 64).schema;
    expect(describeTools([readFile], [choice])).not.toContain("without a tool");
  });
});

describe("a grammar reply cut off by the output cap", () => {
  test("is mended into a call of an offered tool and marked repaired", () => {
    expect(
      parseToolChoice('{"tool": "read_file", "arguments": {"path": "notes/a', [readFile]),
    ).toEqual({ toolName: "read_file", input: { path: "notes/a" }, repaired: true });
    expect(
      parseToolChoice('{"tool": "read_file", "arguments": {"path": "a"}}', [readFile]),
    ).toEqual({ toolName: "read_file", input: { path: "a" } });
  });

  test("is no call when the cut fell inside the tool's name", () => {
    expect(parseToolChoice('{"tool": "read_fi', [readFile])).toBeUndefined();
  });
});
