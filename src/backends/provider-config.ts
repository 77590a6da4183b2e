/**
 * Reading a hosted provider's settings from an agent's `backend` block: the API key (config
 * `api_key:` wins over the environment, which already includes `~/.config/coord/.env`), the base
 * URL, and MassGen-style pass-through keys (`enable_web_search`, `thinking_budget`, …) that the
 * loose {@link BackendConfig} schema keeps.
 */
import type { ToolSet } from "ai";
import type { Clock } from "../clock.js";
import type { BackendConfig } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { registerSecret } from "../redact.js";

/**
 * The API key of a hosted provider: `config.api_key`, else the first set variable of `variables`.
 *
 * @param options.provider human name for the message (`Anthropic`, `Gemini`, …).
 * @param options.variables env variables to try, in order (`["GEMINI_API_KEY", "GOOGLE_API_KEY"]`).
 * @param options.example a placeholder value for the message (`sk-ant-…`).
 * @throws ConfigError naming the first variable and how to set it when no key is found.
 */
export function resolveApiKey(
  config: BackendConfig,
  env: Readonly<Record<string, string | undefined>>,
  options: { provider: string; variables: readonly string[]; example?: string },
): string {
  const configured = nonEmpty(config.api_key);
  if (configured !== undefined) {
    registerSecret(configured);
    return configured;
  }
  for (const variable of options.variables) {
    const value = nonEmpty(env[variable]);
    if (value !== undefined) {
      registerSecret(value); // whatever the variable is called, it never reaches an output
      return value;
    }
  }
  const [first = "API_KEY", ...others] = options.variables;
  const alternatives = others.length > 0 ? ` (or ${others.join(", ")})` : "";
  throw new ConfigError(
    `No ${options.provider} API key: export ${first}=${options.example ?? "…"}${alternatives}, ` +
      `or add ${first}=… to ~/.config/coord/.env, or set \`api_key:\` in the agent's backend config`,
  );
}

/** The backend block as a plain record, to read pass-through keys the schema does not name. */
export function backendOptions(config: BackendConfig): Record<string, unknown> {
  return config;
}

/** `value` when it is a plain object, else an empty one. */
export function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** `value` when it is a finite number (or a numeric string), else undefined. */
export function numberOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) {
    return Number(value);
  }
  return undefined;
}

/** True for `true` and the strings `true`/`yes`/`1` (YAML written by hand). */
export function isEnabled(value: unknown): boolean {
  return value === true || (typeof value === "string" && /^(true|yes|1)$/i.test(value.trim()));
}

/** A base URL with a path: `https://host` and `https://host/` become `https://host<defaultPath>`. */
export function withDefaultPath(baseURL: string, defaultPath: string): string {
  const trimmed = baseURL.replace(/\/+$/, "");
  try {
    const url = new URL(trimmed);
    return url.pathname === "/" || url.pathname === "" ? `${trimmed}${defaultPath}` : trimmed;
  } catch {
    throw new ConfigError(
      `\`base_url: ${baseURL}\` is not a URL: write it like https://api.example.com${defaultPath}`,
    );
  }
}

/** The trimmed string, or undefined when absent or blank. */
export function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}

/**
 * A provider package's tool (`anthropic.tools.webSearch_20250305()`, …) as an `ai` tool. The
 * provider packages may bundle their own copy of `@ai-sdk/provider-utils`, whose `Tool` type is
 * nominally different but the same plain object at run time.
 */
export function asTool(providerTool: unknown): ToolSet[string] {
  return providerTool as ToolSet[string];
}

/**
 * What a hosted provider's backend may be given besides its config and environment (the same for
 * every provider; the registry passes them from its context, `src/backends/providers/index.ts`).
 */
export interface ProviderDependencies {
  /** `fetch` used for every request. Default: the global `fetch`. */
  fetch?: typeof fetch;
  /** Clock used to resolve `Retry-After` dates. Default: `Date.now`. */
  clock?: Pick<Clock, "now">;
}

/** `config.model`, or a ConfigError naming the key to set. */
export function requireModel(config: BackendConfig): string {
  const model = nonEmpty(config.model);
  if (model === undefined) {
    throw new ConfigError(
      `Backend type \`${config.type}\` needs a model: set \`model:\` in the agent's backend config`,
    );
  }
  return model;
}
