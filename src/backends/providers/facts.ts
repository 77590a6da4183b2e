/**
 * What a backend module reads from its type's provider descriptor (`src/config/provider-descriptors/`):
 * the key variables, the base URL variable and the default base URL, so no backend types them again.
 */
import { type BackendConfig, type BackendType, descriptorOf } from "../../config/index.js";
import type { ProviderDescriptor } from "../../config/index.js";

/** A descriptor's key and base URL facts. */
export type ProviderFacts = Pick<
  ProviderDescriptor,
  "type" | "label" | "keyVariables" | "baseUrlVariable" | "defaultBaseUrl"
>;

/**
 * The descriptor of `type`.
 * @throws Error when `type` has none (every `BackendType` has one: a programming error).
 */
export function factsOf(type: BackendType): ProviderFacts {
  const descriptor = descriptorOf(type);
  if (descriptor === undefined) throw new Error(`no provider descriptor for ${type}`);
  return descriptor;
}

/** The descriptor's default base URL. @throws Error when it has none. */
export function defaultBaseUrlOf(type: BackendType): string {
  const url = factsOf(type).defaultBaseUrl;
  if (url === undefined) throw new Error(`${type} has no default base URL`);
  return url;
}

/**
 * The base URL a backend uses: `base_url:`, else the descriptor's base URL variable in `env`,
 * else its default (blank values count as unset). Undefined when none of them is set.
 */
export function configuredBaseUrl(
  config: Pick<BackendConfig, "type" | "base_url">,
  env: Readonly<Record<string, string | undefined>>,
  facts: ProviderFacts,
): string | undefined {
  const fromVariable = facts.baseUrlVariable === undefined ? undefined : env[facts.baseUrlVariable];
  return nonBlank(config.base_url) ?? nonBlank(fromVariable) ?? facts.defaultBaseUrl;
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
