/**
 * The scorers on real GSM8K lines (../shared/data/gsm8k/test.jsonl, the test split of Cobbe et
 * al. 2021) and on the answer styles models write: a worked solution, "The answer is $1,234.",
 * "**Answer:** 18 dollars", `\boxed{}`, negative numbers; and the exact, regex and judge rules.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { ConfigError } from "../errors.js";
import { parseVerdict } from "./judge.js";
import { finalNumber, gsm8kReference } from "./numbers.js";
import { answerSpan, createScorer, type EvalItem, normalizeText } from "./scorers.js";

const GSM8K = fileURLToPath(new URL("../../../shared/data/gsm8k/test.jsonl", import.meta.url));
const lines = readFileSync(GSM8K, "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");
/** The item on a 1-based line of the real file. */
function gsm8k(line: number): EvalItem {
  const { question, answer } = JSON.parse(lines[line - 1]!) as { question: string; answer: string };
  return { id: String(line), line, question, answer };
}

describe("gsm8k scorer on the real test split", () => {
  const scorer = createScorer({ name: "gsm8k" });

  test("every one of the 1,319 lines has a reference number", () => {
    expect(lines).toHaveLength(1319);
    for (const [index] of lines.entries()) {
      const item = gsm8k(index + 1);
      expect(() => scorer.check(item, GSM8K)).not.toThrow();
      expect(gsm8kReference(item.answer)).toBeTypeOf("number");
    }
  });

  test.each([
    [1, "18"],
    [2, "3"],
    [3, "70000"],
    [202, "114200"],
    [490, "-10"],
  ])("line %i: reference %s; its own worked solution scores right", (line, reference) => {
    const item = gsm8k(line);
    expect(scorer.reference(item)).toBe(reference);
    expect(scorer.correct!(item.answer, item)).toBe(true);
    // The worked solution without its '####' line still ends on the answer.
    const solution = item.answer.slice(0, item.answer.lastIndexOf("####")).trim();
    expect(scorer.key(solution)).toBe(reference);
    expect(scorer.correct!(solution, item)).toBe(true);
  });

  test("answer styles models write", () => {
    const janet = gsm8k(1); // 18
    const right = [
      "She sells 16 - 3 - 4 = 9 eggs and makes 9 * 2 = $18.",
      "The answer is $18.",
      "**Answer:** 18 dollars",
      "Final answer: \\boxed{18}",
      "She makes $18.00 every day.",
      "The answer is 18. Check: 9 eggs × $2 = $18, and 16 − 7 = 9.",
      "#### 18",
    ];
    for (const answer of right) expect(scorer.correct!(answer, janet), answer).toBe(true);
    const wrong = [
      "She makes $20 every day.",
      "The answer is 9 eggs; at $2 each that is 18 dollars... no wait, the answer is 16.",
      "I cannot tell.",
    ];
    for (const answer of wrong) expect(scorer.correct!(answer, janet), answer).toBe(false);
    expect(scorer.correct!(null, janet)).toBe(false);
    expect(scorer.key("I cannot tell.")).toBeNull();

    const house = gsm8k(3); // 70000
    expect(scorer.correct!("So he made a profit of $70,000.", house)).toBe(true);
    expect(scorer.correct!("The profit is 200,000-130,000 = 70,000 dollars", house)).toBe(true);
    const award = gsm8k(202); // 114200
    expect(scorer.correct!("He made $114,200 that year.", award)).toBe(true);
    const cold = gsm8k(490); // -10
    expect(scorer.correct!("The average is (-48 + 21 - 3) / 3 = -10 degrees.", cold)).toBe(true);
    expect(scorer.correct!("The average is 10 degrees below... I mean 10.", cold)).toBe(false);
  });

  test("a line without '####' is refused before anything runs, naming the file and line", () => {
    const item: EvalItem = { id: "7", line: 7, question: "q", answer: "eighteen" };
    expect(() => scorer.check(item, "data.jsonl")).toThrow(ConfigError);
    expect(() => scorer.check(item, "data.jsonl")).toThrow(/data\.jsonl:7: .*--scorer/);
  });

  test("numbers: thousands, fractions, LaTeX, signs", () => {
    expect(finalNumber("3-4 apples")).toBe(4);
    expect(finalNumber("x2 and 7")).toBe(7);
    expect(finalNumber("\\boxed{\\frac{3}{4}}")).toBe(0.75);
    expect(finalNumber("the answer is that we add 3 and 4 to get 7")).toBe(7);
    expect(finalNumber("the answer is approximately 12.5 km")).toBe(12.5);
    expect(finalNumber("no digits here")).toBeUndefined();
  });
});

describe("exact scorer", () => {
  const scorer = createScorer({ name: "exact" });
  const item: EvalItem = { id: "1", line: 1, question: "Capital of France?", answer: "Paris" };

  test("normalises case, punctuation and articles", () => {
    expect(normalizeText("  The  Eiffel-Tower! ")).toBe("eiffel tower");
    expect(scorer.correct!("paris.", item)).toBe(true);
    expect(scorer.correct!("It is Paris, of course.", item)).toBe(false);
    expect(scorer.correct!("Let me think.\nFinal answer: Paris.", item)).toBe(true);
    expect(scorer.key("The answer is: The Paris")).toBe("paris");
    expect(answerSpan("no marker")).toBe("no marker");
  });
});

describe("regex scorer", () => {
  test("--pattern reads the answer (its first group); compared normalised", () => {
    const scorer = createScorer({ name: "regex", pattern: "/ANSWER:\\s*([A-D])/i" });
    const item: EvalItem = { id: "1", line: 1, question: "q", answer: "b" };
    expect(scorer.correct!("I considered A. answer: B", item)).toBe(true);
    expect(scorer.correct!("Answer: C. Then answer: B", item)).toBe(true); // the last match
    expect(scorer.correct!("ANSWER: A", item)).toBe(false);
    expect(scorer.key("nothing")).toBeNull();
  });

  test("without --pattern the reference is the pattern", () => {
    const scorer = createScorer({ name: "regex" });
    const item: EvalItem = { id: "1", line: 1, question: "q", answer: "/\\b(?:4|four)\\b/i" };
    expect(scorer.correct!("It is Four.", item)).toBe(true);
    expect(scorer.correct!("It is Four.", item)).toBe(true); // no lastIndex carried over
    expect(scorer.correct!("It is 14.", item)).toBe(false);
    const bad: EvalItem = { id: "2", line: 2, question: "q", answer: "(" };
    expect(() => scorer.check(bad, "data.jsonl")).toThrow(/data\.jsonl:2: .*regular expression/);
  });

  test("bad flags: a one-line error", () => {
    expect(() => createScorer({ name: "regex", pattern: "(" })).toThrow(ConfigError);
    expect(() => createScorer({ name: "exact", pattern: "x" })).toThrow(
      /--pattern goes with --scorer regex/,
    );
  });
});

describe("judge verdicts", () => {
  test.each([
    ["CORRECT", "correct"],
    ["INCORRECT", "incorrect"],
    ["The candidate says 18, the reference 18: correct.", "correct"],
    ["It is not correct.", "incorrect"],
    ["At first it looks correct, but it is INCORRECT", "incorrect"],
    ["I am not sure.", "unclear"],
  ])("%s → %s", (reply, verdict) => {
    expect(parseVerdict(reply)).toBe(verdict);
  });

  test("the judge scorer has no rule of its own: verdicts come from model calls", () => {
    expect(createScorer({ name: "judge" }).correct).toBeUndefined();
  });
});
