/**
 * Tool-call arguments as models really send them: valid JSON passes as is,
 * empty arguments read as `{}`, cut-off or sloppy JSON is mended by `jsonrepair` and marked
 * `repaired`, and what no repair reads as an object is passed on as the raw text with an
 * `inputError` for the engine to report as malformed JSON.
 */
import { describe, expect, test } from "vitest";
import { parseToolInput } from "./tool-input.js";

describe("parseToolInput", () => {
  test("valid JSON is the input, with no note; empty arguments are {}", () => {
    expect(parseToolInput('{"content": "4"}')).toEqual({ input: { content: "4" } });
    expect(parseToolInput("")).toEqual({ input: {} });
    expect(parseToolInput("  \n")).toEqual({ input: {} });
  });

  test.each([
    ["cut off inside a string", '{"content": "The answer is 4', { content: "The answer is 4" }],
    [
      "cut off after a value",
      '{"agent_id": "agent1", "reason": "same"',
      { agent_id: "agent1", reason: "same" },
    ],
    ["cut off inside an array", '{"content": "4", "steps": [1, 2', { content: "4", steps: [1, 2] }],
    ["single quotes and bare keys", "{content: '4'}", { content: "4" }],
    ["a code fence around it", '```json\n{"content": "4"}\n```', { content: "4" }],
  ])("%s: repaired into an object", (_name, text, input) => {
    expect(parseToolInput(text)).toEqual({ input, repaired: true });
  });

  test("plain text is not taken for arguments: raw text and inputError", () => {
    expect(parseToolInput("Sure! The answer is 18.")).toEqual({
      input: "Sure! The answer is 18.",
      inputError:
        'the arguments are not a JSON object (read as a string): "Sure! The answer is 18."',
    });
  });

  test("two objects in a row cannot be repaired: raw text and inputError naming the JSON error", () => {
    const result = parseToolInput('{"content": "4"}{"content": "5"}');
    expect(result.input).toBe('{"content": "4"}{"content": "5"}');
    expect(result.repaired).toBeUndefined();
    expect(result.inputError).toMatch(/^the arguments are not valid JSON \(.+\): "\{/);
  });

  test("a long malformed text is quoted only in part", () => {
    const text = `not json ${"x".repeat(200)}`;
    const { inputError } = parseToolInput(text);
    expect(inputError).toContain(`"${text.slice(0, 80)}…"`);
  });
});
