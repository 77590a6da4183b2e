/**
 * Context that fits (docs/real-models.md "Context that fits"): when a request is
 * refused because the prompt exceeds the model's context window, the round starts its
 * conversation again from the opening message with every other answer shortened:
 *
 * - with a known window (the provider's message names it, e.g. "maximum context length is 8192
 *   tokens"), the answers share what is left of `window × 3` characters (a cautious 3 characters
 *   per token) after the system prompt and the question, keeping a quarter of the window free
 *   for the reply;
 * - without one, each answer is cut to half its length (a quarter on the second try).
 *
 * A shortened answer keeps its beginning and ends with a note saying how much was cut; the logs
 * keep every answer whole. A round shortens at most twice (`MAX_CONTEXT_FITS`), so an identical
 * 400 is never retried blindly.
 */
import { isContextLengthError } from "../backends/index.js";
import type { VisibleAnswer } from "./prompts.js";

/**
 * The model's context window in tokens, when `error` is a context overflow that names it (the
 * backends classify every provider's overflow: `BackendError.kind` `context-length`).
 */
export function contextWindowOf(error: unknown): number | undefined {
  return isContextLengthError(error) ? error.contextWindow : undefined;
}

/** Characters per token assumed when fitting answers into a window (cautious for English). */
export const CHARS_PER_TOKEN = 3;
/** The least an answer is cut to (characters). */
export const MIN_ANSWER_CHARS = 200;

/** Options of {@link fitAnswers}. */
export interface FitOptions {
  /** The model's window (tokens), when known. */
  contextWindowTokens: number | undefined;
  /** Characters of the prompt besides the answers (system prompt, question, history). */
  fixedChars: number;
  /** 1 on the first fit of the round, 2 on the second. */
  attempt: number;
}

/**
 * The answers shortened to fit (see the module comment).
 * @returns the shortened answers and the most characters each kept.
 */
export function fitAnswers<T extends Pick<VisibleAnswer, "content">>(
  answers: readonly T[],
  options: FitOptions,
): { answers: T[]; maxChars: number } {
  const longest = Math.max(0, ...answers.map((answer) => answer.content.length));
  let maxChars: number;
  if (options.contextWindowTokens !== undefined) {
    const room = options.contextWindowTokens * CHARS_PER_TOKEN * 0.75 - options.fixedChars;
    const share = Math.floor(room / Math.max(1, answers.length) / options.attempt);
    maxChars = Math.max(MIN_ANSWER_CHARS, share);
  } else {
    maxChars = Math.max(MIN_ANSWER_CHARS, Math.floor(longest / 2 ** options.attempt));
  }
  return {
    maxChars,
    answers: answers.map((answer) =>
      answer.content.length <= maxChars
        ? answer
        : {
            ...answer,
            content: `${answer.content.slice(0, maxChars)}\n[… cut to fit the model's context: ${maxChars} of ${answer.content.length} characters shown]`,
          },
    ),
  };
}
