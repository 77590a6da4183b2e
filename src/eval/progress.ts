/**
 * The progress line of `coord eval` on stderr: runs done of the phase, elapsed time, an ETA, and
 * the running accuracy of the team and the baseline agent. On a terminal one line redraws in
 * place; otherwise (a log file, a pipe) plain lines are printed, one per 5 % of the phase or per
 * 30 s, and one at its end.
 */
import { formatDuration, oneLine } from "../ui/plain/index.js";

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
}

/** A progress display. */
export interface Progress {
  update(snapshot: ProgressSnapshot): void;
  /** Ends the phase's line (a newline on a terminal; the last plain line otherwise). */
  end(snapshot: ProgressSnapshot): void;
}

/** How often plain lines are printed: every this fraction of the phase, or this many ms. */
const PLAIN_STEP = 0.05;
const PLAIN_EVERY_MS = 30_000;

/** The progress line's text. */
export function progressLine(snapshot: ProgressSnapshot): string {
  const { doneRuns, totalRuns, doneWeight, totalWeight, elapsedMs } = snapshot;
  const percent = totalRuns === 0 ? 100 : Math.floor((100 * doneRuns) / totalRuns);
  const parts = [`${snapshot.phase}: ${doneRuns}/${totalRuns} runs (${percent}%)`];
  parts.push(`${formatDuration(elapsedMs)} elapsed`);
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
  let lastFraction = -1;
  let lastAt = -Infinity;
  const fit = (line: string) => oneLine(line, Math.max(20, (stream.columns ?? 100) - 1));
  return {
    update(snapshot) {
      if (tty) {
        stream.write(`\r\x1b[2K${fit(progressLine(snapshot))}`);
        return;
      }
      const fraction = snapshot.totalRuns === 0 ? 1 : snapshot.doneRuns / snapshot.totalRuns;
      if (fraction - lastFraction < PLAIN_STEP && snapshot.elapsedMs - lastAt < PLAIN_EVERY_MS)
        return;
      lastFraction = fraction;
      lastAt = snapshot.elapsedMs;
      stream.write(`${progressLine(snapshot)}\n`);
    },
    end(snapshot) {
      if (tty) stream.write(`\r\x1b[2K${fit(progressLine(snapshot))}\n`);
      else if (lastFraction < 1 || snapshot.doneRuns === 0)
        stream.write(`${progressLine(snapshot)}\n`);
      lastFraction = -1;
      lastAt = -Infinity;
    },
  };
}
