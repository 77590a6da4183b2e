/**
 * Runs a configured team on one question: builds the backends (with retries, the request
 * timeout and pricing), opens the run log, runs the engine, writes every event to the log as it happens,
 * and hands each event with the reducer's state to the caller. The one composition shared by
 * `coord "<question>"`, `coord serve`, interactive turns and `logs analyze --mode self`.
 */
import { basename, join, resolve } from "node:path";
import type { Backend, BackendError } from "../backends/backend.js";
import { systemClock, type Clock } from "../clock.js";
import type { Config } from "../config/schema.js";
import type { HistoryTurn } from "../engine/prompts.js";
import type { CoordEvent } from "../events/events.js";
import { initialRunState, reduceRun, type RunState } from "../session/reducer.js";
import type { LogWriter } from "../store/log-writer.js";

/** What the retry wrapper reports before each wait. */
export interface RetryNotice {
  agentId: string;
  /** 1-based retry number. */
  attempt: number;
  /** Wait before the retry (ms). */
  delayMs: number;
  error: BackendError;
}

/** Where and how to write the run log; omit for no log (`--no-logs`). */
export interface RunLogOptions {
  /** Log root (`agent_outputs`, or `COORD_LOG_DIR`), absolute or relative to `cwd`. */
  root: string;
  /** Write into this existing `log_…` directory (a later turn of a session). */
  logDir?: string;
  /** 1-based; default 1. */
  turn?: number;
  attempt?: number;
  coordVersion: string;
  /** Command-line arguments for execution_metadata.yaml (secrets are redacted). */
  cliArgs: readonly string[];
  /** Also write coord_debug.log. */
  debug: boolean;
  /** Called once with the first log write failure (the run goes on). */
  onError?: (error: Error) => void;
}

/** Options of {@link runTeam}. */
export interface RunTeamOptions {
  config: Config;
  mode: "voting" | "quick" | "single";
  /** Indexes into `config.agents` of the agents that take part, in config order. */
  agentIndexes: readonly number[];
  question: string;
  /** Earlier turns, oldest first. */
  history?: readonly HistoryTurn[];
  /** Added to every agent's system message (e.g. a chat request's system message). */
  extraSystemMessage?: string;
  /** Environment (merged with ~/.config/coord/.env): keys and `COORD_*` settings. */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory: relative model paths and log roots resolve against it. */
  cwd: string;
  log?: RunLogOptions | undefined;
  /** Aborts the run (Ctrl+C, a client that went away); it ends as `interrupted`. */
  signal?: AbortSignal;
  clock?: Clock;
  /** Called for every event, after it was logged, with the state it leads to. */
  onEvent?: (event: CoordEvent, state: RunState) => void;
  /** Called before each provider retry. */
  onRetry?: (notice: RetryNotice) => void;
  /** Called once the log is open (before the first event), with the writer. */
  onLogOpen?: (writer: LogWriter) => void;
}

/** A finished run. */
export interface TeamRunResult {
  state: RunState;
  /** The attempt directory (`…/turn_<n>/attempt_<n>`), when logging. */
  logDir?: string | undefined;
  /** The `log_<YYYYMMDD>_<HHMMSS>` directory, when logging. */
  runDir?: string | undefined;
}

/** Default log root: `COORD_LOG_DIR`, else `agent_outputs` in `cwd`. */
export function defaultLogRoot(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  return env.COORD_LOG_DIR ? resolve(cwd, env.COORD_LOG_DIR) : join(cwd, "agent_outputs");
}

/**
 * Runs the team to the end. Never throws for agent or provider failures: they are events, and
 * the returned state's `endReason` says how the run ended.
 * @throws ConfigError before any agent starts: a missing key or model file, an unusable backend.
 */
export async function runTeam(options: RunTeamOptions): Promise<TeamRunResult> {
  const clock = options.clock ?? systemClock;
  const backends = await createBackends(options, clock);
  let writer: LogWriter | undefined;
  try {
    if (options.log) {
      const { createLogWriter } = await import("../store/log-writer.js");
      writer = await createLogWriter({
        root: resolve(options.cwd, options.log.root),
        ...(options.log.logDir !== undefined ? { logDir: options.log.logDir } : {}),
        turn: options.log.turn ?? 1,
        attempt: options.log.attempt ?? 1,
        now: new Date(clock.now()),
        coordVersion: options.log.coordVersion,
        question: options.question,
        config: options.config,
        cliArgs: options.log.cliArgs,
        debug: options.log.debug,
        clock,
        ...(options.log.onError ? { onError: options.log.onError } : {}),
      });
      options.onLogOpen?.(writer);
    }
    const { runCoordination } = await import("../engine/run.js");
    const { config } = options;
    const extra = options.extraSystemMessage;
    const events = runCoordination({
      runId: writer ? basename(writer.logDir) : `run_${clock.now()}`,
      question: options.question,
      history: options.history ?? [],
      agents: options.agentIndexes.map((index, position) => {
        const agent = config.agents[index]!;
        const system = [agent.system_message, extra]
          .filter((part) => part !== undefined && part !== "")
          .join("\n\n");
        return {
          id: agent.id,
          backend: backends[position]!,
          systemMessage: system === "" ? undefined : system,
          temperature: agent.backend.temperature,
          maxOutputTokens: agent.backend.max_tokens,
        };
      }),
      mode: options.mode,
      settings: config.orchestrator,
      orchestratorTimeoutMs: config.timeout_settings.orchestrator_timeout_seconds * 1000,
      clock,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let state = initialRunState();
    for await (const event of events) {
      if (writer) {
        writer.write(event);
        state = writer.state;
      } else {
        state = reduceRun(state, event);
      }
      options.onEvent?.(event, state);
    }
    if (writer) await writer.close().catch(() => undefined); // failures were reported through onError
    return { state, logDir: writer?.dir, runDir: writer?.logDir };
  } finally {
    await Promise.allSettled(backends.map(async (backend) => backend.close?.()));
  }
}

async function createBackends(options: RunTeamOptions, clock: Clock): Promise<Backend[]> {
  const { createBackend } = await import("../backends/registry.js");
  const { withRetry } = await import("../backends/retry.js");
  const { withPricing } = await import("../backends/with-pricing.js");
  const { config } = options;
  const requestTimeoutMs = config.timeout_settings.request_timeout_seconds * 1000;
  const backends: Backend[] = [];
  try {
    await addBackends();
  } catch (error) {
    await Promise.allSettled(backends.map(async (backend) => backend.close?.()));
    throw error;
  }
  return backends;

  async function addBackends(): Promise<void> {
    // One after another: a missing key or model file fails here, before any agent starts.
    for (const index of options.agentIndexes) {
      const agent = config.agents[index]!;
      const backend = await createBackend(agent, index, { env: options.env, cwd: options.cwd });
      if (backend.type === "scripted") {
        backends.push(backend); // a script is exact: never retried; it has no price (cost unknown)
        continue;
      }
      // Priced outside the retries: only the call that finished is billed.
      backends.push(
        withPricing(
          withRetry(backend, {
            clock,
            requestTimeoutMs,
            onRetry: (info) => options.onRetry?.({ agentId: agent.id, ...info }),
          }),
        ),
      );
    }
  }
}
