/**
 * Answers shown shortened where the mode allows (docs/coordination.md
 * "Prompts"): an answer whose conclusion is a number or a choice letter (`./conclusions.ts`) and
 * that is longer than {@link MAX_SHOWN_ANSWER_CHARS} is shown as its beginning and its end (where
 * the last steps and the conclusion are), with a note naming the conclusion and how much was left
 * out. Free-form answers (no such conclusion) are always shown whole, and so is every answer up to
 * the bound. Pure functions, no I/O; the logs keep every answer whole.
 */
import { conclusionOf, isNumberOrChoice } from "./conclusions.js";

/** The most characters of an answer with a short conclusion shown to another agent. */
export const MAX_SHOWN_ANSWER_CHARS = 1600;
/** Characters of its beginning kept (the rest of the bound goes to its end). */
export const EXCERPT_HEAD_CHARS = 400;

/**
 * The answer as shown to agents: whole, or (a number/choice conclusion and longer than `max`
 * characters) its first {@link EXCERPT_HEAD_CHARS} and last `max − head` characters around a note.
 * @param content the answer as given.
 * @param max the bound in characters (default {@link MAX_SHOWN_ANSWER_CHARS}).
 */
export function boundedAnswer(content: string, max = MAX_SHOWN_ANSWER_CHARS): string {
  if (content.length <= max) return content;
  const conclusion = conclusionOf(content);
  if (conclusion === undefined || !isNumberOrChoice(conclusion)) return content;
  const head = Math.min(EXCERPT_HEAD_CHARS, Math.floor(max / 4));
  const tail = max - head;
  const omitted = content.length - head - tail;
  return `${content.slice(0, head)}\n[… ${omitted} characters of its working left out; its conclusion: ${conclusion} …]\n${content.slice(-tail)}`;
}

/** An answer longer than this (characters) that repeats an earlier answer's conclusion is named. */
export const SAME_CONCLUSION_MIN_CHARS = 200;

/**
 * The texts of an answer set as the agents see it (each answer once): every answer bounded by
 * {@link boundedAnswer}, and an answer longer than {@link SAME_CONCLUSION_MIN_CHARS} whose number or
 * choice conclusion an earlier answer of the set already reached shown as that fact
 * (`Same conclusion as agent1: 18 …`). Votes count for conclusion groups (`./selection.ts`),
 * so a voter still sees one full working per conclusion it can vote for.
 * @returns one text per answer, in the order given.
 */
export function shownAnswerTexts(
  answers: readonly { anonId: string; content: string }[],
): string[] {
  const firstWith = new Map<string, string>();
  return answers.map((answer) => {
    const conclusion = conclusionOf(answer.content);
    if (conclusion !== undefined && isNumberOrChoice(conclusion)) {
      const first = firstWith.get(conclusion);
      if (first === undefined) firstWith.set(conclusion, answer.anonId);
      else if (answer.content.length > SAME_CONCLUSION_MIN_CHARS)
        return `Same conclusion as ${first}: ${conclusion} (its working left out).`;
    }
    return boundedAnswer(answer.content);
  });
}
