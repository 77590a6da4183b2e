/**
 * Starts a configured team on one question and hands back the live run (docs/architecture.md
 * "One stream"): builds the backends (retries, the request timeout, pricing), opens
 * the run log, starts the engine, and publishes its events into one {@link LiveRun} whose first
 * subscriber is the log writer. Displays, the server's response, web sockets, viewers and
 * tracing subscribe to the same handle. The one composition shared by `coord "<question>"`,
 * the chat, `coord serve` and `logs analyze --mode self`.
 *
 * Every event passes through the process's one redactor (`src/redact.ts`) before it is
 * published, so no subscriber (log, display, HTTP response, web socket, trace, export) ever sees a
 * key: the environment's and the config's key values are registered with it here. Streamed deltas
 * are re-chunked first (`src/store/stream-redactor.ts`), so a key split across chunks is redacted
 * whole.
 */
import { basename, join, resolve } from "node:path";
import { priceDataLabel, type Backend } from "../backends/index.js";
import { systemClock, type Clock } from "../clock.js";
import type { Config } from "../config/index.js";
import type {
  EngineModeName,
  ExecutionSettings,
  HistoryTurn,
  HumanChannel,
  PersonaOptions,
  PlanningSettings,
} from "../engine/index.js";
import type { StopReason } from "../events/index.js";
import {
  createLiveRun,
  type LiveRun,
  type RunState,
  type RunSubscriber,
  type SubscribeOptions,
} from "../session/index.js";
import type { LogWriter } from "../store/index.js";
import type { TeamTools } from "../tools/index.js";
import { runBudgetOf } from "./run-budget.js";
import { openTeamTools, presenterWrites } from "./run-tools.js";
import { redactStrings, registerConfigSecrets, registerEnvSecrets } from "../redact.js";

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
  /** The run's trace id when it is traced (written as `trace_id` in execution_metadata.yaml). */
  traceId?: string | undefined;
  /** Called once with the first log write failure (the run goes on). */
  onError?: (error: Error) => void;
}

/** Options of {@link startRun}. */
export interface StartRunOptions {
  config: Config;
  mode: EngineModeName;
  /** Indexes into `config.agents` of the agents that take part, in config order. */
  agentIndexes: readonly number[];
  question: string;
  /** Earlier turns, oldest first. */
  history?: readonly HistoryTurn[];
  /**
   * Personas of the session's latest turn, by agent id: reused instead of generating new ones
   * when `persona_generator.persist_across_turns` is on and they cover the team.
   */
  personas?: Readonly<Record<string, string>> | undefined;
  /** Added to every agent's system message (e.g. a chat request's system message). */
  extraSystemMessage?: string;
  /** Environment (merged with ~/.config/coord/.env): keys and `COORD_*` settings. */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory: relative model paths and log roots resolve against it. */
  cwd: string;
  log?: RunLogOptions | undefined;
  /**
   * Stops the run from outside; it ends with the reason the abort carries (`RunStopped` from
   * the engine, a `TimeoutError`), else `interrupted`. {@link RunHandle.stop} does the same.
   */
  signal?: AbortSignal;
  /** Time: the engine's timeouts, the retries' backoff and limits, the log. Default the system clock. */
  clock?: Clock;
  /**
   * `fetch` for every request of a hosted provider's backend (tests pass one that gates a
   * virtual clock: test/support/io-gate.ts). Default the global `fetch`.
   */
  fetch?: typeof fetch | undefined;
  /** Subscribers attached before the first event (in this order, after the log writer). */
  subscribers?: readonly RunSubscriber[];
  /** Told when a subscriber throws (it is detached; the run goes on). */
  onSubscriberError?: (error: unknown) => void;
  /** Mode `planning`: `--plan-depth`, `--plan-steps`, `--plan-chunks`, `--broadcast`. */
  planning?: PlanningSettings | undefined;
  /** Mode `execution`: the plan and the chunk to execute. */
  execution?: ExecutionSettings | undefined;
  /** Where the user answers the agents' questions (`--broadcast human`). */
  human?: HumanChannel | undefined;
  /** A folder copied into every agent's workspace before the run (a plan's result so far). */
  workspaceSeed?: string | undefined;
}

/** A finished run. */
export interface TeamRunResult {
  state: RunState;
  /** The attempt directory (`…/turn_<n>/attempt_<n>`), when logging. */
  logDir?: string | undefined;
  /** The `log_<YYYYMMDD>_<HHMMSS>` directory, when logging. */
  runDir?: string | undefined;
}

/** A started run. */
export interface RunHandle {
  /** The live run: its state, its events so far, and subscriptions. */
  readonly live: LiveRun;
  /** The run's log writer, when logging (for `coord_debug.log` lines). */
  readonly writer: LogWriter | undefined;
  /** The attempt directory and the `log_…` directory, when logging. */
  readonly logDir: string | undefined;
  readonly runDir: string | undefined;
  /**
   * Each agent's live workspace (agent id → absolute path of `.coord/workspaces/<run>/<name>/`,
   * docs/tools.md "Workspaces"), for agents that have one; empty when none has.
   */
  readonly workspaces: Readonly<Record<string, string>>;
  /** Attaches a subscriber (by default it first catches up from the start). */
  subscribe(subscriber: RunSubscriber, options?: SubscribeOptions): () => void;
  /** Stops the run; it ends with `run-end` of this reason (idempotent). */
  stop(reason: StopReason): void;
  /**
   * Resolves once the run ended and its log is closed and its backends released. Never rejects
   * for agent or provider failures (the state's `endReason` says how the run ended).
   */
  readonly done: Promise<TeamRunResult>;
}

/** Default log root: `COORD_LOG_DIR`, else `agent_outputs` in `cwd`. */
export function defaultLogRoot(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  return env.COORD_LOG_DIR ? resolve(cwd, env.COORD_LOG_DIR) : join(cwd, "agent_outputs");
}

/**
 * Builds the backends, opens the log and starts the engine.
 * @throws ConfigError before any agent starts: a missing key or model file, an unusable backend.
 * @throws the file system error when the log directory cannot be created.
 */
export async function startRun(options: StartRunOptions): Promise<RunHandle> {
  const clock = options.clock ?? systemClock;
  registerEnvSecrets(options.env);
  registerConfigSecrets(options.config);
  const tools = await openTeamTools({
    ...options,
    clock,
    logRoot: options.log ? resolve(options.cwd, options.log.root) : undefined,
  });
  let backends: Backend[] = [];
  let writer: LogWriter | undefined;
  try {
    backends = await createBackends(options, clock, tools);
    if (options.log) writer = await openLog(options, clock);
  } catch (error) {
    await closeBackends(backends);
    await tools?.discard();
    throw error;
  }
  if (writer) tools?.workspaces?.attachLog(writer.dir);
  // Before the first model call: the servers' tools are in every request from the start.
  await tools?.startMcp();
  const { runCoordination, RunStopped, stopDetailOf, stopReasonOf } =
    await import("../engine/index.js");
  // A key streamed in pieces is redacted whole before any subscriber sees a piece.
  const { createStreamRedactor } = await import("../store/stream-redactor.js");
  const chunks = createStreamRedactor();
  const stopper = new AbortController();
  const stop = (reason: StopReason, detail?: string) => {
    if (!stopper.signal.aborted) stopper.abort(new RunStopped(reason, detail));
  };
  const external = options.signal;
  const forward = () => stop(stopReasonOf(external!), stopDetailOf(external!));
  if (external?.aborted) forward();
  else external?.addEventListener("abort", forward, { once: true });

  const live = createLiveRun(
    options.onSubscriberError ? { onSubscriberError: options.onSubscriberError } : {},
  );
  if (writer) {
    const log = writer;
    live.subscribe((event, state) => log.write(event, state));
  }
  for (const subscriber of options.subscribers ?? []) live.subscribe(subscriber);

  const { config } = options;
  const extra = options.extraSystemMessage;
  const events = runCoordination({
    runId: writer ? basename(writer.logDir) : `run_${clock.now()}`,
    question: options.question,
    history: options.history ?? [],
    agents: options.agentIndexes.map((index, position) => {
      const agent = config.agents[index]!;
      const own = tools?.agents[position];
      const system = [agent.system_message, own?.systemNote, extra]
        .filter((part) => part !== undefined && part !== "")
        .join("\n\n");
      return {
        id: agent.id,
        backend: backends[position]!,
        systemMessage: system === "" ? undefined : system,
        subtask: agent.subtask,
        temperature: agent.backend.temperature,
        maxOutputTokens: agent.backend.max_tokens,
        tools: own?.tools,
        workspace: own?.workspace,
      };
    }),
    mode: options.mode,
    settings: {
      ...config.orchestrator,
      ...(options.planning ? { planning: options.planning } : {}),
      ...(options.execution ? { execution: options.execution } : {}),
    },
    ...(options.human ? { human: options.human } : {}),
    personas: personaOptions(options, backends[options.agentIndexes.length]),
    budget: runBudgetOf(config.budget),
    orchestratorTimeoutMs: config.timeout_settings.orchestrator_timeout_seconds * 1000,
    stragglerTimeoutMs: config.timeout_settings.straggler_timeout_seconds * 1000,
    clock,
    signal: stopper.signal,
    ...(tools ? { notices: tools.notices } : {}),
    presenterWrites: presenterWrites(config),
  });

  const done = (async (): Promise<TeamRunResult> => {
    try {
      for await (const event of events) {
        for (const next of chunks.push(event)) live.publish(redactStrings(next));
      }
      for (const next of chunks.flush()) live.publish(redactStrings(next));
      live.end();
    } catch (error) {
      for (const next of chunks.flush()) live.publish(redactStrings(next));
      live.end(error);
      throw error;
    } finally {
      external?.removeEventListener("abort", forward);
      // Failures were reported through the log options' onError.
      if (writer) await writer.close().catch(() => undefined);
      await closeBackends(backends);
      await tools?.close();
    }
    return { state: live.state, logDir: writer?.dir, runDir: writer?.logDir };
  })();

  return {
    live,
    writer,
    logDir: writer?.dir,
    runDir: writer?.logDir,
    workspaces: liveWorkspaces(config, options.agentIndexes, tools),
    subscribe: (subscriber, subscribeOptions) => live.subscribe(subscriber, subscribeOptions),
    stop,
    done,
  };
}

function liveWorkspaces(
  config: Config,
  agentIndexes: readonly number[],
  tools: TeamTools | undefined,
): Record<string, string> {
  const found: Record<string, string> = {};
  for (const index of agentIndexes) {
    const id = config.agents[index]!.id;
    const path = tools?.workspaces?.workspaceOf(id);
    if (path !== undefined) found[id] = path;
  }
  return found;
}

async function openLog(options: StartRunOptions, clock: Clock): Promise<LogWriter> {
  const log = options.log!;
  const { createLogWriter } = await import("../store/log-writer.js");
  return createLogWriter({
    root: resolve(options.cwd, log.root),
    ...(log.logDir !== undefined ? { logDir: log.logDir } : {}),
    turn: log.turn ?? 1,
    attempt: log.attempt ?? 1,
    now: new Date(clock.now()),
    coordVersion: log.coordVersion,
    question: options.question,
    config: options.config,
    cliArgs: log.cliArgs,
    debug: log.debug,
    ...(log.traceId !== undefined ? { traceId: log.traceId } : {}),
    priceData: priceDataLabel(),
    clock,
    ...(log.onError ? { onError: log.onError } : {}),
  });
}

/** The engine's persona options: none unless `persona_generator.enabled` (or `--personas`). */
function personaOptions(
  options: StartRunOptions,
  ownBackend: Backend | undefined,
): PersonaOptions | undefined {
  const generator = options.config.orchestrator.coordination.persona_generator;
  if (!generator.enabled) return undefined;
  return {
    diversityMode: generator.diversity_mode,
    guidelines: generator.persona_guidelines,
    backend: ownBackend,
    reuse: generator.persist_across_turns ? options.personas : undefined,
  };
}

async function closeBackends(backends: readonly Backend[]): Promise<void> {
  await Promise.allSettled(backends.map(async (backend) => backend.close?.()));
}

/**
 * The agents' backends in `agentIndexes` order (each given its file tools when the team has
 * them), then the persona generator's own backend when `persona_generator` is enabled with a
 * `backend:` of its own.
 */
async function createBackends(
  options: StartRunOptions,
  clock: Clock,
  tools: TeamTools | undefined,
): Promise<Backend[]> {
  const { createBackend, createBackendAt } = await import("../backends/registry.js");
  const { withRetry } = await import("../backends/retry.js");
  const { withPricing } = await import("../backends/with-pricing.js");
  const { config } = options;
  const timeouts = config.timeout_settings;
  const retryTimeouts = {
    requestTimeoutMs: timeouts.request_timeout_seconds * 1000,
    firstByteTimeoutMs: timeouts.first_byte_timeout_seconds * 1000,
    streamIdleTimeoutMs: timeouts.stream_idle_timeout_seconds * 1000,
  };
  // The clock also dates a `Retry-After` given as a date.
  const context = {
    env: options.env,
    cwd: options.cwd,
    clock,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  const backends: Backend[] = [];
  try {
    // One after another: a missing key or model file fails here, before any agent starts.
    for (const [position, index] of options.agentIndexes.entries()) {
      const agent = config.agents[index]!;
      const files = tools?.agents[position]?.files;
      const backend = await createBackend(agent, index, {
        ...context,
        ...(files ? { files } : {}),
      });
      // A script is exact: never retried; it costs 0 by definition. Others are priced outside
      // the retries (only the call that finished is billed), by the agent's backend config.
      const pricing = { config: agent.backend, clock };
      backends.push(
        backend.type === "scripted"
          ? withPricing(backend, pricing)
          : withPricing(withRetry(backend, { clock, ...retryTimeouts }), pricing),
      );
    }
    const generator = config.orchestrator.coordination.persona_generator;
    if (generator.enabled && generator.backend !== undefined) {
      const path = "orchestrator.coordination.persona_generator";
      const backend = await createBackendAt(
        { id: "persona_generator", backend: generator.backend },
        { where: path, path: `${path}.backend` },
        context,
      );
      const pricing = { config: generator.backend, clock };
      backends.push(
        backend.type === "scripted"
          ? withPricing(backend, pricing)
          : withPricing(withRetry(backend, { clock, ...retryTimeouts }), pricing),
      );
    }
  } catch (error) {
    await closeBackends(backends);
    throw error;
  }
  return backends;
}
