/**
 * The judge scorer's question and verdict (docs/eval.md "Scorers"): a model from a config (one
 * agent, or a team: `--judge-config`) is asked whether an answer agrees with the reference and
 * replies CORRECT or INCORRECT. The judge sees the question, the reference and the answer; it
 * never sees which method wrote the answer.
 */

/** The judge's question for one answer. */
export function judgeQuestion(options: {
  question: string;
  reference: string;
  answer: string;
}): string {
  return [
    "You are grading an answer to a question against the reference answer.",
    "Decide whether the candidate's final answer agrees with the reference answer. Ignore style, length and the working shown; judge only whether the final answer is the same as the reference's.",
    "Reply with exactly one word: CORRECT or INCORRECT.",
    "",
    `<QUESTION>\n${options.question}\n</QUESTION>`,
    `<REFERENCE ANSWER>\n${options.reference}\n</REFERENCE ANSWER>`,
    `<CANDIDATE ANSWER>\n${options.answer}\n</CANDIDATE ANSWER>`,
  ].join("\n");
}

/**
 * The verdict in a judge's reply: its last CORRECT or INCORRECT (whole words, any case; "not
 * correct" is INCORRECT), so a reply that reasons first still counts.
 * @returns `unclear` when the reply says neither.
 */
export function parseVerdict(reply: string): "correct" | "incorrect" | "unclear" {
  const words = [...reply.matchAll(/\b(in|not\s+)?correct\b/gi)];
  const last = words.at(-1);
  if (last === undefined) return "unclear";
  return last[1] === undefined ? "correct" : "incorrect";
}
