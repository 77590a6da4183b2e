/**
 * `coord [OPTIONS] "<question>"`: runs one query and exits (spec section 4.1). Resolves the
 * config, opens a memory session (src/runner/session-turns.ts), runs the team
 * (src/runner/run-team.ts) with the session's history, shows progress (src/commands/run-display.ts:
 * the Ink live view, a live status block, trace lines or `--automation` lines), prints the final
 * answer on stdout and records the turn in the session.
 * Exit codes: docs/architecture.md "Exit codes".
 */
import { join, relative } from "node:path";
import { EXIT_CODE_FOR_RUN_END } from "../errors.js";
import {
  type CwdContext,
  openSession,
  type PreparedRun,
  prepareRun,
  type RunFlags,
  runTurn,
  type StartRunOptions,
  type TurnResult,
} from "../runner/index.js";
import type { RunState, RunSubscriber } from "../session/index.js";
import { LOG_FILES } from "../store/index.js";
import { failureLine, oneLine } from "../ui/plain/index.js";
import type { CommandIO } from "./io.js";
import type { Tracing } from "../tracing/index.js";
import { openCommandTracing } from "./command-tracing.js";
import { createRunDisplay, type RunDisplay } from "./run-display.js";
import { runResultJson } from "./run-json.js";

export type { CommandIO };
export { sessionStatusOf } from "../runner/index.js";

/** Flags of the run command. */
export interface RunCommandFlags extends RunFlags {
  /** `--no-display` sets this to false. */
  display: boolean;
  /** `--no-logs` sets this to false. */
  logs: boolean;
  debug: boolean;
  outputFile?: string | undefined;
  /** `--session-id ID`: continue that memory session. */
  sessionId?: string | undefined;
  /** `--automation`: the fixed parseable lines of src/ui/plain/automation.ts only. */
  automation?: boolean | undefined;
  /** `--json`: one JSON object with the result on stdout (`./run-json.ts`), no progress. */
  json?: boolean | undefined;
  /** `--cwd-context`: the working directory's access for this run. */
  cwdContext?: CwdContext | undefined;
  /** `--tracing` (also `COORD_TRACING_ENABLED=true`): OpenTelemetry spans of the run. */
  tracing?: boolean | undefined;
}

/**
 * What a planning command adds to one run (src/commands/plan.ts): the mode and config it runs
 * with, the engine's planning/execution settings, and what to do once it has ended.
 */
export interface RunPhase {
  /** The prepared run this phase starts (mode, agents, config). */
  prepare(prepared: PreparedRun): PreparedRun;
  start?: Pick<StartRunOptions, "planning" | "execution" | "human" | "workspaceSeed">;
  /**
   * More subscribers of the run, attached after the display (so the display has shown an event
   * when they see it), e.g. the human channel's.
   */
  subscribers?: readonly RunSubscriber[];
  /**
   * Called once the run ended, before the closing lines; returns lines to add: `automation`
   * (stdout, with `--automation`, before `COMPLETED:`) and `text` (stderr otherwise).
   */
  after?(result: PhaseResult): Promise<{ automation: string[]; text: string[] }>;
  /**
   * Writes the run's answer to `--output-file` instead of replacing the file with it (a plan
   * chunk adds its section: src/runner/output-file.ts); returns the absolute path written.
   */
  writeOutput?: (file: string, answer: string) => Promise<string>;
}

/** A finished run as {@link RunPhase.after} sees it. */
export interface PhaseResult {
  state: RunState;
  logDir: string | undefined;
  sessionId: string;
}

/**
 * Runs one question end to end, as a turn of a memory session (a new one, or the one
 * `--session-id` / `session_id:` names, whose history the agents then see).
 * @returns the exit code (0 success, 2 every agent failed, 3 timeout without an answer, 4
 *   interrupted or stopped).
 * @throws ConfigError (exit 1) for bad flags, configs, keys or model files, or an unknown
 *   session id, before any agent starts.
 */
export async function runQuestion(
  question: string,
  flags: RunCommandFlags,
  io: CommandIO,
  phase?: RunPhase,
): Promise<number> {
  const base = await prepareRun(flags, io);
  const prepared = phase ? phase.prepare(base) : base;
  for (const warning of prepared.warnings) io.stderr.write(`coord: warning: ${warning}\n`);
  // Warnings that come while a live view owns the terminal wait until it is closed.
  let deferred: string[] | undefined;
  const warn = (message: string) => {
    if (deferred) deferred.push(message);
    else io.stderr.write(`coord: warning: ${message}\n`);
  };
  const tracing = await openCommandTracing(flags.tracing, prepared.env, io, warn);
  try {
    return await runTraced(question, flags, io, prepared, tracing, phase, {
      warn,
      defer: () => (deferred ??= []),
      flush: () => {
        const messages = deferred ?? [];
        deferred = undefined;
        for (const message of messages) warn(message);
      },
    });
  } finally {
    // After the answer and the summary lines: sending the last spans never delays them.
    await tracing?.shutdown();
  }
}

/** {@link runQuestion} once tracing is open (or off): one turn (`src/runner/turn.ts`), then its result. */
async function runTraced(
  question: string,
  flags: RunCommandFlags,
  io: CommandIO,
  prepared: PreparedRun,
  tracing: Tracing | undefined,
  phase: RunPhase | undefined,
  warnings: { defer(): void; flush(): void; warn: (message: string) => void },
): Promise<number> {
  const { config } = prepared;
  const session = await openSession({
    home: io.home,
    sessionId: flags.sessionId,
    config,
    configPath: prepared.configPath,
    cwd: io.cwd,
    kind: "single",
  });

  const display = await createRunDisplay(flags, io, config.ui.display_type === "rich_terminal");
  if (display.kind === "ink" || display.kind === "live-status") warnings.defer();
  const running = await runTurn({
    prepared,
    question,
    session,
    ownsSession: true,
    io,
    logs: flags.logs,
    debug: flags.debug,
    outputFile: flags.outputFile,
    writeOutput: phase?.writeOutput,
    tracing,
    signal: io.signal,
    start: phase?.start,
    onStarted: ({ handle, traceId }) =>
      display.started({ question, runDir: handle.runDir, logDir: handle.logDir, traceId }),
    subscribers: [(event, state) => display.event(event, state), ...(phase?.subscribers ?? [])],
    onEnded: async (state) => {
      await display.close(state);
      warnings.flush();
    },
    warn: warnings.warn,
  });
  const turn = await running.finished;
  const { state, logDir } = turn;
  const extra = phase?.after
    ? await phase.after({ state, logDir, sessionId: session.record.id })
    : { automation: [], text: [] };
  return finish(state, {
    flags,
    io,
    logDir,
    display,
    extra,
    turn,
    sessionId: session.record.id,
    trace:
      turn.traceId !== undefined && tracing
        ? { id: turn.traceId, destination: tracing.destination }
        : undefined,
  });
}

async function finish(
  state: RunState,
  context: {
    flags: RunCommandFlags;
    io: CommandIO;
    logDir: string | undefined;
    display: RunDisplay;
    /** Lines a planning phase adds (plan folder, progress). */
    extra: { automation: string[]; text: string[] };
    /** The finished turn: whether `--output-file` was written, and where. */
    turn: Pick<TurnResult, "outputPath" | "outputError">;
    sessionId: string;
    /** The run's trace id and where its spans went, when traced. */
    trace: { id: string; destination: string } | undefined;
  },
): Promise<number> {
  const { flags, io, logDir, display } = context;
  const reason = state.endReason ?? "failed";
  const answered = state.finalAnswer !== null && reason === "completed";
  if (flags.json) {
    if (context.turn.outputError) throw context.turn.outputError;
    const result = runResultJson(state, {
      exitCode: EXIT_CODE_FOR_RUN_END[reason],
      logDir,
      sessionId: context.sessionId,
      ...(answered ? {} : { error: failureLine(state) }),
    });
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return EXIT_CODE_FOR_RUN_END[reason];
  }
  let answerFile = logDir !== undefined ? join(logDir, LOG_FILES.finalAnswer) : undefined;
  if (answered) {
    if (display.kind !== "automation") {
      if (display.streamedFinal()) io.stdout.write("\n");
      else io.stdout.write(`${state.finalAnswer}\n`);
    }
    if (context.turn.outputError) throw context.turn.outputError;
    if (context.turn.outputPath !== undefined) answerFile = context.turn.outputPath;
  } else {
    io.stderr.write(`coord: ${failureLine(state)}\n`);
  }
  // The trace lines (plain) and --automation already said why the run is degraded; the live
  // views were erased: say it once more below them.
  if (display.kind === "ink" || display.kind === "live-status") {
    for (const reason of state.degraded) io.stderr.write(`Degraded: ${oneLine(reason)}\n`);
  }
  if (display.automationEnd) {
    for (const line of context.extra.automation) io.stdout.write(`${line}\n`);
    display.automationEnd(state, answerFile);
  } else {
    const prefix = display.kind === "plain" ? "[system] " : "";
    if (display.kind === "ink") io.stderr.write("\n");
    for (const line of context.extra.text) io.stderr.write(`${prefix}${line}\n`);
    // The presenter's workspace after the final answer: the run's result (docs/tools.md).
    const result = state.snapshots.findLast((snapshot) => snapshot.label.endsWith(".final"));
    if (result && answered) {
      io.stderr.write(
        `${prefix}Workspace: ${relative(io.cwd, result.workspace) || result.workspace} (${result.agentId}'s, the run's result)\n`,
      );
    }
    if (logDir) io.stderr.write(`${prefix}Logs: ${relative(io.cwd, logDir) || logDir}\n`);
    const trace = context.trace;
    if (trace) io.stderr.write(`${prefix}Trace: ${trace.id} (${trace.destination})\n`);
    io.stderr.write(
      `${prefix}Session: ${context.sessionId} (continue: coord --session-id ${context.sessionId})\n`,
    );
  }
  return EXIT_CODE_FOR_RUN_END[reason];
}
