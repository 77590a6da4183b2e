/**
 * `--broadcast human` on a terminal (docs/planning.md): an agent's
 * question is printed on stderr and the user types the answer on stdin (an empty line skips it).
 * Questions asked while one is open wait their turn.
 *
 * While a question is open the run's progress lines are held (the other agents go on working),
 * so the question stands on its own above the prompt and what the user types is not torn by trace
 * lines; the held lines follow once the answer is sent.
 */
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";
import type { HumanChannel, HumanQuestion } from "../engine/index.js";
import type { RunSubscriber } from "../session/index.js";
import type { OutputStream } from "./io.js";

/** An output stream whose writes can be held back and released later, in order. */
export interface HoldableOutput extends OutputStream {
  /** From now on, keep what is written instead of passing it on. */
  hold(): void;
  /** Pass on what was kept (in order), then write through again. */
  release(): void;
}

/**
 * Wraps `target`: writes pass straight through until {@link HoldableOutput.hold}. Reports the
 * target's `isTTY` and `columns`, so displays choose as they would for the target itself.
 */
export function holdableOutput(target: OutputStream): HoldableOutput {
  let held: string[] | undefined;
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, callback) {
      const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      if (held) held.push(text);
      else target.write(text);
      callback();
    },
  }) as Writable & HoldableOutput;
  Object.defineProperties(stream, {
    isTTY: { get: () => target.isTTY },
    columns: { get: () => target.columns },
  });
  stream.hold = () => {
    held ??= [];
  };
  stream.release = () => {
    const kept = held ?? [];
    held = undefined;
    if (kept.length > 0) target.write(kept.join(""));
  };
  return stream;
}

/** The question as the user sees it: a block of its own, the question's lines indented. */
export function questionBlock(question: HumanQuestion, waiting: boolean): string {
  const rule = "─".repeat(60);
  const lines = question.question.split(/\r?\n/).map((line) => `│ ${line}`);
  return [
    "",
    rule,
    `? ${question.agentId} asks you (${question.questionId}):`,
    ...lines,
    waiting
      ? "  (the team's progress lines are held until you answer)"
      : "  (the team goes on meanwhile)",
    rule,
    "",
  ].join("\n");
}

/** A terminal channel and the run subscriber that tells it which questions the run has shown. */
export interface TerminalHumanChannel {
  channel: HumanChannel;
  /**
   * Subscribe it to the run: a question is asked once its `broadcast-question` event has been
   * published (its trace line written), so every line before it is on the screen first.
   */
  subscriber: RunSubscriber;
}

/**
 * A channel reading answers from `input` (a TTY) and asking on `output`.
 * @param progress the stream the run's progress lines go to (held while a question is open);
 *   without it they are not held.
 */
export function terminalHumanChannel(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  progress?: HoldableOutput,
): TerminalHumanChannel {
  let queue: Promise<unknown> = Promise.resolve();
  /** Question ids whose event was published, and the askers waiting for one. */
  const published = new Set<string>();
  const waiting = new Map<string, () => void>();
  const shown = (questionId: string, signal: AbortSignal): Promise<void> => {
    if (published.has(questionId)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason as Error);
      signal.addEventListener("abort", onAbort, { once: true });
      waiting.set(questionId, () => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      });
    });
  };
  const askOne = async (question: HumanQuestion, signal: AbortSignal): Promise<string> => {
    signal.throwIfAborted();
    await shown(question.questionId, signal);
    progress?.hold();
    const lines = createInterface({ input, output, terminal: false });
    try {
      output.write(questionBlock(question, progress !== undefined));
      const answer = (await lines.question("Your answer (Enter to skip): ", { signal })).trim();
      output.write(
        answer === ""
          ? `(skipped: ${question.agentId} goes on without an answer)\n\n`
          : `(sent to ${question.agentId})\n\n`,
      );
      return answer;
    } finally {
      lines.close();
      progress?.release();
    }
  };
  return {
    channel: {
      ask(question, signal) {
        const answer = queue.then(() => askOne(question, signal));
        queue = answer.catch(() => undefined);
        return answer;
      },
    },
    subscriber(event) {
      if (event.type !== "broadcast-question" || event.to !== "human") return;
      published.add(event.questionId);
      waiting.get(event.questionId)?.();
      waiting.delete(event.questionId);
    },
  };
}
