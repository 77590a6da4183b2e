/**
 * `coord [OPTIONS] "<question>"`: runs one query and exits (spec section 4.1). Resolves the
 * config, runs the team (src/runner/run-team.ts), shows progress on stderr — a live status
 * block in a terminal, plain trace lines otherwise — and prints the final answer on stdout.
 * Exit codes: ARCHITECTURE.md "Exit codes".
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { ExitCode } from "../errors.js";
import type { CoordEvent, RunEndReason } from "../events/events.js";
import { defaultLogRoot, runTeam, type RetryNotice } from "../runner/run-team.js";
import type { RunState } from "../session/reducer.js";
import type { LogWriter } from "../store/log-writer.js";
import { createLiveStatus, type LiveStatus } from "../ui/plain/live-status.js";
import { createTraceFormatter, oneLine } from "../ui/plain/trace-lines.js";
import { chooseMode, resolveConfig, type RunFlags } from "../runner/resolve-run.js";

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

  const display = createDisplay(flags, io, config.ui.display_type === "rich_terminal");
  let writer: LogWriter | undefined;
  let reportedLogError = false;
  const { state, logDir } = await runTeam({
    config,
    mode,
    agentIndexes,
    question,
    env,
    cwd: io.cwd,
    log:
      flags.logs && config.ui.logging_enabled
        ? {
            root: defaultLogRoot(env, io.cwd),
            coordVersion: io.version,
            cliArgs: io.argv,
            debug: flags.debug,
            onError: (error) => {
              if (!reportedLogError)
                io.stderr.write(`coord: warning: cannot write the run log: ${error.message}\n`);
              reportedLogError = true;
            },
          }
        : undefined,
    ...(io.signal ? { signal: io.signal } : {}),
    onLogOpen: (opened) => (writer = opened),
    onEvent: (event, current) => display.event(event, current, writer),
    onRetry: (notice) => display.retry(notice, writer),
  });
  return finish(state, { flags, io, logDir, streamedFinal: display.streamedFinal() });
}

/** Progress on stderr: the live block on a TTY, trace lines otherwise; `--debug` mirrors them. */
function createDisplay(flags: RunCommandFlags, io: CommandIO, rich: boolean) {
  const live = flags.display && rich && io.stderr.isTTY === true;
  const status: LiveStatus | undefined = live ? createLiveStatus(io.stderr) : undefined;
  const lines = createTraceFormatter({ maxTextLength: 400 });
  const streamFinal = status !== undefined && io.stdout.isTTY === true;
  let streamedFinal = false;
  return {
    event(event: CoordEvent, state: RunState, writer: LogWriter | undefined) {
      const traced = !status || flags.debug ? lines.push(event) : [];
      if (flags.debug) for (const line of traced) writer?.debug(line);
      if (!status) {
        for (const line of traced) io.stderr.write(`${line}\n`);
        return;
      }
      if (
        event.type === "final-start" ||
        event.type === "final-answer" ||
        event.type === "run-end"
      ) {
        status.clear();
      } else {
        status.update(state);
      }
      if (event.type === "final-start") io.stderr.write(`${winnerLine(state)}\n`);
      if (streamFinal && event.type === "final-delta") {
        io.stdout.write(event.text);
        streamedFinal = true;
      }
    },
    retry(notice: RetryNotice, writer: LogWriter | undefined) {
      const line = `[orchestrator] ${notice.agentId}: ${oneLine(notice.error.message, 200)}; retry ${notice.attempt} in ${(notice.delayMs / 1000).toFixed(1)} s`;
      writer?.debug(line);
      if (!status) io.stderr.write(`${line}\n`);
    },
    streamedFinal: () => streamedFinal,
  };
}

/** `Winner: a (agent1.1, 3/3 votes)`: what the user sees before the final answer. */
function winnerLine(state: RunState): string {
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
    logDir: string | undefined;
    streamedFinal: boolean;
  },
): Promise<number> {
  const { flags, io, logDir } = context;
  const reason = state.endReason ?? "failed";
  if (state.finalAnswer !== null && reason === "completed") {
    if (context.streamedFinal) io.stdout.write("\n");
    else io.stdout.write(`${state.finalAnswer}\n`);
    if (flags.outputFile) {
      const path = resolve(io.cwd, flags.outputFile);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `${state.finalAnswer}\n`);
    }
  } else {
    io.stderr.write(`coord: ${failureMessage(state)}\n`);
  }
  if (logDir) {
    const where = relative(io.cwd, logDir) || logDir;
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
