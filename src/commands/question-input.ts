/**
 * Where a run's question comes from, as in simonw's llm and Claude Code (docs/cli.md "Questions
 * from stdin"):
 *
 * - `coord "question"` with text piped in (`cat notes.md | coord "Summarize"`): the piped text is
 *   the question's context, after it;
 * - `coord -`: the question is read from stdin;
 * - `coord` with stdin piped and no question: stdin is the question.
 *
 * Only a pipe or a redirected file counts as piped text beside a question: a program that starts
 * coord with an open stdin it never writes to (a socket, `/dev/null`, a terminal) is not waited on.
 */
import { fstatSync } from "node:fs";
import { ConfigError } from "../errors.js";

/** The process's stdin as this module needs it. */
export interface QuestionStdin extends AsyncIterable<unknown> {
  isTTY?: boolean | undefined;
  /** File descriptor (0) for the pipe check; absent: never read beside a question. */
  fd?: number | undefined;
}

/**
 * The question to run, or undefined for none (an interactive chat starts).
 * @throws ConfigError for `-` when stdin is a terminal or brings no text.
 */
export async function resolveQuestion(
  argument: string | undefined,
  stdin: QuestionStdin,
): Promise<string | undefined> {
  if (argument === "-") {
    if (stdin.isTTY === true)
      throw new ConfigError('coord -: reads the question from stdin: echo "question" | coord -');
    const text = await readAll(stdin);
    if (text === "") throw new ConfigError('coord -: stdin was empty: echo "question" | coord -');
    return text;
  }
  if (argument === undefined) {
    if (stdin.isTTY === true) return undefined;
    const text = await readAll(stdin);
    return text === "" ? undefined : text;
  }
  if (!isPipedIn(stdin)) return argument;
  const piped = await readAll(stdin);
  return piped === "" ? argument : withContext(argument, piped);
}

/** The question followed by the piped text it is about. */
export function withContext(question: string, piped: string): string {
  return `${question}\n\nInput (piped on stdin):\n\n${piped}`;
}

/** True when stdin is a pipe (FIFO) or a redirected regular file. */
function isPipedIn(stdin: QuestionStdin): boolean {
  if (stdin.isTTY === true || stdin.fd === undefined) return false;
  try {
    const stat = fstatSync(stdin.fd);
    return stat.isFIFO() || stat.isFile();
  } catch {
    return false;
  }
}

async function readAll(stdin: QuestionStdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString("utf8").trim();
}
