/**
 * Mistyped sub-commands are never sent to the team as questions. A question
 * costs money; `coord exprt` must not ask the models "exprt". The rule (stated in `coord --help`
 * and the README): a question given on the command line that
 * is one bare word — letters, digits, `-`, `_`, nothing else — and equals a sub-command or an
 * option-like word (`sessions`, `version`), is a near miss of one (edit distance ≤ 1 for names of
 * up to 5 letters, ≤ 2 for longer ones, case ignored), or is a prefix of one (3 letters or more),
 * is refused with the command it probably meant. Any other one-word question ("hello", "2+2",
 * "Why?") is asked; a refused word can still be asked with punctuation (`coord "export?"`) or
 * on stdin.
 */
import { ConfigError } from "../errors.js";
import { editDistance } from "../edit-distance.js";

/** Words that are not sub-commands but are often typed as one, and what to type instead. */
const EXTRA_WORDS: Record<string, string> = {
  sessions: "coord --list-sessions",
  "list-sessions": "coord --list-sessions",
  version: "coord --version",
};

/**
 * Throws when `question` looks like a mistyped sub-command rather than a question.
 * @param question the positional argument as given on the command line.
 * @param commands the program's sub-command names (aliases included), e.g. `["serve", "logs"]`.
 * @throws ConfigError (exit 1) naming the command it probably meant and how to ask anyway.
 */
export function refuseCommandLikeQuestion(question: string, commands: readonly string[]): void {
  const word = question.trim();
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(word)) return;
  const guess = guessCommand(word, commands);
  if (guess === undefined) return;
  const known = commands.some((command) => command.toLowerCase() === word.toLowerCase());
  throw new ConfigError(
    `${JSON.stringify(word)} is ${known ? "a coord command written" : "not a question but looks like a command"}: ` +
      `did you mean ${guess}? (coord --help lists the commands; to ask it as a question, add punctuation: coord "${word}?")`,
  );
}

/**
 * The command line `word` most likely meant, or undefined when it is not close to any.
 * @returns e.g. `coord export` or `coord --list-sessions`.
 */
export function guessCommand(word: string, commands: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const candidates: Array<[name: string, suggestion: string]> = [
    ...commands.map((name): [string, string] => [name.toLowerCase(), `coord ${name}`]),
    ...Object.entries(EXTRA_WORDS),
  ];
  let best: { suggestion: string; distance: number } | undefined;
  for (const [name, suggestion] of candidates) {
    const distance = lower === name ? 0 : editDistance(lower, name);
    const allowed = name.length <= 5 ? 1 : 2;
    const prefix = lower.length >= 3 && name.startsWith(lower);
    if ((distance <= allowed || prefix) && (best === undefined || distance < best.distance)) {
      best = { suggestion, distance };
    }
  }
  return best?.suggestion;
}
