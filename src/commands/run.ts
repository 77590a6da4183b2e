/**
 * `coord [OPTIONS] "<question>"`: runs one query and exits (spec section 4.1). Resolves the
 * config, builds the backends, runs the engine, and feeds its events to the log writer and to
 * the display; prints the final answer on stdout. Exit codes: ARCHITECTURE.md "Exit codes".
 */
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { Backend, BackendError } from "../backends/backend.js";
import { systemClock } from "../clock.js";
import type { Config } from "../config/schema.js";
import { ExitCode } from "../errors.js";
import type { CoordEvent, RunEndReason } from "../events/events.js";
import { initialRunState, reduceRun, type RunState } from "../session/reducer.js";
import type { LogWriter } from "../store/log-writer.js";
import { createLiveStatus, type LiveStatus } from "../ui/plain/live-status.js";
import { createTraceFormatter, oneLine } from "../ui/plain/trace-lines.js";
import { chooseMode, resolveConfig, type RunFlags } from "./resolve-run.js";

/** What the retry wrapper reports before each wait. */
type RetryInfo = { attempt: number; delayMs: number; error: BackendError };

/** Flags of the run command. */
export interface RunCommandFlags extends RunFlags {
  /** `--no-display` sets this to false. */
  display: boolean;
  /** `--no-logs` sets this to false. */
  logs: boolean;
  debug: boolean;
  outputFile?: string | undefined;
}

/** The outside world of a command (injected so tests and the bench can drive it). */
export interface CommandIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  /** The raw arguments (for execution_metadata.yaml). */
  argv: readonly string[];
  /** Aborts the run (Ctrl+C). */
  signal?: AbortSignal;
  version: string;
}

const EXIT_FOR_END: Record<RunEndReason, ExitCode> = {
  completed: ExitCode.success,
  failed: ExitCode.execution,
  timeout: ExitCode.timeout,
  interrupted: ExitCode.interrupted,
};

/**
 * Runs one question end to end.
 * @returns the exit code (0 success, 2 every agent failed, 3 timeout without an answer, 4 interrupted).
 * @throws ConfigError (exit 1) for bad flags, configs, keys or model files, before any agent starts.
 */
export async function runQuestion(
  question: string,
  flags: RunCommandFlags,
  io: CommandIO,
): Promise<number> {
  const { loadEnvFiles } = await import("../config/env.js");
  const env = await loadEnvFiles({ home: io.home, env: io.env });
  const resolved = await resolveConfig(flags, { cwd: io.cwd, home: io.home, env });
  for (const warning of resolved.warnings) io.stderr.write(`coord: warning: ${warning}\n`);
  const { config } = resolved;
  const { mode, agentIndexes } = chooseMode(config, flags);

  let writer: LogWriter | undefined;
  const onRetry = (agentId: string, info: RetryInfo) => {
    const line = `[orchestrator] ${agentId}: ${oneLine(info.error.message, 200)}; retry ${info.attempt} in ${(info.delayMs / 1000).toFixed(1)} s`;
    writer?.debug(line);
    if (!flags.display || io.stderr.isTTY !== true) io.stderr.write(`${line}\n`);
  };
  const backends = await createBackends(config, agentIndexes, { env, cwd: io.cwd, onRetry });
  if (flags.logs && config.ui.logging_enabled)
    writer = await openLog(question, config, flags, io, env);
  try {
    const { runCoordination } = await import("../engine/run.js");
    const events = runCoordination({
      runId: writer ? basename(writer.logDir) : `run_${Date.now()}`,
      question,
      agents: agentIndexes.map((index, position) => {
        const agent = config.agents[index]!;
        return {
          id: agent.id,
          backend: backends[position]!,
          systemMessage: agent.system_message,
          temperature: agent.backend.temperature,
          maxOutputTokens: agent.backend.max_tokens,
        };
      }),
      mode,
      settings: config.orchestrator,
      orchestratorTimeoutMs: config.timeout_settings.orchestrator_timeout_seconds * 1000,
      clock: systemClock,
      ...(io.signal ? { signal: io.signal } : {}),
    });
    const { state, streamedFinal } = await consume(events, { writer, flags, io, config });
    if (writer)
      await writer
        .close()
        .catch((error: Error) => io.stderr.write(`coord: warning: logs: ${error.message}\n`));
    return await finish(state, { flags, io, writer, streamedFinal });
  } finally {
    await Promise.allSettled(backends.map(async (backend) => backend.close?.()));
  }
}

async function createBackends(
  config: Config,
  agentIndexes: readonly number[],
  context: {
    env: Record<string, string | undefined>;
    cwd: string;
    onRetry: (agentId: string, info: RetryInfo) => void;
  },
): Promise<Backend[]> {
  const { createBackend } = await import("../backends/registry.js");
  const { withRetry } = await import("../backends/retry.js");
  const requestTimeoutMs = config.timeout_settings.request_timeout_seconds * 1000;
  const backends: Backend[] = [];
  // Sequential: a missing key or model file fails here, before any agent starts.
  for (const index of agentIndexes) {
    const agent = config.agents[index]!;
    const backend = await createBackend(agent, index, context);
    const onRetry = (info: RetryInfo) => context.onRetry(agent.id, info);
    backends.push(
      backend.type === "scripted"
        ? backend
        : withRetry(backend, { clock: systemClock, requestTimeoutMs, onRetry }),
    );
  }
  return backends;
}

async function openLog(
  question: string,
  config: Config,
  flags: RunCommandFlags,
  io: CommandIO,
  env: Record<string, string | undefined>,
): Promise<LogWriter> {
  const { createLogWriter } = await import("../store/log-writer.js");
  const root = env.COORD_LOG_DIR
    ? resolve(io.cwd, env.COORD_LOG_DIR)
    : join(io.cwd, "agent_outputs");
  let reported = false;
  return createLogWriter({
    root,
    turn: 1,
    attempt: 1,
    now: new Date(),
    coordVersion: io.version,
    question,
    config,
    cliArgs: io.argv,
    debug: flags.debug,
    onError: (error) => {
      if (!reported)
        io.stderr.write(`coord: warning: cannot write the run log: ${error.message}\n`);
      reported = true;
    },
  });
}

/** Feeds every event to the log and the display; returns the final state. */
async function consume(
  events: AsyncIterable<CoordEvent>,
  context: { writer: LogWriter | undefined; flags: RunCommandFlags; io: CommandIO; config: Config },
): Promise<{ state: RunState; streamedFinal: boolean }> {
  const { writer, flags, io } = context;
  const live =
    flags.display && context.config.ui.display_type === "rich_terminal" && io.stderr.isTTY === true;
  const status: LiveStatus | undefined = live ? createLiveStatus(io.stderr) : undefined;
  const lines = createTraceFormatter({ maxTextLength: 400 });
  const streamFinal = status !== undefined && io.stdout.isTTY === true;
  let streamedFinal = false;
  let state = initialRunState();
  for await (const event of events) {
    writer?.write(event);
    state = writer ? writer.state : reduceRun(state, event);
    // Trace lines go to stderr without the live block, and to coord_debug.log with --debug.
    const traced = !status || flags.debug ? lines.push(event) : [];
    if (flags.debug) for (const line of traced) writer?.debug(line);
    if (status) {
      if (event.type === "final-start" || event.type === "final-answer" || event.type === "run-end")
        status.clear();
      else status.update(state);
      if (event.type === "final-start") io.stderr.write(`${summaryLine(state)}\n`);
      if (streamFinal && event.type === "final-delta") {
        io.stdout.write(event.text);
        streamedFinal = true;
      }
    } else {
      for (const line of traced) io.stderr.write(`${line}\n`);
    }
  }
  if (streamedFinal) io.stdout.write("\n");
  return { state, streamedFinal };
}

/** `Winner: a (agent1.1, 3 votes)` — what the user sees before the final answer. */
function summaryLine(state: RunState): string {
  const winner = state.winner;
  if (!winner) return "";
  const agent = state.agents.find((candidate) => candidate.anonId === winner.anonId);
  const votes = winner.basis === "votes" ? `, ${winner.votes}/${state.agents.length} votes` : "";
  return `Winner: ${agent?.id ?? winner.anonId} (${winner.label}${votes}${winner.tieBroken ? ", tie broken" : ""})`;
}

async function finish(
  state: RunState,
  context: {
    flags: RunCommandFlags;
    io: CommandIO;
    writer: LogWriter | undefined;
    streamedFinal: boolean;
  },
): Promise<number> {
  const { flags, io, writer } = context;
  const reason = state.endReason ?? "failed";
  const streamed = context.streamedFinal;
  if (state.finalAnswer !== null && reason === "completed") {
    if (!streamed) io.stdout.write(`${state.finalAnswer}\n`);
    if (flags.outputFile) {
      const path = resolve(io.cwd, flags.outputFile);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `${state.finalAnswer}\n`);
    }
  } else {
    io.stderr.write(`coord: ${failureMessage(state)}\n`);
  }
  if (writer) {
    const where = relative(io.cwd, writer.dir) || writer.dir;
    io.stderr.write(`${flags.display ? "" : "[system] "}Logs: ${where}\n`);
  }
  return EXIT_FOR_END[reason];
}

function failureMessage(state: RunState): string {
  switch (state.endReason) {
    case "interrupted":
      return "interrupted; partial work is in the run log";
    case "timeout":
      return `${state.error ?? "timed out"} (raise timeout_settings.orchestrator_timeout_seconds)`;
    default: {
      const errors = state.agents
        .filter((agent) => agent.lastError)
        .map((agent) => `${agent.id}: ${oneLine(agent.lastError!.message, 200)}`);
      return `every agent failed${errors.length > 0 ? ` — ${errors.join("; ")}` : ""}`;
    }
  }
}
