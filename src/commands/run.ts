/**
 * `coord [OPTIONS] "<question>"`: runs one query and exits (spec section 4.1). Resolves the
 * config, opens a memory session (src/commands/session-turns.ts), runs the team
 * (src/runner/run-team.ts) with the session's history, shows progress (src/commands/run-display.ts:
 * the Ink live view, a live status block, trace lines or `--automation` lines), prints the final
 * answer on stdout and records the turn in the session.
 * Exit codes: ARCHITECTURE.md "Exit codes".
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { EXIT_CODE_FOR_RUN_END } from "../errors.js";
import { withCwdContext, type CwdContext } from "../runner/cwd-context.js";
import { chooseMode, resolveConfig, type RunFlags } from "../runner/resolve-run.js";
import { runTeam, type TeamRunResult } from "../runner/run-team.js";
import { initialRunState, type RunState } from "../session/reducer.js";
import { LOG_FILES, type LogWriter } from "../store/log-writer.js";
import { oneLine } from "../ui/plain/trace-lines.js";
import { createRunDisplay, type RunDisplay } from "./run-display.js";
import {
  closeSession,
  discardSession,
  openSession,
  recordTurn,
  turnLogOptions,
} from "./session-turns.js";

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
  /** `--cwd-context`: the working directory's access for this run. */
  cwdContext?: CwdContext | undefined;
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

/**
 * Runs one question end to end, as a turn of a memory session (a new one, or the one
 * `--session-id` / `session_id:` names, whose history the agents then see).
 * @returns the exit code (0 success, 2 every agent failed, 3 timeout without an answer, 4 interrupted).
 * @throws ConfigError (exit 1) for bad flags, configs, keys or model files, or an unknown
 *   session id, before any agent starts.
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
  const config = withCwdContext(resolved.config, flags.cwdContext ?? "off", io.cwd);
  const { mode, agentIndexes } = chooseMode(config, flags);
  const session = await openSession({
    home: io.home,
    sessionId: flags.sessionId,
    config,
    configPath: resolved.path,
    cwd: io.cwd,
    kind: "single",
  });

  const display = await createRunDisplay(flags, io, config.ui.display_type === "rich_terminal");
  let writer: LogWriter | undefined;
  const startedAt = Date.now();
  let started = false;
  let result: TeamRunResult;
  try {
    result = await runTeam({
      config,
      mode,
      agentIndexes,
      question,
      history: session.history,
      env,
      cwd: io.cwd,
      // The writer reports only its first failure, so this warns once.
      log: await turnLogOptions(session, {
        enabled: flags.logs && config.ui.logging_enabled,
        env,
        cwd: io.cwd,
        version: io.version,
        argv: io.argv,
        debug: flags.debug,
        onError: (error) =>
          io.stderr.write(`coord: warning: cannot write the run log: ${error.message}\n`),
      }),
      ...(io.signal ? { signal: io.signal } : {}),
      onLogOpen: (opened) => {
        writer = opened;
        display.logOpened(opened, question);
      },
      onEvent: (event, current) => {
        started = true;
        display.event(event, current, writer);
      },
      onRetry: (notice) => display.retry(notice, writer),
    });
  } catch (error) {
    await display.close(writer?.state ?? initialRunState());
    if (!started) await discardSession(session);
    else await closeSession(session, "failed").catch(() => undefined);
    throw error;
  }
  const { state, logDir, runDir } = result;
  await display.close(state);
  try {
    await recordTurn(session, { question, state, startedAt, endedAt: Date.now(), logDir, runDir });
    await closeSession(session, state.endReason ?? "failed");
  } catch (error) {
    io.stderr.write(
      `coord: warning: cannot record the session in ${session.store.registryPath}: ${(error as Error).message}\n`,
    );
  }
  return finish(state, {
    flags,
    io,
    logDir,
    display,
    sessionId: session.record.id,
  });
}

async function finish(
  state: RunState,
  context: {
    flags: RunCommandFlags;
    io: CommandIO;
    logDir: string | undefined;
    display: RunDisplay;
    sessionId: string;
  },
): Promise<number> {
  const { flags, io, logDir, display } = context;
  const reason = state.endReason ?? "failed";
  const answered = state.finalAnswer !== null && reason === "completed";
  let answerFile = logDir !== undefined ? join(logDir, LOG_FILES.finalAnswer) : undefined;
  if (answered) {
    if (display.kind !== "automation") {
      if (display.streamedFinal()) io.stdout.write("\n");
      else io.stdout.write(`${state.finalAnswer}\n`);
    }
    if (flags.outputFile) {
      const path = resolve(io.cwd, flags.outputFile);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `${state.finalAnswer}\n`);
      answerFile = path;
    }
  } else {
    io.stderr.write(`coord: ${failureMessage(state)}\n`);
  }
  if (display.automationEnd) {
    display.automationEnd(state, answerFile);
  } else {
    const prefix = display.kind === "plain" ? "[system] " : "";
    if (display.kind === "ink") io.stderr.write("\n");
    if (logDir) io.stderr.write(`${prefix}Logs: ${relative(io.cwd, logDir) || logDir}\n`);
    io.stderr.write(
      `${prefix}Session: ${context.sessionId} (continue: coord --session-id ${context.sessionId})\n`,
    );
  }
  return EXIT_CODE_FOR_RUN_END[reason];
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
