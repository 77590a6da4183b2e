/**
 * The conclusion rule (./conclusions.ts): what groups answers for the tally.
 */
import { describe, expect, test } from "vitest";
import { conclusionOf, normalizeConclusion } from "./conclusions.js";

describe("conclusionOf", () => {
  test.each([
    ["#### 18", "18"],
    ["She sells 16 - 3 - 4 = 9 eggs.\nShe makes 9 * 2 = $18 every day.\n#### 18", "18"],
    ["Work…\nFinal answer: $1,200.50", "1200.5"],
    ["Work…\nThe answer is 18.0 km.", "18"],
    ["Work…\nSo the answer is (B).", "B"],
    ["Answer: option c", "C"],
    ["The total is \\boxed{\\frac{1}{2}}.", "\\frac{1}{2}"],
    ["Reasoning.\n**Paris**", "paris"],
    ['Work…\nThe answer is: "Marie Curie".', "marie curie"],
    ["2 + 2 = 4", "4"],
    ["4", "4"],
    ["-3", "-3"],
    ["The answer is 18\u200b.", "18"],
    ["#### １８", "18"],
    ["Answer: 𝟏𝟖", "18"],
    ["Work…\rThe answer is 18", "18"],
    ["(b)", "B"],
  ])("%j → %s", (content, expected) => {
    expect(conclusionOf(content)).toBe(expected);
  });

  test.each([
    ["Four"],
    ["done"],
    ["2+2=4 because two pairs make four"],
    ["A long essay.\nIt weighs several options and recommends the second one."],
    ["x".repeat(100)],
    ["Work…\nThe answer is " + "a very long sentence that goes on ".repeat(3)],
  ])("free-form: %j", (content) => {
    expect(conclusionOf(content)).toBeUndefined();
  });

  test("the agent's short_answer wins over extraction; an empty or overlong one does not", () => {
    expect(conclusionOf("The answer is 20.", "$18")).toBe("18");
    expect(conclusionOf("The answer is 20.", "  ")).toBe("20");
    expect(conclusionOf("The answer is 20.", "y".repeat(80))).toBe("20");
  });

  test("numbers are compared by value, words are not read as numbers", () => {
    expect(normalizeConclusion("18")).toBe(normalizeConclusion("$18.00"));
    expect(normalizeConclusion("1,000")).toBe("1000");
    expect(normalizeConclusion("0.50")).toBe("0.5");
    expect(normalizeConclusion("eighteen")).toBe("eighteen");
    expect(normalizeConclusion("**18**.")).toBe("18");
    expect(normalizeConclusion("$18$")).toBe("18");
  });
});
