/**
 * Following an events.jsonl as a run writes it (`coord viewer` on a run in progress, spec §4.2
 * "observing automation runs, monitoring CI runs"): read the complete lines there now, then poll
 * for lines appended later until the run's `run-end`. The writer appends one whole line per
 * write (src/store/log-writer.ts), but a reader can still catch a line half written: bytes after
 * the last newline are kept until their newline arrives.
 */
import { open, type FileHandle } from "node:fs/promises";
import { systemClock, type Clock } from "../clock.js";
import { parseEventLine, type CoordEvent } from "../events/index.js";

/** Default pause between two looks at a file that has not grown, ms. */
export const DEFAULT_POLL_MS = 150;

/** Default pause between two `writerGone` checks while the file does not grow, ms. */
export const DEFAULT_WRITER_CHECK_MS = 1000;

/** Options of {@link openEventLog}. */
export interface OpenEventLogOptions {
  /** Sleeps between polls; default the system clock. */
  clock?: Clock;
  /** Pause between two polls of a file that has not grown, ms (default {@link DEFAULT_POLL_MS}). */
  pollMs?: number;
  /** Stops following: {@link EventLogFollower.follow} then ends without error. */
  signal?: AbortSignal;
  /**
   * Resolves true once the process writing the file is known to be gone (it will append
   * nothing more, run-end or not). Asked while the file does not grow, at most every
   * `writerCheckMs`; a rejection counts as "still there".
   */
  writerGone?: () => Promise<boolean>;
  /** Least pause between two `writerGone` checks, ms (default {@link DEFAULT_WRITER_CHECK_MS}). */
  writerCheckMs?: number;
}

/** An events.jsonl opened for reading and following. */
export interface EventLogFollower {
  /** The events of the complete lines in the file when it was opened, oldest first. */
  readonly initial: readonly CoordEvent[];
  /** True when {@link initial} holds the run's `run-end`: nothing more will come. */
  readonly ended: boolean;
  /**
   * True once {@link follow} ended because `writerGone` said the writer is gone, without a
   * `run-end` in the file.
   */
  readonly writerGone: boolean;
  /**
   * The events appended after {@link initial}, as they are written, until `run-end` (included),
   * the writer is gone (see {@link writerGone}) or the signal aborts. A file that does not exist
   * yet is waited for.
   * @throws EventLogError for a complete line that is not a valid event (names file and line).
   */
  follow(): AsyncGenerator<CoordEvent, void, undefined>;
}

/**
 * Reads the complete lines of `path` now (a missing file reads as empty: the run may not have
 * written its first event yet) and returns a follower for the rest.
 * @throws EventLogError for a complete line that is not a valid event.
 */
export async function openEventLog(
  path: string,
  options: OpenEventLogOptions = {},
): Promise<EventLogFollower> {
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const reader = createLineReader(path);
  const initial: CoordEvent[] = [];
  for (const event of await reader.readNew()) initial.push(event);
  const ended = initial.some((event) => event.type === "run-end");
  const writerCheckMs = options.writerCheckMs ?? DEFAULT_WRITER_CHECK_MS;
  let writerGone = false;
  let lastCheck = clock.now();

  /** True when `writerGone` (asked at most every writerCheckMs) says the writer is gone. */
  async function goneNow(): Promise<boolean> {
    if (options.writerGone === undefined || clock.now() - lastCheck < writerCheckMs) return false;
    lastCheck = clock.now();
    return options.writerGone().catch(() => false);
  }

  async function* follow(): AsyncGenerator<CoordEvent, void, undefined> {
    if (ended) return;
    while (options.signal?.aborted !== true) {
      const events = await reader.readNew();
      for (const event of events) {
        yield event;
        if (event.type === "run-end") return;
      }
      if (events.length === 0 && (await goneNow())) {
        // What the writer wrote just before it went (its run-end, if it ended after all).
        for (const event of await reader.readNew()) {
          yield event;
          if (event.type === "run-end") return;
        }
        writerGone = true;
        return;
      }
      if (events.length === 0) {
        try {
          await clock.sleep(pollMs, options.signal);
        } catch {
          return; // aborted
        }
      }
    }
  }

  return {
    initial,
    ended,
    get writerGone() {
      return writerGone;
    },
    follow,
  };
}

/**
 * Reads the lines appended to a file since the last call, keeping a partial last line. The file
 * is opened for each call and closed after, so nothing stays open between polls.
 */
function createLineReader(path: string): { readNew(): Promise<CoordEvent[]> } {
  let offset = 0;
  let lineNumber = 0;
  let pending = Buffer.alloc(0);
  const chunk = Buffer.alloc(64 * 1024);
  return {
    async readNew() {
      let handle: FileHandle;
      try {
        handle = await open(path, "r");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const parts: Buffer[] = [pending];
      try {
        for (;;) {
          const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
          if (bytesRead === 0) break;
          offset += bytesRead;
          parts.push(Buffer.from(chunk.subarray(0, bytesRead)));
        }
      } finally {
        await handle.close();
      }
      const bytes = Buffer.concat(parts);
      const lastNewline = bytes.lastIndexOf(0x0a);
      if (lastNewline < 0) {
        pending = bytes;
        return [];
      }
      pending = Buffer.from(bytes.subarray(lastNewline + 1));
      const events: CoordEvent[] = [];
      for (const line of bytes.subarray(0, lastNewline).toString("utf8").split("\n")) {
        lineNumber++;
        if (line.trim() !== "") events.push(parseEventLine(line, path, lineNumber));
      }
      return events;
    },
  };
}
