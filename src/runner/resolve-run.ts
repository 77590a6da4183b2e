/**
 * From command-line flags to a runnable team: which config (quick setup, `--config`, or
 * discovery), which coordination mode, and which agents. Spec section 1 "Configuration
 * discovery", section 4.1, section 7; docs/coordination.md "Other modes".
 */
import type { Config } from "../config/index.js";
import type { EngineModeName } from "../engine/index.js";
import { ConfigError } from "../errors.js";
import type { BudgetFlags } from "./run-budget.js";

/** The flags of `coord [OPTIONS] "<question>"` this module reads. */
export interface RunFlags extends BudgetFlags {
  config?: string | undefined;
  backend?: string | undefined;
  model?: string | undefined;
  /** `--base-url URL`: quick setup against an OpenAI-compatible server (`chatcompletion`). */
  baseUrl?: string | undefined;
  systemMessage?: string | undefined;
  /** `--single-agent [ID]`: `true` when given without an id. */
  singleAgent?: string | boolean | undefined;
  quick?: boolean | undefined;
  coordinationMode?: string | undefined;
  /** `--personas MODE`: a diversity mode, or `off`. */
  personas?: string | undefined;
  /**
   * `--output-file PATH`: where each final answer is also written, in every mode
   * (./output-file.ts says what the file holds in each).
   */
  outputFile?: string | undefined;
}

/** A config ready to run, with where it came from and what to warn about. */
export interface ResolvedConfig {
  config: Config;
  /** Absolute path of the config file; undefined for quick setup. */
  path: string | undefined;
  warnings: string[];
}

/**
 * Loads the config the flags name: quick setup (`--backend`/`--model`), `--config PATH` (or
 * `@examples/NAME`), else `.coord/config.yaml`, else `~/.config/coord/config.yaml`.
 * @throws ConfigError for `--model` with `--config`, an unreadable or invalid config, no config at
 *   all (with the message saying how to create one).
 */
export async function resolveConfig(
  flags: RunFlags,
  context: { cwd: string; home: string; env: Readonly<Record<string, string | undefined>> },
): Promise<ResolvedConfig> {
  const config = await import("../config/index.js");
  const warnings = config.checkFlagConflicts({
    ...(flags.config !== undefined ? { config: flags.config } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.backend !== undefined ? { backend: flags.backend } : {}),
    ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
    ...(flags.systemMessage !== undefined ? { systemMessage: flags.systemMessage } : {}),
  });
  if (
    flags.config === undefined &&
    (flags.backend !== undefined || flags.model !== undefined || flags.baseUrl !== undefined)
  ) {
    const quick = await quickSetup({
      ...(flags.backend !== undefined ? { backend: flags.backend } : {}),
      ...(flags.model !== undefined ? { model: flags.model } : {}),
      ...(flags.baseUrl !== undefined ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.systemMessage !== undefined ? { systemMessage: flags.systemMessage } : {}),
    });
    return { ...quick, warnings: [...warnings, ...quick.warnings] };
  }
  const path =
    flags.config !== undefined
      ? flags.config
      : await config.discoverConfig({ cwd: context.cwd, home: context.home });
  if (path === undefined) throw new ConfigError(config.noConfigMessage());
  const loaded = await loadNamedConfig(path, context);
  return { ...loaded, warnings: [...warnings, ...loaded.warnings] };
}

/**
 * Loads a config file by path (relative to `cwd`) or `@examples/NAME`, and checks that this
 * version can run its backends.
 * @throws ConfigError for an unreadable or invalid file.
 */
export async function loadNamedConfig(
  configArg: string,
  context: { cwd: string; env: Readonly<Record<string, string | undefined>> },
): Promise<ResolvedConfig & { path: string }> {
  const config = await import("../config/index.js");
  const loaded = await config.loadConfigFile(config.resolveConfigPath(configArg, context.cwd), {
    env: context.env,
    cwd: context.cwd,
  });
  return {
    config: loaded.config,
    path: loaded.path,
    warnings: loaded.warnings.map((warning) => warning.message),
  };
}

/**
 * The one-agent config of quick setup (`--backend TYPE --model NAME`, or a served
 * `<backend>/<model>`). `--backend local` without `--model` runs the shipped tiny model
 * (`models/stories260K.gguf`, see default-model.ts).
 * @throws ConfigError for an unknown backend or a missing model.
 */
export async function quickSetup(flags: {
  backend?: string;
  model?: string;
  baseUrl?: string;
  systemMessage?: string;
}): Promise<ResolvedConfig> {
  const config = await import("../config/index.js");
  if (flags.backend === "local" && flags.model === undefined) {
    const { defaultLocalModelPath } = await import("./default-model.js");
    flags = { ...flags, model: defaultLocalModelPath() };
  }
  return { config: config.quickSetupConfig(flags), path: undefined, warnings: [] };
}

/**
 * Whether a `--single-agent VALUE` given without a question names an agent of the config the
 * flags select (`coord --single-agent "go"` asks "go" when no agent is called `go`).
 * A config that cannot be loaded counts as naming it: the run then reports that error itself.
 */
export async function namesConfigAgent(
  flags: RunFlags,
  id: string,
  context: { cwd: string; home: string; env: Readonly<Record<string, string | undefined>> },
): Promise<boolean> {
  try {
    const { config } = await resolveConfig(flags, context);
    return config.agents.some((agent) => agent.id === id);
  } catch {
    return true;
  }
}

/** The mode and the agents (by index) that take part. */
export interface ModeChoice {
  mode: EngineModeName;
  /** Indexes into `config.agents`, in config order. */
  agentIndexes: number[];
}

/** Values of `--coordination-mode` (and `orchestrator.coordination_mode`). */
const COORDINATION_MODES = ["voting", "decomposition"] as const;

/**
 * Chooses the coordination mode: `--single-agent [ID]` (first agent by default), `--quick`, a
 * one-agent config (single), else `--coordination-mode` / `orchestrator.coordination_mode`
 * (voting or decomposition).
 * @throws ConfigError for an unknown `--single-agent` id (listing the ids), an unknown
 *   coordination mode, or `--quick` with decomposition (decomposition refines until each agent
 *   stops; refine off has no meaning there).
 */
export function chooseMode(config: Config, flags: RunFlags): ModeChoice {
  const coordinationMode = flags.coordinationMode ?? config.orchestrator.coordination_mode;
  if (!(COORDINATION_MODES as readonly string[]).includes(coordinationMode)) {
    throw new ConfigError(
      `--coordination-mode ${coordinationMode}: expected one of ${COORDINATION_MODES.join(", ")}`,
    );
  }
  if (flags.singleAgent !== undefined && flags.singleAgent !== false) {
    const id = typeof flags.singleAgent === "string" ? flags.singleAgent : undefined;
    const index = id === undefined ? 0 : config.agents.findIndex((agent) => agent.id === id);
    if (index < 0) {
      const ids = config.agents.map((agent) => agent.id).join(", ");
      throw new ConfigError(
        `--single-agent ${id}: no agent with that id; the config's agents are: ${ids} (to ask "${id}" with the first agent: coord --single-agent -- "${id}")`,
      );
    }
    return { mode: "single", agentIndexes: [index] };
  }
  const all = config.agents.map((_, index) => index);
  if (flags.quick && coordinationMode === "decomposition") {
    throw new ConfigError(
      "--quick (refine off) does not go with coordination_mode decomposition, where each agent refines its part until it stops: drop --quick, or use --coordination-mode voting",
    );
  }
  if (flags.quick) return { mode: "quick", agentIndexes: all };
  if (config.agents.length === 1) return { mode: "single", agentIndexes: all };
  return { mode: coordinationMode as (typeof COORDINATION_MODES)[number], agentIndexes: all };
}

/** Values of `--personas`: a diversity mode, or `off`. */
export const PERSONA_FLAG_VALUES = ["perspective", "implementation", "methodology", "off"] as const;

/**
 * The config with `--personas MODE` applied: a diversity mode turns
 * `orchestrator.coordination.persona_generator` on in that mode (its other keys kept); `off`
 * turns it off. Without the flag the config is returned as is.
 * @throws ConfigError for a value that is not one of {@link PERSONA_FLAG_VALUES}.
 */
export function withPersonasFlag(config: Config, personas: string | undefined): Config {
  if (personas === undefined) return config;
  if (!(PERSONA_FLAG_VALUES as readonly string[]).includes(personas)) {
    throw new ConfigError(
      `--personas ${personas}: expected one of ${PERSONA_FLAG_VALUES.join(", ")}`,
    );
  }
  const coordination = config.orchestrator.coordination;
  const current = coordination.persona_generator;
  const generator =
    personas === "off"
      ? { ...current, enabled: false }
      : {
          ...current,
          enabled: true,
          diversity_mode: personas as Exclude<(typeof PERSONA_FLAG_VALUES)[number], "off">,
        };
  return {
    ...config,
    orchestrator: {
      ...config.orchestrator,
      coordination: { ...coordination, persona_generator: generator },
    },
  };
}
