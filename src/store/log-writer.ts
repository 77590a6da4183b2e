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
import { appendFileSync, closeSync, openSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { systemClock, type Clock } from "../clock.js";
import { InternalError } from "../errors.js";
import { serializeEvent, type CoordEvent } from "../events/index.js";
import { initialRunState, type RunState, toMetricsJson, toStatusJson } from "../session/index.js";
import { writeFileAtomic } from "./atomic-write.js";
import { configYaml } from "./config-yaml.js";
import { createDebugLineFormatter } from "./debug-lines.js";
import { createEventsAppender, createStatusWriter } from "./log-batching.js";
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

export { EVENTS_BATCH_CHARS, EVENTS_FLUSH_INTERVAL_MS } from "./log-batching.js";

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
  const written = statusText(state);
  await writeFile(LOG_FILES.status, written);
  const eventsFd = openSync(path(LOG_FILES.events), "a");

  let firstError: Error | undefined;
  let debugFailed = false;
  let closed = false;
  let closing: Promise<void> | undefined;

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

  const status = createStatusWriter({
    clock,
    intervalMs,
    written,
    render: () => statusText(state),
    write: (text) => writeFile(LOG_FILES.status, text),
    fail,
  });
  const events = createEventsAppender(eventsFd, clock, fail);
  /** Deltas re-chunked so a secret streamed in pieces is redacted whole (stream-redactor.ts). */
  const stream = createStreamRedactor();
  const appendEvents = (batch: readonly CoordEvent[]): void =>
    events.append(batch.map((event) => redact(serializeEvent(event))));

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
      status.request(state.phase !== phase);
    },
    debug: appendDebug,
    close() {
      if (closing) return closing;
      closed = true;
      const stopped = status.stop();
      closing = (async () => {
        try {
          await stopped;
          // Three different files: written side by side (the run's exit waits for them).
          const writes = [
            status.write(),
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
          events.flush();
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
