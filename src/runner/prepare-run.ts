/**
 * From flags to a run ready to start, the one sequence every entry point shares (the single
 * question, the chat, `coord serve`, `logs analyze --mode self`): the environment (with
 * `~/.config/coord/.env` under it), the config (quick setup, `--config`, or discovery), the
 * working-directory context, the run budget flags, the coordination mode and the agents that
 * take part; then the run log's options. Spec sections 1 and 4.1; docs/coordination.md "Other
 * modes".
 */
import type { Config } from "../config/index.js";
import { ConfigError } from "../errors.js";
import type { EngineModeName } from "../engine/index.js";
import { withCwdContext, type CwdContext } from "./cwd-context.js";
import { chooseMode, resolveConfig, type RunFlags, withPersonasFlag } from "./resolve-run.js";
import { withBudgetFlags } from "./run-budget.js";
import { defaultLogRoot, type RunLogOptions } from "./start-run.js";

/** Environment variables, as `process.env`. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Where the run is prepared. */
export interface PrepareContext {
  cwd: string;
  home: string;
  /** The process environment. */
  env: Env;
  /** True when `env` already has `~/.config/coord/.env` merged in (a server loads it once). */
  envLoaded?: boolean;
}

/** The flags {@link prepareRun} reads. */
export interface PrepareFlags extends RunFlags {
  /** `--cwd-context`: the working directory's access for this run. */
  cwdContext?: CwdContext | undefined;
  /** `--session-id`: when given, the config's `session_id:` is not the session to check. */
  sessionId?: string | undefined;
}

/** A run ready to start with `startRun`. */
export interface PreparedRun {
  /** The environment with `~/.config/coord/.env` under it (the environment wins). */
  env: Env;
  /** The config as loaded, before the working-directory context (the chat changes it per turn). */
  baseConfig: Config;
  /** The config to run: `baseConfig` with the working-directory context applied. */
  config: Config;
  /** Absolute path of the config file; undefined for quick setup. */
  configPath: string | undefined;
  /** Load warnings (unknown keys, ignored flags), one line each. */
  warnings: string[];
  mode: EngineModeName;
  /** Indexes into `config.agents` of the agents that take part, in config order. */
  agentIndexes: number[];
}

/**
 * Loads the environment and the config, and chooses the mode and agents.
 * @throws ConfigError (exit 1) for conflicting flags, an unreadable or invalid config, no config
 *   at all, an unknown `--single-agent` id, coordination mode
 *   or `--personas` value.
 */
export async function prepareRun(
  flags: PrepareFlags,
  context: PrepareContext,
): Promise<PreparedRun> {
  let env = context.env;
  if (context.envLoaded !== true) {
    const { loadEnvFiles } = await import("../config/env.js");
    env = await loadEnvFiles({ home: context.home, env: context.env });
  }
  const resolved = await resolveConfig(flags, { cwd: context.cwd, home: context.home, env });
  if (flags.sessionId === undefined && resolved.config.session_id !== undefined) {
    await checkConfigSession(resolved.config.session_id, resolved.path, context.home);
  }
  const baseConfig = withBudgetFlags(withPersonasFlag(resolved.config, flags.personas), flags);
  const config = withCwdContext(baseConfig, flags.cwdContext ?? "off", context.cwd);
  return {
    env,
    baseConfig,
    config,
    configPath: resolved.path,
    warnings: resolved.warnings,
    ...chooseMode(config, flags),
  };
}

/**
 * A `session_id:` key of the config must name a session in the registry: reported as the config
 * key (not as `--session-id`, which was not given), with the most recent ids. A registry that
 * cannot be read is left to the command that opens the session.
 * @throws ConfigError for an unknown id.
 */
async function checkConfigSession(
  id: string,
  configPath: string | undefined,
  home: string,
): Promise<void> {
  const { createSessionStore } = await import("../sessions/index.js");
  const store = createSessionStore({ home });
  let recent: string[];
  try {
    if (await store.get(id)) return;
    recent = (await store.list()).slice(0, 5).map((session) => session.id);
  } catch {
    return;
  }
  throw new ConfigError(
    `session_id: ${id} (in ${configPath ?? "the config"}): no such session in ${store.registryPath}; ` +
      (recent.length === 0
        ? "there are no sessions yet: remove session_id from the config to start one"
        : `recent sessions: ${recent.join(", ")} (coord --list-sessions shows all)`),
    { ...(configPath !== undefined ? { file: configPath } : {}), path: "session_id" },
  );
}

/** What a command knows about its run log: from its flags and its IO. */
export interface LogFlags {
  /** False for `--no-logs`. */
  enabled: boolean;
  cwd: string;
  version: string;
  /** The raw arguments, for execution_metadata.yaml. */
  argv: readonly string[];
  debug: boolean;
  /** The run's trace id, when traced (execution_metadata.yaml `trace_id`; docs/tracing.md). */
  traceId?: string | undefined;
  /** Told once of the first log write failure (the run goes on). */
  onError?: ((error: Error) => void) | undefined;
}

/**
 * The run log's options, or undefined for no log (`--no-logs`, `ui.logging_enabled: false`).
 * @param options.logDir write into this existing `log_…` directory (a later turn of a session).
 * @param options.turn the 1-based turn number; default 1.
 */
export function runLogOptions(
  prepared: Pick<PreparedRun, "env" | "config">,
  options: LogFlags & {
    /** The log root; default `COORD_LOG_DIR`, else `agent_outputs` in `cwd`. */
    root?: string | undefined;
    logDir?: string | undefined;
    turn?: number | undefined;
  },
): RunLogOptions | undefined {
  if (!options.enabled || !prepared.config.ui.logging_enabled) return undefined;
  return {
    root: options.root ?? defaultLogRoot(prepared.env, options.cwd),
    ...(options.logDir !== undefined ? { logDir: options.logDir } : {}),
    ...(options.turn !== undefined ? { turn: options.turn } : {}),
    coordVersion: options.version,
    cliArgs: options.argv,
    debug: options.debug,
    ...(options.traceId !== undefined ? { traceId: options.traceId } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  };
}
