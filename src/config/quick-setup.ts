/**
 * Quick setup without a config file: `--backend TYPE --model NAME [--system-message TEXT]` builds a
 * one-agent config (spec section 4.1), and the flag conflicts with `--config`.
 */
import { ConfigError } from "../errors.js";
import { checkConfig } from "./check-config.js";
import { defaultAgentId } from "./normalize-config.js";
import { descriptorOf, PROVIDER_DESCRIPTORS } from "./provider-descriptors/index.js";
import { BACKEND_TYPES, ConfigSchema, type BackendType, type Config } from "./schema.js";

/** The quick-setup flags as given on the command line (`undefined` = not given). */
export interface QuickSetupFlags {
  /** `--backend`: a backend type; inferred from the model name when omitted. */
  backend?: string;
  /** `--model`: a model name, or for `local` the path of a GGUF file. */
  model?: string;
  /** `--system-message`: the agent's system prompt. */
  systemMessage?: string;
  /** `--base-url`: the API base URL of an OpenAI-compatible server (implies `chatcompletion`). */
  baseUrl?: string;
}

/**
 * The model quick setup uses when `--model` is not given: the type's descriptor's
 * `defaultModel` (`gpt-4o-mini` for `openai`, `claude-haiku-4-5` for `claude`,
 * `gemini-2.5-flash` for `gemini`, …, the wizard's first fast model); undefined for backends
 * whose models depend on the server or deployment (`chatcompletion`, `azure_openai`, `local`, …).
 */
export function defaultModelOf(backend: BackendType): string | undefined {
  return descriptorOf(backend)?.defaultModel;
}

/**
 * Checks a `--backend` value.
 *
 * @throws ConfigError when `value` is not one of `BACKEND_TYPES` (the message lists them).
 */
export function parseBackendType(value: string): BackendType {
  if ((BACKEND_TYPES as readonly string[]).includes(value)) return value as BackendType;
  throw new ConfigError(`--backend ${value}: expected one of ${BACKEND_TYPES.join(", ")}`);
}

/**
 * Guesses the backend of a model name given with `--model` alone: `*.gguf` → `local`, else the
 * first descriptor whose `modelNames` match (`gpt-*`, `o1`… → `openai`, `claude*` → `claude`,
 * `gemini*` → `gemini`, `grok*` → `grok`, `glm*` → `zai`).
 *
 * @returns The backend type, or `undefined` when the name says nothing.
 */
export function inferBackendType(model: string): BackendType | undefined {
  const name = model.toLowerCase();
  if (name.endsWith(".gguf")) return "local";
  return PROVIDER_DESCRIPTORS.find((descriptor) => descriptor.modelNames?.test(name))?.type;
}

/**
 * Builds the one-agent config of quick setup (agent id `agent_a`, every other key at its default).
 *
 * @throws ConfigError for an unknown `--backend`, a `--model` whose backend cannot be guessed
 *   without `--backend`, or a missing `--model` (every backend but `scripted` needs one).
 */
export function quickSetupConfig(flags: QuickSetupFlags): Config {
  const backend =
    flags.backend !== undefined
      ? parseBackendType(flags.backend)
      : flags.baseUrl !== undefined
        ? "chatcompletion"
        : flags.model !== undefined
          ? inferBackendType(flags.model)
          : undefined;
  if (backend === undefined) {
    throw new ConfigError(
      flags.model === undefined
        ? "quick setup needs --backend TYPE (and --model NAME, or a server's --base-url)"
        : `cannot tell the backend of model ${JSON.stringify(flags.model)}: add --backend TYPE (one of ${BACKEND_TYPES.join(", ")}), or --base-url URL for an OpenAI-compatible server`,
    );
  }
  const model = flags.model ?? defaultModelOf(backend);
  if (model === undefined && backend !== "scripted") {
    const what = backend === "local" ? "PATH.gguf" : "NAME";
    throw new ConfigError(
      `--backend ${backend} needs --model ${what}${backend === "chatcompletion" && flags.baseUrl === undefined ? " and --base-url URL" : ""}`,
    );
  }
  const config = ConfigSchema.parse({
    agents: [
      {
        id: defaultAgentId(0),
        backend: {
          type: backend,
          ...(model === undefined ? {} : { model }),
          ...(flags.baseUrl === undefined ? {} : { base_url: flags.baseUrl }),
        },
        ...(flags.systemMessage === undefined ? {} : { system_message: flags.systemMessage }),
      },
    ],
  });
  checkConfig(config);
  return config;
}

/**
 * Checks the quick-setup flags against `--config` (spec section 4.1: `--model` and `--config` are
 * mutually exclusive; `--system-message` is ignored with `--config`).
 *
 * @param flags.config The `--config` value, if given.
 * @returns Warnings to print (one line each): `--system-message` or `--backend` ignored.
 * @throws ConfigError when `--model` is given with `--config`.
 */
export function checkFlagConflicts(flags: QuickSetupFlags & { config?: string }): string[] {
  if (flags.config === undefined) return [];
  if (flags.model !== undefined) {
    throw new ConfigError(
      "--model and --config cannot be used together: use --config alone, or --backend/--model without it",
    );
  }
  const warnings: string[] = [];
  if (flags.systemMessage !== undefined) {
    warnings.push(
      "--system-message is ignored with --config: set system_message on an agent in the config file instead",
    );
  }
  if (flags.backend !== undefined) {
    warnings.push("--backend is ignored with --config: the config file sets each agent's backend");
  }
  if (flags.baseUrl !== undefined) {
    warnings.push(
      "--base-url is ignored with --config: the config file sets each agent's base_url",
    );
  }
  return warnings;
}
