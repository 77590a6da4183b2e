/**
 * `--broadcast human` on a terminal (issue 11 item 3; docs/planning.md): an agent's question is
 * printed on stderr and the user types the answer on stdin (an empty line skips it). Questions
 * asked while one is open wait their turn.
 */
import { createInterface } from "node:readline/promises";
import type { HumanChannel, HumanQuestion } from "../engine/index.js";

/** A channel reading answers from `input` (a TTY) and asking on `output`. */
export function terminalHumanChannel(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): HumanChannel {
  let queue: Promise<unknown> = Promise.resolve();
  const askOne = async (question: HumanQuestion, signal: AbortSignal): Promise<string> => {
    // Let the trace line of the question (published through the run's event stream) come first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    signal.throwIfAborted();
    const lines = createInterface({ input, output, terminal: false });
    try {
      output.write(
        `\n[${question.agentId}] asks you (${question.questionId}): ${question.question}\n`,
      );
      return (await lines.question("Your answer (Enter to skip): ", { signal })).trim();
    } finally {
      lines.close();
    }
  };
  return {
    ask(question, signal) {
      const answer = queue.then(() => askOne(question, signal));
      queue = answer.catch(() => undefined);
      return answer;
    },
  };
}
