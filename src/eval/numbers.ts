/**
 * Numbers in text, for the GSM8K scorer (docs/eval.md "Scorers"): the reference is the number
 * after `####` (Cobbe et al. 2021, arXiv:2110.14168, the data's own format); a model's answer is
 * read for its *final* number, robustly: an explicit `#### N`, `\boxed{N}`, or "the answer is N"
 * / "Answer: N" marker wins, else the last number in the text. Thousands separators, currency
 * signs, percent signs, units and trailing full stops are ignored (`$1,234.50.` → 1234.5).
 */

/**
 * One number: an optional sign, digits with optional thousands groups, an optional decimal part,
 * or a fraction `a/b`. The sign counts only at the start, after a space or an opening bracket,
 * or after `= : < > * + / ×` (so `3-4` is 3 and 4, not 3 and −4, while `=-10` is −10); a number
 * glued to letters on its left (`x2`) is not one.
 */
const NUMBER =
  /(?<![\p{L}\d.,])(?:(?<=^|[\s([{=:$<>*+/×])-)?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s*\/\s*\d+(?:\.\d+)?)?/gu;

/** Markers after which the final answer follows (the last one in the text counts). */
const ANSWER_MARKERS = [
  /####\s*/g,
  /\\boxed\s*\{/g,
  /(?:final answer|the answer|answer)\s*(?:is|=|:)\s*(?:\*\*)?\s*/gi,
];

/**
 * The value of one number as written (`-1,234.5`, `$18`, `3/4`), or undefined when it is not one.
 * @param text the number's text, as matched by the scanner.
 */
export function parseNumber(text: string): number | undefined {
  const cleaned = text.replace(/[$,\s]/g, "");
  const fraction = /^(-?\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/.exec(cleaned);
  if (fraction) {
    const denominator = Number(fraction[2]);
    return denominator === 0 ? undefined : Number(fraction[1]) / denominator;
  }
  const value = Number(cleaned);
  return Number.isFinite(value) && cleaned !== "" ? value : undefined;
}

/** LaTeX `\frac{a}{b}` (and `\dfrac`) written as `a/b`. */
function plainFractions(text: string): string {
  return text.replace(/\\d?frac\s*\{\s*([^{}]+?)\s*\}\s*\{\s*([^{}]+?)\s*\}/g, "$1/$2");
}

/** Every number in `text`, in order. LaTeX `\frac{a}{b}` counts as `a/b`. */
export function numbersIn(text: string): number[] {
  const values: number[] = [];
  for (const match of plainFractions(text).matchAll(NUMBER)) {
    const value = parseNumber(match[0]);
    if (value !== undefined) values.push(value);
  }
  return values;
}

/**
 * What may stand between an answer marker and its number: no letters or digits (`**`, `$`, `:`,
 * spaces), except one hedge word ("the answer is approximately 18").
 */
const MARKER_GAP =
  /^[^\p{L}\d]{0,12}(?:(?:about|approximately|roughly|exactly|just|only)[^\p{L}\d]{0,6})?$/iu;

/** The number right after position `from`, when only {@link MARKER_GAP} comes before it. */
function numberAfter(text: string, from: number): number | undefined {
  const window = plainFractions(text.slice(from, from + 80));
  for (const match of window.matchAll(NUMBER)) {
    return MARKER_GAP.test(window.slice(0, match.index)) ? parseNumber(match[0]) : undefined;
  }
  return undefined;
}

/**
 * The reference answer of a GSM8K line: the number after the last `####`.
 * @returns undefined when there is no `####` followed by a number.
 */
export function gsm8kReference(answer: string): number | undefined {
  const at = answer.lastIndexOf("####");
  if (at < 0) return undefined;
  return numbersIn(answer.slice(at + 4))[0];
}

/**
 * The final number of a model's answer: the first number after the last answer marker
 * (`#### N`, `\boxed{N}`, "the answer is N", "Final answer: N"), else the last number in the text.
 * @returns undefined when the text holds no number.
 */
export function finalNumber(text: string): number | undefined {
  let best: { end: number; value: number } | undefined;
  for (const marker of ANSWER_MARKERS) {
    for (const match of text.matchAll(marker)) {
      const end = match.index + match[0].length;
      // A marker counts only when a number follows it closely ("the answer is 18", not "the
      // answer is that we add 3 and 4").
      const value = numberAfter(text, end);
      if (value !== undefined && (best === undefined || end > best.end)) best = { end, value };
    }
  }
  return best?.value ?? numbersIn(text).at(-1);
}

/** Two numbers are the same answer when they agree to 1e-6 (relative, or absolute near 0). */
export function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** A number written canonically (`18`, `0.5`, `-3`), the key majority voting counts. */
export function canonicalNumber(value: number): string {
  const rounded = Math.round(value * 1e6) / 1e6;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}
