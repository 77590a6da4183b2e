/**
 * The hosted model providers the setup wizard offers (spec section 1 "First-time setup wizard"):
 * the models it proposes and the cheap call that checks a key. Every fact is its backend type's
 * descriptor's (`./provider-descriptors/`: `setup`, key variables, base URL variable and default,
 * web search capability; spec section 5 "Authentication"), which the backends read too; this file
 * only shapes them for `src/setup/`.
 */
import type { BackendType } from "./backend-types.js";
import {
  descriptorOf,
  type KeyHeader,
  OFFERED_DESCRIPTORS,
  type OfferedDescriptor,
  type ProviderDescriptor,
  PROVIDER_HOSTS,
  type ProviderId,
} from "./provider-descriptors/index.js";

export type { KeyHeader, ProviderId } from "./provider-descriptors/index.js";
export { PROVIDER_HOSTS } from "./provider-descriptors/index.js";

/** The descriptor of a type the wizard offers or writes (every one has a descriptor). */
function described(type: string): ProviderDescriptor<BackendType> {
  const descriptor = descriptorOf(type);
  if (descriptor === undefined) throw new Error(`no provider descriptor for ${type}`);
  return descriptor;
}

/** The providers the setup wizard offers, by id, in its order. */
export const PROVIDER_IDS: readonly ProviderId[] = OFFERED_DESCRIPTORS.map(
  (descriptor) => descriptor.type,
);

/** One hosted provider. */
export interface ProviderInfo {
  id: ProviderId;
  /** Human name: `OpenAI`, `Anthropic (Claude)`, … */
  label: string;
  /** The backend type its agents use (`openrouter` runs through `chatcompletion`). */
  backend: BackendType;
  /** `base_url:` its agents need (only for providers served by `chatcompletion`). */
  baseUrl?: string;
  /** Key variables the backend reads, in order; the wizard writes the first. */
  keyVariables: readonly string[];
  /** A further variable the provider needs besides the key (Azure's endpoint). */
  endpointVariable?: { name: string; placeholder: string };
  /** Models for a quick, cheap team, best first (Azure: deployment names to edit). */
  fastModels: readonly string[];
  /** Models for harder work (code, planning), best first. */
  strongModels: readonly string[];
  /** Whether `enable_web_search: true` works on the backend type its agents use. */
  webSearch: boolean;
  /** The check call: `GET {base}{path}` with the key in `header`. */
  keyCheck: {
    /** Variable that overrides the base URL, as the backend honours it (`OPENAI_BASE_URL`). */
    baseUrlVariable?: string;
    /** Default base URL; for Azure, a path below the endpoint variable's value. */
    defaultBaseUrl: string;
    path: string;
    header: KeyHeader;
    /** Extra headers (Anthropic's API version). */
    headers?: Readonly<Record<string, string>>;
  };
}

/**
 * The wizard's view of an offered descriptor.
 * @throws Error at load when the offer names no backend type as `agentType`, or a type without
 *   `basePath` has no default base URL to check the key at.
 */
function providerInfo(descriptor: OfferedDescriptor<ProviderId>): ProviderInfo {
  const { setup } = descriptor;
  const agents = described(setup.agentType ?? descriptor.type);
  const { path, header, headers, basePath } = setup.keyCheck;
  let base: { baseUrlVariable?: string; defaultBaseUrl: string };
  if (basePath !== undefined) base = { defaultBaseUrl: basePath };
  else if (descriptor.defaultBaseUrl === undefined)
    throw new Error(`${descriptor.type} has no default base URL`);
  else
    base = {
      ...(descriptor.baseUrlVariable !== undefined
        ? { baseUrlVariable: descriptor.baseUrlVariable }
        : {}),
      defaultBaseUrl: descriptor.defaultBaseUrl,
    };
  return {
    id: descriptor.type,
    label: descriptor.label,
    backend: agents.type,
    ...(agents.type !== descriptor.type && descriptor.defaultBaseUrl !== undefined
      ? { baseUrl: descriptor.defaultBaseUrl }
      : {}),
    keyVariables: descriptor.keyVariables,
    ...(setup.endpointVariable !== undefined ? { endpointVariable: setup.endpointVariable } : {}),
    fastModels: setup.fastModels,
    strongModels: setup.strongModels,
    webSearch: agents.capabilities.webSearch,
    keyCheck: { ...base, path, header, ...(headers !== undefined ? { headers } : {}) },
  };
}

/** The providers, in the order the wizard lists them. */
export const PROVIDERS: readonly ProviderInfo[] = OFFERED_DESCRIPTORS.map(providerInfo);

/** The provider with this id. */
export function providerById(id: ProviderId): ProviderInfo {
  const provider = PROVIDERS.find((candidate) => candidate.id === id);
  if (provider === undefined) throw new Error(`unknown provider id ${id}`);
  return provider;
}

/** A provider key found set. */
export interface DetectedKey {
  variable: string;
  /** The provider it belongs to, when the wizard knows it by name. */
  provider?: ProviderId;
}

/**
 * The cloud-provider API keys set (non-blank) in `env`, which should already have
 * `~/.config/coord/.env` merged in: every variable of {@link PROVIDERS} and {@link PROVIDER_HOSTS},
 * plus `CLAUDE_CODE_OAUTH_TOKEN` (the `claude_code` backend's login). Azure counts only with its
 * endpoint. Each variable is listed once, in table order.
 */
export function detectProviderKeys(
  env: Readonly<Record<string, string | undefined>>,
): DetectedKey[] {
  const isSet = (name: string) => (env[name] ?? "").trim() !== "";
  const found: DetectedKey[] = [];
  const seen = new Set<string>();
  const add = (variable: string, provider?: ProviderId) => {
    if (seen.has(variable) || !isSet(variable)) return;
    seen.add(variable);
    found.push(provider === undefined ? { variable } : { variable, provider });
  };
  for (const provider of PROVIDERS) {
    if (provider.endpointVariable !== undefined && !isSet(provider.endpointVariable.name)) continue;
    for (const variable of provider.keyVariables) add(variable, provider.id);
  }
  for (const host of PROVIDER_HOSTS) add(host.keyVariable);
  // Claude Code's login token (its API key is Anthropic's, already listed).
  for (const variable of described("claude_code").keyVariables) add(variable);
  return found;
}

/** The wizard's providers whose key is set in `env`, in {@link PROVIDERS} order. */
export function providersWithKeys(
  env: Readonly<Record<string, string | undefined>>,
): ProviderInfo[] {
  const ids = new Set(detectProviderKeys(env).map((key) => key.provider));
  return PROVIDERS.filter((provider) => ids.has(provider.id));
}
