/**
 * The run log writer (ARCHITECTURE.md "Files on disk"): one consumer of the event stream that
 * writes a run down in `<root>/log_<time>[_<n>]/turn_<n>/attempt_<n>/`:
 *
 * - `events.jsonl`: every event, appended as it happens (one write per complete line, so a crash
 *   leaves every earlier line readable);
 * - `status.json`: `toStatusJson` of the reducer's state, rewritten atomically at most every
 *   `statusIntervalMs`, at once on a phase change, and at close;
 * - `metrics.json` (`toMetricsJson`) and `final_answer.md` at close;
 * - `execution_metadata.yaml` at creation: question, config with secrets redacted, CLI args,
 *   coord version;
 * - `<logDir>/coord_debug.log` with `debug: true`.
 *
 * `--no-logs` means the caller does not create a writer.
 */
import { closeSync, openSync, writeSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { systemClock, type Clock } from "../clock.js";
import { InternalError } from "../errors.js";
import { serializeEvent, type CoordEvent } from "../events/index.js";
import {
  initialRunState,
  reduceRun,
  toMetricsJson,
  toStatusJson,
  type RunState,
} from "../session/reducer.js";
import { writeFileAtomic } from "./atomic-write.js";
import { createAttemptDir, createRunDir } from "./log-dir.js";

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
  /** Times the status.json throttle and debug lines; default the system clock. */
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
  /** The reducer's state after the events written so far. */
  readonly state: RunState;
  /** The first write failure, if any (close() also rejects with it). */
  readonly error: Error | undefined;
  /**
   * Appends the event to events.jsonl (synchronously, one line), feeds the reducer and schedules
   * a status.json rewrite. Never throws for IO failures (see `onError`).
   * @throws InternalError when called after close().
   */
  write(event: CoordEvent): void;
  /** Appends `<ISO time> <message>` to coord_debug.log when debug is on; otherwise nothing. */
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
  const debugPath = join(logDir, LOG_FILES.debug);

  await writeFileAtomic(
    path(LOG_FILES.metadata),
    stringify({
      coord_version: options.coordVersion,
      created_at: options.now.toISOString(),
      log_dir: logDir,
      turn: options.turn,
      attempt: options.attempt,
      question: options.question,
      cli_args: redactCliArgs(options.cliArgs),
      config: redactSecrets(options.config) ?? null,
    }),
  );
  let state = initialRunState();
  await writeFileAtomic(path(LOG_FILES.status), statusText(state));
  const eventsFd = openSync(path(LOG_FILES.events), "a");

  let firstError: Error | undefined;
  let eventsFailed = false;
  let debugFailed = false;
  let closed = false;
  let closing: Promise<void> | undefined;
  let lastStatusAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
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
      appendFileSync(debugPath, `${new Date(clock.now()).toISOString()} ${message}\n`);
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
      try {
        do {
          dirty = false;
          lastStatusAt = clock.now();
          await writeFileAtomic(path(LOG_FILES.status), statusText(state));
        } while (dirty);
      } catch (error) {
        fail(error);
      } finally {
        inFlight = undefined;
      }
    })();
    return inFlight;
  };

  const requestStatus = (urgent: boolean): void => {
    const sinceLast = clock.now() - lastStatusAt;
    if (urgent || sinceLast >= intervalMs) {
      clearTimeout(timer);
      timer = undefined;
      void writeStatus();
      return;
    }
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) void writeStatus();
    }, intervalMs - sinceLast);
    timer.unref();
  };

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
    write(event) {
      if (closed) throw new InternalError(`log writer for ${dir}: write() after close()`);
      if (!eventsFailed) {
        try {
          writeAll(eventsFd, serializeEvent(event));
        } catch (error) {
          eventsFailed = true;
          fail(error);
        }
      }
      const phase = state.phase;
      state = reduceRun(state, event);
      if (options.debug && !event.type.endsWith("-delta")) {
        appendDebug(`event ${event.seq} ${event.type}${event.agentId ? ` ${event.agentId}` : ""}`);
      }
      requestStatus(state.phase !== phase);
    },
    debug: appendDebug,
    close() {
      if (closing) return closing;
      closed = true;
      clearTimeout(timer);
      timer = undefined;
      closing = (async () => {
        try {
          await inFlight;
          await writeStatus();
          await writeFileAtomic(
            path(LOG_FILES.metrics),
            JSON.stringify(toMetricsJson(state), null, 2) + "\n",
          );
          if (state.finalAnswer !== null && state.finalAnswer !== "") {
            const text = state.finalAnswer.endsWith("\n")
              ? state.finalAnswer
              : state.finalAnswer + "\n";
            await writeFileAtomic(path(LOG_FILES.finalAnswer), text);
          }
        } catch (error) {
          fail(error);
        } finally {
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
  return JSON.stringify(toStatusJson(state), null, 2) + "\n";
}

/** Writes the whole string with as many write(2) calls as it takes. */
function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}

/** What replaces a secret. */
export const REDACTED = "<redacted>";

/** Key names whose string values are secrets: api_key, *_key, *token*, *secret*, password. */
const SECRET_KEY = /(^|[_-])key$|token|secret|passw(or)?d|authorization|cookie/i;
/** camelCase key names: apiKey, accessKey. */
const SECRET_CAMEL_KEY = /[a-z0-9]Key$/;
/** Values that look like credentials wherever they appear. */
const SECRET_VALUE =
  /\b(?:sk-[A-Za-z0-9_-]{8,}|sk_[A-Za-z0-9]{16,}|xai-[A-Za-z0-9]{16,}|AIza[0-9A-Za-z_-]{30,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|hf_[A-Za-z0-9]{20,}|glpat-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16})|\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/g;
/** `${ENV_VAR}` or `$ENV_VAR`: a reference, not a secret; kept so the log says where keys came from. */
const ENV_REFERENCE = /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/;

/**
 * A deep copy of `value` with secrets replaced by `"<redacted>"`: the string values (and every
 * string inside object/array values) of keys named like secrets — `api_key`, `*_key`, `apiKey`,
 * anything containing `token`, `secret`, `password`, `authorization`, `cookie` — except env-var
 * references (`${OPENAI_API_KEY}`); and, anywhere, substrings that look like credentials
 * (`sk-…`, `AIza…`, `ghp_…`, `hf_…`, `xai-…`, `AKIA…`, `Bearer …`). Numbers and booleans are
 * kept (so `max_tokens: 4096` stays). Dates become ISO strings, functions and symbols are
 * dropped, a cycle becomes `"[Circular]"`. Does not modify `value`.
 */
export function redactSecrets(value: unknown): unknown {
  return redactValue(value, false, new WeakSet());
}

/**
 * CLI arguments with secrets redacted: the value of a flag named like a secret (`--api-key sk-…`,
 * `--api-key=…`; a purely numeric value such as `--max-tokens 100` is kept) and any substring
 * that looks like a credential.
 */
export function redactCliArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let valueIsSecret = false;
  for (const arg of args) {
    if (valueIsSecret && !arg.startsWith("-")) {
      valueIsSecret = false;
      out.push(/^\d+(\.\d+)?$/.test(arg) ? arg : REDACTED);
      continue;
    }
    const assignment = /^(--?[^=]+)=(.*)$/s.exec(arg);
    if (assignment && isSecretName(assignment[1]!) && !/^\d+(\.\d+)?$/.test(assignment[2]!)) {
      out.push(`${assignment[1]}=${REDACTED}`);
      valueIsSecret = false;
      continue;
    }
    out.push(redactString(arg));
    valueIsSecret = !assignment && arg.startsWith("-") && isSecretName(arg);
  }
  return out;
}

function isSecretName(name: string): boolean {
  const bare = name.replace(/^-+/, "");
  return SECRET_KEY.test(bare) || SECRET_CAMEL_KEY.test(bare);
}

function redactString(text: string): string {
  return text.replace(SECRET_VALUE, REDACTED);
}

function redactValue(value: unknown, secret: boolean, seen: WeakSet<object>): unknown {
  if (typeof value === "string") {
    if (secret && value !== "" && !ENV_REFERENCE.test(value)) return REDACTED;
    return redactString(value);
  }
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value.toISOString();
  if (seen.has(value)) return "[Circular]";
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redactValue(item, secret, seen) ?? null);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const redacted = redactValue(item, secret || isSecretName(key), seen);
      // defineProperty, not assignment: a "__proto__" key stays a plain key.
      if (redacted !== undefined) {
        Object.defineProperty(out, key, {
          value: redacted,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
