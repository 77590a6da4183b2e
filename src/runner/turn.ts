/**
 * One turn: asking the team one question, the lifecycle every front door that runs a team shares
 * — the one-shot run (`src/commands/run.ts`, also each phase of `--plan`), the chat
 * (`src/commands/chat-controller.ts`), `coord --web` (`src/commands/web-session-host.ts`) and each
 * chat completion of `coord serve` (`src/server/chat-completion.ts`). Written once so that the run
 * log, `--debug`, tracing, budgets, the session record and `--output-file` behave the same in
 * every one of them (docs/architecture.md "Front doors").
 *
 * A turn of a person's door belongs to a memory session (spec section 2 "Memory session"): its
 * history and personas are the session's, and the turn is recorded in it. A served request has
 * none ({@link TurnOptions.session} undefined): the OpenAI API is stateless — the client sends the
 * conversation in every request's `messages`, given here as {@link TurnOptions.history} — so a
 * request is not a memory session, and nothing is written to `~/.coord/sessions.json` (a registry
 * write under its cross-process lock per request would also queue concurrent requests on it).
 *
 * The steps of {@link runTurn}, in order:
 * 1. **trace**: when tracing is on, the run's trace starts (its id goes in the run log);
 * 2. **start**: the run log's options (with a session: `turn_<n>` in the `log_…` directory this
 *    process made for the session, else a new one), then `startRun` with the history and
 *    personas. If it cannot start and the turn owns its session (the one-shot run), the session
 *    is discarded;
 * 3. **note**: with `--debug` the door's header heads `coord_debug.log`; the session names the
 *    run's `log_…` directory at once (a viewer can tell the run is still being written);
 * 4. **subscribe**: the door is told the run started ({@link TurnOptions.onStarted}), then its
 *    subscribers are attached; each first catches up from the run's first event;
 * 5. **end**: once the run ended, {@link TurnOptions.onEnded} (a display leaves the screen clean);
 * 6. **record**: the turn is recorded in the session (turn file and registry); a turn that owns
 *    its session closes it in the same write, with how the run ended;
 * 7. **write outputs**: an answered turn's final answer goes to `--output-file`.
 *
 * Problems that do not stop the turn (a log or registry that cannot be written, a subscriber that
 * throws) are told to {@link TurnOptions.warn}, one line each, without the `coord: warning:`
 * prefix.
 */
import type { RunState, RunSubscriber } from "../session/index.js";
import { latestPersonas } from "../sessions/index.js";
import { writeDebugHeader } from "./debug-header.js";
import { writeOutputFile } from "./output-file.js";
import { type PreparedRun, runLogOptions } from "./prepare-run.js";
import { type RunHandle, startRun, type StartRunOptions } from "./start-run.js";
import {
  closeSession,
  discardSession,
  noteLogDir,
  type OpenSession,
  recordTurn,
  turnLogOptions,
} from "./session-turns.js";

/**
 * Starts a run's trace: `Tracing` of a command (`src/commands/command-tracing.ts`), or a server
 * request's trace (`RequestTrace`). Structural, so the runner needs nothing of OpenTelemetry.
 */
export interface TurnTracing {
  startRun(options: { includeContent: boolean }): { traceId: string; subscriber: RunSubscriber };
}

/** What a turn needs of the process: where it runs, who it is, how it was started. */
export interface TurnIO {
  /** Working directory: `--output-file`, relative model paths and the log root resolve here. */
  cwd: string;
  /** The user's home (the debug header says which config file was found). */
  home: string;
  /** coord's version, for the run log. */
  version: string;
  /** The command-line arguments, for execution_metadata.yaml and the debug header (redacted). */
  argv: readonly string[];
}

/** Options of {@link runTurn}. */
export interface TurnOptions {
  /** What to run: the config (working-directory context applied), mode and agents, environment. */
  prepared: Pick<PreparedRun, "config" | "configPath" | "env" | "mode" | "agentIndexes">;
  question: string;
  /**
   * The memory session the turn belongs to; its history and personas are the agents'. Undefined
   * for a served request (see the module docstring): nothing is recorded.
   */
  session?: OpenSession | undefined;
  /**
   * The conversation so far, oldest first, of a turn without a session (a chat request's earlier
   * `messages`). Ignored with a session: its history is the session's.
   */
  history?: StartRunOptions["history"];
  /**
   * True when the session lives for this turn only (the one-shot run): it is discarded when the
   * run cannot start, and closed with the turn's record, its status how the run ended.
   */
  ownsSession?: boolean | undefined;
  io: TurnIO;
  /** False for `--no-logs`. */
  logs: boolean;
  /**
   * The root of a new `log_…` directory (absolute or relative to `io.cwd`); default
   * `COORD_LOG_DIR`, else `agent_outputs` in `io.cwd`. A later turn of a session this process
   * already logged goes in that session's directory instead.
   */
  logRoot?: string | undefined;
  /** `--debug`: `coord_debug.log` with the command's header. */
  debug: boolean;
  /** `--output-file`: written with the final answer when the turn answered. */
  outputFile?: string | undefined;
  /**
   * Writes the answer to {@link outputFile} instead of replacing the file (a plan chunk adds its
   * section: `./output-file.ts`); returns the absolute path written.
   */
  writeOutput?: ((file: string, answer: string) => Promise<string>) | undefined;
  /** Traces the turn when given (`--tracing`, `COORD_TRACING_ENABLED`). */
  tracing?: TurnTracing | undefined;
  /** Stops the run (Ctrl+C, a closed page, a shutdown). */
  signal?: AbortSignal | undefined;
  /**
   * What the door adds to the run: a planning phase's settings (`src/commands/run.ts`
   * `RunPhase`), a chat request's system message, the clock and `fetch` (tests: a virtual clock).
   */
  start?:
    | Pick<
        StartRunOptions,
        | "planning"
        | "execution"
        | "human"
        | "workspaceSeed"
        | "extraSystemMessage"
        | "clock"
        | "fetch"
      >
    | undefined;
  /** The door's subscribers (displays, the human channel), attached in this order at step 4. */
  subscribers?: readonly RunSubscriber[] | undefined;
  /** Step 4: the run started and its log is open, before the door's subscribers attach. */
  onStarted?: ((turn: StartedTurn) => void) | undefined;
  /** Step 5: the run ended (also when the engine failed internally), before it is recorded. */
  onEnded?: ((state: RunState) => Promise<void> | void) | undefined;
  /** Told of problems that do not stop the turn, one line each. */
  warn: (message: string) => void;
  /** What a subscriber that threw is called in the warning; default `a display`. */
  subscriberName?: string | undefined;
  /** Epoch ms, for the turn record; default the clock of {@link start}, else Date.now. */
  now?: (() => number) | undefined;
}

/** A started turn (steps 1–4 done). */
export interface StartedTurn {
  handle: RunHandle;
  /** The turn's 1-based number in its session; 1 without one. */
  turn: number;
  /** The run's trace id, when traced. */
  traceId: string | undefined;
}

/** A finished turn (steps 5–7 done). */
export interface TurnResult {
  state: RunState;
  /** The attempt directory and the `log_…` directory, when logging. */
  logDir: string | undefined;
  runDir: string | undefined;
  turn: number;
  traceId: string | undefined;
  /** The run ended `completed` with a final answer. */
  answered: boolean;
  /** The absolute path `--output-file` was written to, when it was. */
  outputPath?: string | undefined;
  /**
   * Why `--output-file` could not be written (the door decides: the one-shot run fails, the chat
   * and the page warn).
   */
  outputError?: Error | undefined;
}

/** A turn running: {@link finished} settles once it is recorded and its outputs written. */
export interface RunningTurn extends StartedTurn {
  /**
   * Resolves with the finished turn. Rejects only when the engine failed internally (after
   * {@link TurnOptions.onEnded}; a turn that owns its session has closed it `failed`).
   */
  finished: Promise<TurnResult>;
}

/**
 * Starts the turn (steps 1–4) and returns once the run is under way; its end (steps 5–7) is
 * {@link RunningTurn.finished}.
 * @throws ConfigError before any agent starts: a missing key or model file, an unusable backend;
 *   the file system error when the log directory cannot be created.
 */
export async function runTurn(options: TurnOptions): Promise<RunningTurn> {
  const { prepared, question, session, io, warn } = options;
  const clock = options.start?.clock;
  const now = options.now ?? (clock ? () => clock.now() : Date.now);
  const subscriberName = options.subscriberName ?? "a display";
  const turn = session ? session.record.turns + 1 : 1;
  const runTrace = options.tracing?.startRun({
    includeContent: prepared.config.tracing.include_content,
  });
  const startedAt = now();
  const logFlags = {
    enabled: options.logs,
    cwd: io.cwd,
    version: io.version,
    argv: io.argv,
    debug: options.debug,
    traceId: runTrace?.traceId,
    // The writer reports only its first failure, so this warns once.
    onError: (error: Error) => warn(`cannot write the run log: ${error.message}`),
  };
  let handle: RunHandle;
  try {
    handle = await startRun({
      config: prepared.config,
      mode: prepared.mode,
      agentIndexes: prepared.agentIndexes,
      env: prepared.env,
      ...options.start,
      question,
      history: session ? session.history : (options.history ?? []),
      personas: session ? latestPersonas(session.turns) : undefined,
      cwd: io.cwd,
      log: session
        ? await turnLogOptions(session, prepared, { ...logFlags, root: options.logRoot })
        : runLogOptions(prepared, { ...logFlags, root: options.logRoot }),
      ...(options.signal ? { signal: options.signal } : {}),
      subscribers: runTrace ? [runTrace.subscriber] : [],
      onSubscriberError: (error) => warn(`${subscriberName} failed: ${(error as Error).message}`),
    });
  } catch (error) {
    if (session && options.ownsSession) await discardSession(session);
    throw error;
  }
  if (options.debug) {
    writeDebugHeader(handle.writer, {
      prepared,
      cwd: io.cwd,
      home: io.home,
      version: io.version,
      argv: io.argv,
      ...(session
        ? {
            session: {
              id: session.record.id,
              continued: session.continued || session.record.turns > 0,
              turn,
            },
          }
        : {}),
    });
  }
  if (session) await noteLogDir(session, handle.runDir);
  const started: StartedTurn = { handle, turn, traceId: runTrace?.traceId };
  options.onStarted?.(started);
  for (const subscriber of options.subscribers ?? []) handle.subscribe(subscriber);
  const finished = endTurn(options, started, startedAt, now);
  // A door that only awaits `finished` later must not see an unhandled rejection meanwhile.
  finished.catch(() => undefined);
  return { ...started, finished };
}

/** Steps 5–7 of {@link runTurn}. */
async function endTurn(
  options: TurnOptions,
  started: StartedTurn,
  startedAt: number,
  now: () => number,
): Promise<TurnResult> {
  const { session } = options;
  const { handle } = started;
  let result;
  try {
    result = await handle.done;
  } catch (error) {
    await options.onEnded?.(handle.live.state);
    if (session && options.ownsSession)
      await closeSession(session, "failed").catch(() => undefined);
    throw error;
  }
  const { state, logDir, runDir } = result;
  await options.onEnded?.(state);
  if (session) await recordSessionTurn(options, session, { state, startedAt, now, logDir, runDir });
  const answered = state.finalAnswer !== null && state.endReason === "completed";
  const output: Pick<TurnResult, "outputPath" | "outputError"> = {};
  if (answered && options.outputFile !== undefined) {
    const answer = state.finalAnswer ?? "";
    try {
      output.outputPath = options.writeOutput
        ? await options.writeOutput(options.outputFile, answer)
        : await writeOutputFile(options.io.cwd, options.outputFile, answer);
    } catch (error) {
      output.outputError = error as Error;
    }
  }
  return {
    state,
    logDir,
    runDir,
    turn: started.turn,
    traceId: started.traceId,
    answered,
    ...output,
  };
}

/** Step 6 of {@link runTurn}: the turn in its session; a registry that cannot be written warns. */
async function recordSessionTurn(
  options: TurnOptions,
  session: OpenSession,
  run: {
    state: RunState;
    startedAt: number;
    now: () => number;
    logDir: string | undefined;
    runDir: string | undefined;
  },
): Promise<void> {
  try {
    await recordTurn(session, {
      question: options.question,
      state: run.state,
      startedAt: run.startedAt,
      endedAt: run.now(),
      logDir: run.logDir,
      runDir: run.runDir,
      ...(options.ownsSession ? { close: sessionStatusOf(run.state) } : {}),
    });
  } catch (error) {
    options.warn(
      `cannot record the session in ${session.store.registryPath}: ${(error as Error).message}`,
    );
  }
}

/** The session status a finished run leaves: how it ended (a shutdown counts as interrupted). */
export function sessionStatusOf(
  state: RunState,
): "completed" | "failed" | "timeout" | "interrupted" {
  const reason = state.endReason ?? "failed";
  return reason === "shutdown" ? "interrupted" : reason;
}
