/**
 * The run log writer (docs/architecture.md "Files on disk"): one subscriber of the live run
 * (`src/session/live-run.ts`) that writes a run down in
 * `<root>/log_<time>[_<n>]/turn_<n>/attempt_<n>/`. It is given each event with the state the
 * run's one reducer pass led to; it reduces nothing itself.
 *
 * - `events.jsonl`: every event, appended in batches of whole lines, one write(2) each: at the
 *   end of the turn of the event loop that queued them (`setImmediate`), but at most one batch
 *   per {@link EVENTS_FLUSH_INTERVAL_MS} on the clock (a busy run's events wait for the interval's
 *   end: a model streaming fast no longer costs a write per delta), at once when
 *   {@link EVENTS_BATCH_CHARS} characters wait, and at close; so a crash (even `kill -9`) leaves
 *   every line flushed before it whole and readable, and loses at most the last interval's;
 * - `status.json`: `toStatusJson` of the run's state, written at creation, then rewritten
 *   atomically at most every `statusIntervalMs` (counted from creation), at once on a phase
 *   change, and at close, each time only if its text changed;
 * - `metrics.json` (`toMetricsJson`) and `final_answer.md` at close;
 * - `execution_metadata.yaml` at creation: question, config with secrets redacted, CLI args,
 *   coord version, and the run's trace id (`trace_id`) when it is traced (docs/tracing.md);
 * - `<logDir>/coord_debug.log` with `debug: true`: each line `<ISO time> <message>`, stamped by the
 *   clock when it is written; `#<seq> …` lines describe the events (`./debug-lines.ts`), others
 *   come from `debug()` (the command's config and session lines, trace lines).
 *
 * Every byte written passes through the process's one redactor (`src/redact.ts`): known key values
 * and key-shaped strings never reach a log file, also when a model streams one in pieces: the
 * deltas of each streamed block are re-chunked first (`stream-redactor.ts`), so a delta may be
 * written a little later and hold text that arrived after it.
 *
 * `--no-logs` means the caller does not create a writer.
 */
import { closeSync, openSync, writeSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { systemClock, type Clock } from "../clock.js";
import { InternalError } from "../errors.js";
import { serializeEvent, type CoordEvent } from "../events/index.js";
import { initialRunState, type RunState, toMetricsJson, toStatusJson } from "../session/index.js";
import { writeFileAtomic } from "./atomic-write.js";
import { configYaml } from "./config-yaml.js";
import { createDebugLineFormatter } from "./debug-lines.js";
import { createAttemptDir, createRunDir } from "./log-dir.js";
import { redact, redactCliArgs } from "./redact-secrets.js";
import { createStreamRedactor } from "./stream-redactor.js";

export { REDACTED, redactCliArgs, redactSecrets } from "./redact-secrets.js";

/** File names inside an attempt directory. */
export const LOG_FILES = {
  events: "events.jsonl",
  status: "status.json",
  metrics: "metrics.json",
  finalAnswer: "final_answer.md",
  metadata: "execution_metadata.yaml",
  /** In the log directory, not the attempt directory. */
  debug: "coord_debug.log",
} as const;

/** Characters (UTF-16 units) of waiting events.jsonl lines that are written at once. */
export const EVENTS_BATCH_CHARS = 64 * 1024;
/** Shortest time (ms) between two batches of events.jsonl lines, but for a full batch or close. */
export const EVENTS_FLUSH_INTERVAL_MS = 100;
/** The reason pending sleeps are cancelled with (made once: no stack each time). */
const CANCELLED = new Error("log writer: timer cancelled");

/** Options of {@link createLogWriter}. */
export interface LogWriterOptions {
  /** Log root, e.g. `agent_outputs` or `COORD_LOG_DIR` (the caller reads the environment). */
  root: string;
  /** Write into this existing `log_…` directory instead of creating a new one under `root`. */
  logDir?: string;
  /** 1-based turn and attempt numbers. */
  turn: number;
  attempt: number;
  /** The run's start time: names the log directory (local time). */
  now: Date;
  coordVersion: string;
  question: string;
  /** The resolved config; written with secrets redacted. */
  config: unknown;
  /** The command-line arguments (without node and the script); secrets redacted. */
  cliArgs: readonly string[];
  /** Write `coord_debug.log`. */
  debug: boolean;
  /** The run's OpenTelemetry trace id, when traced: `trace_id` in execution_metadata.yaml. */
  traceId?: string;
  /**
   * Where the run's prices come from (`@pydantic/genai-prices 0.1.8`): `price_data` in
   * execution_metadata.yaml, shown by `coord logs summary`.
   */
  priceData?: string;
  /**
   * Times the status.json throttle (its `sleep`) and debug lines; default the system clock. A
   * virtual clock (`createVirtualClock`) runs the throttle without waiting in real time.
   */
  clock?: Clock;
  /** Minimum ms between status.json rewrites (phase changes write at once). Default 200. */
  statusIntervalMs?: number;
  /** Called once with the first write failure; the writer then stops writing that file. */
  onError?: (error: Error) => void;
}

/** A run's log writer. Feed it every event with `write`, then `close` it. */
export interface LogWriter {
  /** The attempt directory, `<logDir>/turn_<n>/attempt_<n>`. */
  readonly dir: string;
  /** The `log_<YYYYMMDD>_<HHMMSS>[_<n>]` directory. */
  readonly logDir: string;
  /** The state given with the last event written (the initial state before any). */
  readonly state: RunState;
  /** The first write failure, if any (close() also rejects with it). */
  readonly error: Error | undefined;
  /**
   * Queues the event's line for events.jsonl (written at the end of this turn of the event loop;
   * a streamed delta, and events after it, wait for the block's next delta or end, see the module
   * comment) and schedules a status.json rewrite of `state`. Never throws for IO failures (see
   * `onError`). Its signature is a `RunSubscriber`'s: `live.subscribe(writer.write)`.
   * @param state the run's state after `event`.
   * @throws InternalError when called after close().
   */
  write(event: CoordEvent, state: RunState): void;
  /**
   * Appends `<ISO time> <message>` to coord_debug.log when debug is on (the time is the clock's
   * now, when the line is written; the message is redacted); otherwise nothing.
   */
  debug(message: string): void;
  /**
   * Waits for pending writes, then writes the final status.json, metrics.json and, when the run
   * has a final answer, final_answer.md. Idempotent.
   * @throws the first write failure of the writer's life.
   */
  close(): Promise<void>;
}

/**
 * Creates the run's log directory and writes execution_metadata.yaml and an initial status.json.
 * @throws the file system error when the directories or first files cannot be written.
 */
export async function createLogWriter(options: LogWriterOptions): Promise<LogWriter> {
  const clock = options.clock ?? systemClock;
  const intervalMs = options.statusIntervalMs ?? 200;
  const { logDir, dir } =
    options.logDir === undefined
      ? await createRunDir({
          root: options.root,
          now: options.now,
          turn: options.turn,
          attempt: options.attempt,
        })
      : {
          logDir: options.logDir,
          dir: await createAttemptDir(options.logDir, options.turn, options.attempt),
        };
  const path = (name: string) => join(dir, name);
  /** The attempt directory is new and only this writer writes its files: no mode to keep. */
  const writeFile = (file: string, data: string) =>
    writeFileAtomic(path(file), data, { keepMode: false });
  const debugPath = join(logDir, LOG_FILES.debug);

  await writeFile(
    LOG_FILES.metadata,
    redact(
      stringify({
        coord_version: options.coordVersion,
        created_at: options.now.toISOString(),
        log_dir: logDir,
        turn: options.turn,
        attempt: options.attempt,
        question: options.question,
        ...(options.traceId !== undefined ? { trace_id: options.traceId } : {}),
        ...(options.priceData !== undefined ? { price_data: options.priceData } : {}),
        cli_args: redactCliArgs(options.cliArgs),
      }) + configYaml(options.config),
    ),
  );
  let state = initialRunState();
  /** The text status.json holds: an unchanged state is not written again (a file each time). */
  let statusOnDisk = statusText(state);
  await writeFile(LOG_FILES.status, statusOnDisk);
  const eventsFd = openSync(path(LOG_FILES.events), "a");

  let firstError: Error | undefined;
  let eventsFailed = false;
  let debugFailed = false;
  let closed = false;
  let closing: Promise<void> | undefined;
  /** The one written at creation counts: the run's first events, same phase, wait for the interval. */
  let lastStatusAt = clock.now();
  /** Aborts the throttle's pending sleep, when one is pending. */
  let timer: AbortController | undefined;
  let inFlight: Promise<void> | undefined;
  let dirty = false;

  const fail = (error: unknown): void => {
    const wrapped = error instanceof Error ? error : new Error(String(error));
    if (firstError !== undefined) return;
    firstError = wrapped;
    options.onError?.(wrapped);
  };

  const appendDebug = (message: string): void => {
    if (!options.debug || debugFailed) return;
    try {
      appendFileSync(debugPath, redact(`${new Date(clock.now()).toISOString()} ${message}\n`));
    } catch (error) {
      debugFailed = true;
      fail(error);
    }
  };

  /** Writes status.json now, or after the write in flight (which then writes the latest state). */
  const writeStatus = (): Promise<void> => {
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
          lastStatusAt = clock.now();
          const text = statusText(state);
          if (text !== statusOnDisk) {
            await writeFile(LOG_FILES.status, text);
            statusOnDisk = text;
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

  const requestStatus = (urgent: boolean): void => {
    const sinceLast = clock.now() - lastStatusAt;
    if (urgent || sinceLast >= intervalMs) {
      cancelTimer();
      void writeStatus();
      return;
    }
    if (timer !== undefined) return;
    const own = new AbortController();
    timer = own;
    clock.sleep(intervalMs - sinceLast, own.signal).then(
      () => {
        if (timer === own) timer = undefined;
        if (!closed) void writeStatus();
      },
      () => undefined, // cancelled: a write came first, or close()
    );
  };

  /** Deltas re-chunked so a secret streamed in pieces is redacted whole (stream-redactor.ts). */
  const stream = createStreamRedactor();
  /** Lines waiting for the end of this turn of the event loop, and their length (UTF-16 units). */
  let waiting: string[] = [];
  let waitingLength = 0;
  let flushScheduled: NodeJS.Immediate | undefined;
  /** Cancels the wait for the interval's end, when one is pending. */
  let flushWait: AbortController | undefined;
  let lastFlushAt = Number.NEGATIVE_INFINITY;
  const flushEvents = (): void => {
    clearImmediate(flushScheduled);
    flushScheduled = undefined;
    flushWait?.abort(CANCELLED);
    flushWait = undefined;
    lastFlushAt = clock.now();
    if (waiting.length === 0) return;
    const text = waiting.length === 1 ? waiting[0]! : waiting.join("");
    waiting = [];
    waitingLength = 0;
    if (eventsFailed) return;
    try {
      writeAll(eventsFd, text);
    } catch (error) {
      eventsFailed = true;
      fail(error);
    }
  };
  /** A flush at the end of this turn, or when the interval since the last one is over. */
  const scheduleFlush = (): void => {
    if (flushScheduled !== undefined || flushWait !== undefined) return;
    const wait = lastFlushAt + EVENTS_FLUSH_INTERVAL_MS - clock.now();
    if (wait <= 0) {
      flushScheduled = setImmediate(flushEvents);
      return;
    }
    const own = new AbortController();
    flushWait = own;
    clock.sleep(wait, own.signal).then(
      () => {
        if (flushWait === own) flushEvents();
      },
      () => undefined, // cancelled: a flush came first
    );
  };
  const appendEvents = (events: readonly CoordEvent[]): void => {
    if (eventsFailed || events.length === 0) return;
    for (const event of events) {
      const line = redact(serializeEvent(event));
      waiting.push(line);
      waitingLength += line.length;
    }
    if (waitingLength >= EVENTS_BATCH_CHARS) flushEvents();
    else scheduleFlush();
  };

  const debugLines = options.debug ? createDebugLineFormatter() : undefined;
  appendDebug(`log writer: ${dir}`);

  return {
    dir,
    logDir,
    get state() {
      return state;
    },
    get error() {
      return firstError;
    },
    write(event, next) {
      if (closed) throw new InternalError(`log writer for ${dir}: write() after close()`);
      appendEvents(stream.push(event));
      const phase = state.phase;
      state = next;
      if (debugLines) {
        for (const line of debugLines.lines(event)) appendDebug(`#${event.seq} ${line}`);
      }
      requestStatus(state.phase !== phase);
    },
    debug: appendDebug,
    close() {
      if (closing) return closing;
      closed = true;
      cancelTimer();
      closing = (async () => {
        try {
          await inFlight;
          // Three different files: written side by side (the run's exit waits for them).
          const writes = [
            writeStatus(),
            writeFile(
              LOG_FILES.metrics,
              redact(JSON.stringify(toMetricsJson(state), null, 2) + "\n"),
            ),
          ];
          if (state.finalAnswer !== null && state.finalAnswer !== "") {
            const text = state.finalAnswer.endsWith("\n")
              ? state.finalAnswer
              : state.finalAnswer + "\n";
            writes.push(writeFile(LOG_FILES.finalAnswer, redact(text)));
          }
          for (const result of await Promise.allSettled(writes)) {
            if (result.status === "rejected") fail(result.reason);
          }
        } finally {
          appendEvents(stream.flush());
          flushEvents();
          closeSync(eventsFd);
        }
        appendDebug(`log writer closed: ${state.eventCount} events`);
        if (firstError) throw firstError;
      })();
      return closing;
    },
  };
}

function statusText(state: RunState): string {
  return redact(JSON.stringify(toStatusJson(state), null, 2) + "\n");
}

/** Writes the whole string with as many write(2) calls as it takes. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}
