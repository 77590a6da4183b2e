/**
 * The progress line of `coord eval` on stderr: runs done of the phase, elapsed time, the model
 * calls and tokens spent so far (runs in flight included), an ETA, and the running accuracy of
 * the team and the first agent. A heartbeat redraws it at least every 30 s while runs are in
 * flight (src/eval/run-eval.ts). On a terminal one line with a bar
 * redraws in place; otherwise (a log file, a pipe) plain lines without the bar are printed, one
 * per 5 % of the phase or per 30 s, and one at its end.
 */
import { formatCount, formatDuration, oneLine } from "../ui/plain/index.js";

/** Where the line goes. */
export interface ProgressStream {
  write(text: string): boolean;
  isTTY?: boolean;
  columns?: number;
}

/** One running accuracy: `correct` of `n` items so far. */
export interface RunningScore {
  label: string;
  correct: number;
  n: number;
}

/** The state of a phase. Weights are expected model calls (a team run weighs more than one agent's). */
export interface ProgressSnapshot {
  phase: string;
  doneRuns: number;
  totalRuns: number;
  doneWeight: number;
  totalWeight: number;
  /** ms since the phase started. */
  elapsedMs: number;
  scores: readonly RunningScore[];
  /** Model calls and tokens (input + output) of the phase so far, runs in flight included. */
  spent?: { calls: number; tokens: number };
}

/** A progress display. */
export interface Progress {
  update(snapshot: ProgressSnapshot): void;
  /** Ends the phase's line (a newline on a terminal; the last plain line otherwise). */
  end(snapshot: ProgressSnapshot): void;
}

/** How often plain lines are printed: at each of this many steps of the phase (5 %), or this many ms. */
const PLAIN_STEPS = 20;
const PLAIN_EVERY_MS = 30_000;

/** Cells of the bar on a terminal. */
export const BAR_WIDTH = 20;

/** A bar of {@link BAR_WIDTH} cells, `fraction` (0–1) of them full. */
export function progressBar(fraction: number): string {
  const full = Math.round(Math.min(1, Math.max(0, fraction)) * BAR_WIDTH);
  return `${"█".repeat(full)}${"░".repeat(BAR_WIDTH - full)}`;
}

/**
 * The progress line's text.
 * @param options.bar with a bar of the runs done (on a terminal).
 */
export function progressLine(snapshot: ProgressSnapshot, options: { bar?: boolean } = {}): string {
  const { doneRuns, totalRuns, doneWeight, totalWeight, elapsedMs } = snapshot;
  const fraction = totalRuns === 0 ? 1 : doneRuns / totalRuns;
  const percent = Math.floor(100 * fraction);
  const parts = [
    `${snapshot.phase}: ${options.bar ? `${progressBar(fraction)} ` : ""}${doneRuns}/${totalRuns} runs (${percent}%)`,
  ];
  parts.push(`${formatDuration(elapsedMs)} elapsed`);
  if (snapshot.spent !== undefined)
    parts.push(
      `${formatCount(snapshot.spent.calls)} calls, ${formatCount(snapshot.spent.tokens)} tokens`,
    );
  if (doneRuns < totalRuns) {
    parts.push(
      doneWeight > 0
        ? `ETA ${formatDuration((elapsedMs * (totalWeight - doneWeight)) / doneWeight)}`
        : "ETA …",
    );
  }
  for (const score of snapshot.scores) {
    if (score.n === 0) continue;
    parts.push(
      `${score.label} ${score.correct}/${score.n} (${Math.round((100 * score.correct) / score.n)}%)`,
    );
  }
  return `[eval] ${parts.join(" · ")}`;
}

/** A progress display on `stream`: redrawn in place on a TTY, plain lines otherwise. */
export function createProgress(stream: ProgressStream): Progress {
  const tty = stream.isTTY === true;
  // Plain lines: the last one's 5 % step, runs done and time.
  let last: { step: number; doneRuns: number; at: number } | undefined;
  const fit = (snapshot: ProgressSnapshot) =>
    oneLine(progressLine(snapshot, { bar: true }), Math.max(20, (stream.columns ?? 100) - 1));
  return {
    update(snapshot) {
      if (tty) {
        stream.write(`\r\x1b[2K${fit(snapshot)}`);
        return;
      }
      // Whole steps in integers: 3/60 is exactly step 1 (floating fractions drift).
      const step =
        snapshot.totalRuns === 0
          ? PLAIN_STEPS
          : Math.floor((PLAIN_STEPS * snapshot.doneRuns) / snapshot.totalRuns);
      if (last && step <= last.step && snapshot.elapsedMs - last.at < PLAIN_EVERY_MS) return;
      last = { step, doneRuns: snapshot.doneRuns, at: snapshot.elapsedMs };
      stream.write(`${progressLine(snapshot)}\n`);
    },
    end(snapshot) {
      if (tty) stream.write(`\r\x1b[2K${fit(snapshot)}\n`);
      else if (last?.doneRuns !== snapshot.doneRuns) stream.write(`${progressLine(snapshot)}\n`);
      last = undefined;
    },
  };
}
