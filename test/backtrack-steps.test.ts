/**
 * The step-counting matcher of test/support/backtrack-steps.ts: it finds the match the native
 * RegExp finds (the same pattern, not a look-alike), and its step count grows linearly for a
 * pattern that matches in linear time and quadratically for one that backtracks.
 */
import { describe, expect, test } from "vitest";
import { replayCall } from "./support/backtrack-steps.js";

const PATTERNS: Array<[string, string]> = [
  ["\\banswer\\b[^:]{0,20}?(?::|\\bis\\b:?)\\s*(.+)$", "i"],
  ["^\\*\\*(.+?)\\*\\*[.!]?$", ""],
  ["(?:^|\\s)=\\s*([^=]+)$", ""],
  ["^-?\\d+(?:\\.\\d+)?$", ""],
  ["^[*_`\"'“”‘’\\s]+|[*_`\"'“”‘’\\s]+$", "g"],
  ["^(?:option|choice)?\\s*\\(?([a-j])\\)?$", "i"],
  [
    "^(?:[$€£¥]|usd|eur|rs\\.?)?\\s*([-+−]?)\\s*(\\d{1,3}(?:[,\\u00a0 ]\\d{3})+|\\d+)?(\\.\\d+)?\\s*(?:%|[a-z]{1,12}(?:\\s[a-z]{1,12})?)?$",
    "i",
  ],
  ["\\r?\\n", ""],
  ["(?<word>\\w+)(?=!)|x(?!y)", ""],
  ["a{2,3}?b|\\x41\\u0042", "i"],
];

const INPUTS = [
  "The answer is 18.",
  "final ANSWER: (B)",
  "**$1,200.50**",
  "2 + 2 = 4",
  "  'quoted'  ",
  "option b",
  "$ -1,234.5 km",
  "€12 usd dollars",
  "line one\r\nline two\nthree",
  "hello! xy xz",
  "aaab AB aab",
  "answer is:",
  "",
];

describe("backtrack-steps", () => {
  test("finds the native RegExp's match for every pattern and input", () => {
    for (const [source, flags] of PATTERNS) {
      for (const input of INPUTS) {
        const native = new RegExp(source, flags).exec(input);
        const { match } = replayCall(source, flags, input, 0);
        expect(match, `/${source}/${flags} on ${JSON.stringify(input)}`).toEqual(
          native === null ? null : { index: native.index, end: native.index + native[0].length },
        );
      }
    }
  });

  test("a sticky pattern matches only at lastIndex; a global one searches from it", () => {
    expect(replayCall("b", "y", "abab", 0).match).toBeNull();
    expect(replayCall("b", "y", "abab", 1).match).toEqual({ index: 1, end: 2 });
    expect(replayCall("b", "g", "abab", 2).match).toEqual({ index: 3, end: 4 });
  });

  test("counts linear work as linear and backtracking as quadratic", () => {
    const ratio = (source: string, make: (n: number) => string) =>
      replayCall(source, "", make(2000), 0).steps / replayCall(source, "", make(500), 0).steps;
    expect(ratio("^a+$", (n) => "a".repeat(n))).toBeLessThan(4.1);
    expect(ratio("a+$", (n) => `${"a".repeat(n)}b`)).toBeGreaterThan(15);
    // Two overlapping quantifiers before a failing end: each split of the spaces is tried.
    expect(ratio("answer\\s*(.+)$", (n) => `answer${" ".repeat(n)}x\r`)).toBeGreaterThan(15);
  });

  test("refuses syntax it cannot count", () => {
    expect(() => replayCall("(?<=a)b", "", "ab", 0)).toThrow(/unsupported group/);
    expect(() => replayCall("\\p{L}", "u", "a", 0)).toThrow(/unsupported flags/);
    expect(() => replayCall("\\k<x>", "", "a", 0)).toThrow(/unsupported escape/);
  });
});
