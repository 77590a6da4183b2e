/**
 * The scorers of `coord eval` (docs/eval.md "Scorers"). Each reads a final answer for what it
 * says (its *key*: what majority voting counts and the report shows) and decides whether it is
 * right for the item:
 *
 * - `gsm8k`: the final number of the answer against the number after `####` in the reference
 *   (src/eval/numbers.ts);
 * - `exact`: normalised text (lower case, punctuation and the articles a/an/the dropped, spaces
 *   collapsed — the SQuAD normalisation) of the answer, or of what follows its last "Answer:" /
 *   "the answer is" marker, equal to the normalised reference;
 * - `regex`: with `--pattern RE`, the pattern's last match in the answer (its first group when it
 *   has one) equal to the reference after normalisation; without, the reference itself is a
 *   regular expression the answer must match;
 * - `judge`: a model from a config says CORRECT or INCORRECT (src/eval/judge.ts); its key is the
 *   `exact` key.
 */
import { ConfigError } from "../errors.js";
import { canonicalNumber, finalNumber, gsm8kReference, sameNumber } from "./numbers.js";

/** The scorers `--scorer` accepts. */
export const SCORER_NAMES = ["gsm8k", "exact", "regex", "judge"] as const;
export type ScorerName = (typeof SCORER_NAMES)[number];

/** One item of a data set: its id, question and reference answer. */
export interface EvalItem {
  /** The `--id-field` value, else the 1-based line number in the file. */
  id: string;
  /** 1-based line of the data file. */
  line: number;
  question: string;
  answer: string;
}

/** A scorer: reads answers and, unless it is the judge, decides correctness itself. */
export interface Scorer {
  name: ScorerName;
  /** One line for the report: what counts as correct. */
  description: string;
  /**
   * What the answer says, as compared and voted on (`"18"` for GSM8K, normalised text…), or
   * null when nothing can be read from it.
   */
  key(answer: string): string | null;
  /** The reference as the report shows it (`"18"` for GSM8K). */
  reference(item: EvalItem): string;
  /**
   * Whether a final answer (null: the run gave none) is right; undefined for the judge, whose
   * verdicts come from model calls.
   */
  correct: ((answer: string | null, item: EvalItem) => boolean) | undefined;
  /**
   * Checks an item before anything runs.
   * @throws ConfigError naming the data file line when the scorer cannot score it.
   */
  check(item: EvalItem, file: string): void;
}

/**
 * The SQuAD answer normalisation: lower case, punctuation and symbols and the articles a/an/the
 * removed, whitespace collapsed.
 */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, " ")
    .replace(/\b(?:a|an|the)\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** "Final answer: X", "The answer is X": the last such marker's rest of the line. */
const TEXT_ANSWER_MARKER = /(?:final answer|the answer is|answer)\s*[:=]?\s*/gi;

/** The part of an answer the `exact` scorer compares: after its last answer marker, else all. */
export function answerSpan(answer: string): string {
  let end = -1;
  for (const match of answer.matchAll(TEXT_ANSWER_MARKER)) end = match.index + match[0].length;
  if (end < 0) return answer;
  const rest = answer.slice(end).split("\n")[0] ?? "";
  return rest.trim() === "" ? answer : rest;
}

/**
 * A JavaScript regular expression from `/source/flags` or a bare source (no flags).
 * @throws SyntaxError for an invalid expression.
 */
export function parseRegex(text: string): RegExp {
  const literal = /^\/(.*)\/([dgimsuvy]*)$/s.exec(text);
  return literal ? new RegExp(literal[1]!, literal[2]) : new RegExp(text);
}

/** Options of {@link createScorer}. */
export interface ScorerOptions {
  name: ScorerName;
  /** `--pattern`: for `regex`, the expression that reads the answer. */
  pattern?: string | undefined;
}

/**
 * The scorer `--scorer` names.
 * @throws ConfigError for `--pattern` with a scorer other than `regex`, or an invalid pattern.
 */
export function createScorer(options: ScorerOptions): Scorer {
  if (options.pattern !== undefined && options.name !== "regex")
    throw new ConfigError(`--pattern goes with --scorer regex (not --scorer ${options.name})`);
  switch (options.name) {
    case "gsm8k":
      return gsm8kScorer();
    case "exact":
      return exactScorer();
    case "regex":
      return options.pattern === undefined
        ? referenceRegexScorer()
        : patternScorer(options.pattern);
    case "judge":
      return { ...exactScorer(), name: "judge", description: judgeDescription, correct: undefined };
  }
}

const judgeDescription =
  "judge: a model from --judge-config answers CORRECT or INCORRECT given the question, the reference and the answer";

function gsm8kScorer(): Scorer {
  return {
    name: "gsm8k",
    description:
      "gsm8k: the answer's final number (after a '####', '\\boxed{}' or 'the answer is' marker, else the last number) equals the number after '####' in the reference",
    key(answer) {
      const value = finalNumber(answer);
      return value === undefined ? null : canonicalNumber(value);
    },
    reference: (item) => {
      const value = gsm8kReference(item.answer);
      return value === undefined ? item.answer : canonicalNumber(value);
    },
    correct(answer, item) {
      const expected = gsm8kReference(item.answer);
      const got = answer === null ? undefined : finalNumber(answer);
      return expected !== undefined && got !== undefined && sameNumber(got, expected);
    },
    check(item, file) {
      if (gsm8kReference(item.answer) === undefined)
        throw new ConfigError(
          `${file}:${item.line}: the answer has no number after '####' (the GSM8K format); fix the line, or choose another --scorer (exact, regex, judge)`,
        );
    },
  };
}

function exactScorer(): Scorer {
  const key = (answer: string) => {
    const text = normalizeText(answerSpan(answer));
    return text === "" ? null : text;
  };
  return {
    name: "exact",
    description:
      "exact: the normalised answer (after its last 'Answer:' marker, if any; lower case, no punctuation or articles) equals the normalised reference",
    key,
    reference: (item) => item.answer,
    correct: (answer, item) => answer !== null && key(answer) === normalizeText(item.answer),
    check() {},
  };
}

function patternScorer(pattern: string): Scorer {
  let regex: RegExp;
  try {
    regex = parseRegex(pattern);
  } catch (error) {
    throw new ConfigError(`--pattern ${pattern}: ${(error as Error).message}`);
  }
  const global = new RegExp(
    regex.source,
    regex.flags.includes("g") ? regex.flags : `${regex.flags}g`,
  );
  const key = (answer: string) => {
    const last = [...answer.matchAll(global)].at(-1);
    if (last === undefined) return null;
    const text = normalizeText(last[1] ?? last[0]);
    return text === "" ? null : text;
  };
  return {
    name: "regex",
    description: `regex: the last match of ${regex.toString()} in the answer (its first group, if any) equals the reference, both normalised`,
    key,
    reference: (item) => item.answer,
    correct: (answer, item) => answer !== null && key(answer) === normalizeText(item.answer),
    check() {},
  };
}

function referenceRegexScorer(): Scorer {
  const compiled = new Map<string, RegExp>();
  const regexOf = (item: EvalItem) => {
    let regex = compiled.get(item.answer);
    if (regex === undefined) {
      const parsed = parseRegex(item.answer);
      // `test` with g or y would carry lastIndex from one answer to the next.
      regex = new RegExp(parsed.source, parsed.flags.replace(/[gy]/g, ""));
      compiled.set(item.answer, regex);
    }
    return regex;
  };
  const key = (answer: string) => {
    const text = normalizeText(answerSpan(answer));
    return text === "" ? null : text;
  };
  return {
    name: "regex",
    description:
      "regex: the answer matches the reference, read as a regular expression (/source/flags or a bare source)",
    key,
    reference: (item) => item.answer,
    correct: (answer, item) => answer !== null && regexOf(item).test(answer),
    check(item, file) {
      try {
        regexOf(item);
      } catch (error) {
        throw new ConfigError(
          `${file}:${item.line}: the answer is not a valid regular expression (${(error as Error).message}); fix it, or give --pattern to read answers instead`,
        );
      }
    },
  };
}
