/**
 * The two throttled files of the run log writer (`./log-writer.ts`), each a small state machine
 * on the injected clock: `events.jsonl` lines appended in batches, and `status.json` rewritten at
 * most once per interval. Both report a file system error once through `fail` and go on.
 */
import { writeSync } from "node:fs";
import type { Clock } from "../clock.js";

/** Characters (UTF-16 units) of waiting events.jsonl lines that are written at once. */
export const EVENTS_BATCH_CHARS = 64 * 1024;
/** Shortest time (ms) between two batches of events.jsonl lines, but for a full batch or close. */
export const EVENTS_FLUSH_INTERVAL_MS = 100;
/** The reason pending sleeps are cancelled with (made once: no stack each time). */
const CANCELLED = new Error("log writer: timer cancelled");

/** events.jsonl's appender: {@link createEventsAppender}. */
export interface EventsAppender {
  /** Queues whole lines (each ending in `\n`); writes them now when a full batch waits. */
  append(lines: readonly string[]): void;
  /** Writes every waiting line now (one write(2) per batch). */
  flush(): void;
}

/**
 * Appends lines to the open file `fd` in batches, one write each: at the end of the turn of the
 * event loop that queued them (`setImmediate`), but at most one batch per
 * {@link EVENTS_FLUSH_INTERVAL_MS} ms on `clock`, at once when {@link EVENTS_BATCH_CHARS}
 * characters wait, and on {@link EventsAppender.flush}. After a failed write nothing more is
 * written (the error went to `fail`).
 */
export function createEventsAppender(
  fd: number,
  clock: Clock,
  fail: (error: unknown) => void,
): EventsAppender {
  let failed = false;
  let waiting: string[] = [];
  let waitingLength = 0;
  let immediate: NodeJS.Immediate | undefined;
  /** Cancels the wait for the interval's end, when one is pending. */
  let intervalWait: AbortController | undefined;
  let lastFlushAt = Number.NEGATIVE_INFINITY;

  const flush = (): void => {
    clearImmediate(immediate);
    immediate = undefined;
    intervalWait?.abort(CANCELLED);
    intervalWait = undefined;
    lastFlushAt = clock.now();
    if (waiting.length === 0) return;
    const text = waiting.length === 1 ? waiting[0]! : waiting.join("");
    waiting = [];
    waitingLength = 0;
    if (failed) return;
    try {
      writeAll(fd, text);
    } catch (error) {
      failed = true;
      fail(error);
    }
  };

  /** A flush at the end of this turn, or when the interval since the last one is over. */
  const schedule = (): void => {
    if (immediate !== undefined || intervalWait !== undefined) return;
    const wait = lastFlushAt + EVENTS_FLUSH_INTERVAL_MS - clock.now();
    if (wait <= 0) {
      immediate = setImmediate(flush);
      return;
    }
    const own = new AbortController();
    intervalWait = own;
    clock.sleep(wait, own.signal).then(
      () => {
        if (intervalWait === own) flush();
      },
      () => undefined, // cancelled: a flush came first
    );
  };

  return {
    append(lines) {
      if (failed || lines.length === 0) return;
      for (const line of lines) {
        waiting.push(line);
        waitingLength += line.length;
      }
      if (waitingLength >= EVENTS_BATCH_CHARS) flush();
      else schedule();
    },
    flush,
  };
}

/** status.json's writer: {@link createStatusWriter}. */
export interface StatusWriter {
  /** Asks for a rewrite: at once when `urgent` or the interval is over, else at its end. */
  request(urgent: boolean): void;
  /** Rewrites now, or after the write in flight (which then writes the latest text). */
  write(): Promise<void>;
  /** No more timed rewrites (close): cancels the pending one; resolves after the write in flight. */
  stop(): Promise<void>;
}

/**
 * Rewrites status.json with `render()`'s text, only when it differs from the file's, at most once
 * per `intervalMs` on `clock` (the write at creation, `written`, counts as the first).
 * @param write replaces the file with the text (atomically); its error goes to `fail`.
 */
export function createStatusWriter(options: {
  clock: Clock;
  intervalMs: number;
  written: string;
  render: () => string;
  write: (text: string) => Promise<void>;
  fail: (error: unknown) => void;
}): StatusWriter {
  const { clock, intervalMs, render, fail } = options;
  let onDisk = options.written;
  let lastAt = clock.now();
  let stopped = false;
  /** Aborts the pending timed rewrite, when one is pending. */
  let timer: AbortController | undefined;
  let inFlight: Promise<void> | undefined;
  let dirty = false;

  const write = (): Promise<void> => {
    if (inFlight) {
      dirty = true;
      return inFlight;
    }
    inFlight = (async () => {
      // Never finish before `inFlight` is assigned: a body that found status.json current
      // would otherwise run to its `finally` first, leave `inFlight` set to a settled promise,
      // and every later rewrite (close()'s too) would wait on it and write nothing.
      await Promise.resolve();
      try {
        do {
          dirty = false;
          lastAt = clock.now();
          const text = render();
          if (text !== onDisk) {
            await options.write(text);
            onDisk = text;
          }
        } while (dirty);
      } catch (error) {
        fail(error);
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  const cancelTimer = (): void => {
    timer?.abort(CANCELLED);
    timer = undefined;
  };

  return {
    request(urgent) {
      const sinceLast = clock.now() - lastAt;
      if (urgent || sinceLast >= intervalMs) {
        cancelTimer();
        void write();
        return;
      }
      if (timer !== undefined) return;
      const own = new AbortController();
      timer = own;
      clock.sleep(intervalMs - sinceLast, own.signal).then(
        () => {
          if (timer === own) timer = undefined;
          if (!stopped) void write();
        },
        () => undefined, // cancelled: a write came first, or stop()
      );
    },
    write,
    async stop() {
      stopped = true;
      cancelTimer();
      await inFlight;
    },
  };
}

/** Writes the whole string with as many write(2) calls as it takes. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}
