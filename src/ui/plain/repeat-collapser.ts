/**
 * Collapses a loop's repeated trace lines: a model that calls the same unknown
 * tool or sends the same text hundreds of times must not print hundreds of identical lines. A
 * line identical to one of the last few distinct lines shown is held back and counted; the count
 * is shown as `[system] … repeated 57 more times: <the line>` before the next line that is shown,
 * at the end, and every {@link SUMMARY_EVERY} held lines (so a loop that never ends still says
 * what it does). A line held back once is shown as it is: a count would save nothing.
 */
/** How many distinct lines shown last a new line is compared with (a few agents' cycles). */
export const RECENT_LINES = 12;

/** A count is shown once this many copies of one line were held back, even mid-loop. */
export const SUMMARY_EVERY = 100;

/** Feeds lines through; returns the ones to show. */
export interface RepeatCollapser {
  /** The lines to show for `lines`, in order: new lines, and counts of held-back ones. */
  push(lines: readonly string[]): string[];
  /** The counts still held (call at the end of the run). */
  flush(): string[];
}

/** `[system] … repeated 57 more times: <line, cut at 160 characters>` (trace lines are one line). */
export function repeatLine(line: string, count: number): string {
  const shown = line.length > 160 ? `${line.slice(0, 159)}…` : line;
  return `[system] … repeated ${count} more time${count === 1 ? "" : "s"}: ${shown}`;
}

/** Creates a collapser for one run. */
export function createRepeatCollapser(): RepeatCollapser {
  const recent: string[] = [];
  // Held-back copies since their last count was shown, in first-held order.
  const held = new Map<string, number>();
  const drain = (): string[] => {
    const lines = [...held].map(([line, count]) => (count === 1 ? line : repeatLine(line, count)));
    held.clear();
    return lines;
  };
  return {
    push(lines) {
      const shown: string[] = [];
      for (const line of lines) {
        if (recent.includes(line)) {
          const count = (held.get(line) ?? 0) + 1;
          if (count < SUMMARY_EVERY) held.set(line, count);
          else {
            held.delete(line);
            shown.push(repeatLine(line, count));
          }
          continue;
        }
        shown.push(...drain(), line);
        recent.push(line);
        if (recent.length > RECENT_LINES) recent.shift();
      }
      return shown;
    },
    flush: drain,
  };
}
