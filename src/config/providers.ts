/**
 * The hosted model providers the setup wizard offers (spec section 1 "First-time setup wizard"):
 * the models it proposes and the cheap call that checks a key. Their key variables, base URL
 * variables and default base URLs are their backend types' (`./provider-descriptors/`, spec
 * section 5 "Authentication"), which the backends read too.
 */
import type { BackendType } from "./backend-types.js";
import { descriptorOf, type ProviderDescriptor } from "./provider-descriptors/index.js";

/** The descriptor of a type the wizard offers (every one has a descriptor). */
function described(type: BackendType): ProviderDescriptor {
  const descriptor = descriptorOf(type);
  if (descriptor === undefined) throw new Error(`no provider descriptor for ${type}`);
  return descriptor;
}

/**
 * The key check's base URL override and default, from the type's descriptor (`keyCheck` spreads
 * it; Azure's is a path below its endpoint instead).
 */
function keyCheckBase(type: BackendType): { baseUrlVariable?: string; defaultBaseUrl: string } {
  const { baseUrlVariable, defaultBaseUrl } = described(type);
  if (defaultBaseUrl === undefined) throw new Error(`${type} has no default base URL`);
  return { ...(baseUrlVariable !== undefined ? { baseUrlVariable } : {}), defaultBaseUrl };
}

/** The providers the setup wizard offers, by id. */
export const PROVIDER_IDS = [
  "openai",
  "claude",
  "gemini",
  "grok",
  "zai",
  "openrouter",
  "azure_openai",
] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

/** How a key is sent on the check call. */
export type KeyHeader = "bearer" | "x-api-key" | "x-goog-api-key" | "api-key";

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
  /** Whether `enable_web_search: true` works on this backend. */
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

/** The providers, in the order the wizard lists them. */
export const PROVIDERS: readonly ProviderInfo[] = [
  {
    id: "openai",
    label: "OpenAI",
    backend: "openai",
    keyVariables: described("openai").keyVariables,
    fastModels: ["gpt-4o-mini", "gpt-4.1-mini", "gpt-4.1-nano"],
    strongModels: ["gpt-5-mini", "gpt-4.1", "gpt-5"],
    webSearch: true,
    keyCheck: {
      ...keyCheckBase("openai"),
      path: "/models",
      header: "bearer",
    },
  },
  {
    id: "claude",
    label: "Anthropic (Claude)",
    backend: "claude",
    keyVariables: described("claude").keyVariables,
    fastModels: ["claude-haiku-4-5", "claude-sonnet-4-5"],
    strongModels: ["claude-sonnet-4-5", "claude-opus-4-5"],
    webSearch: true,
    keyCheck: {
      ...keyCheckBase("claude"),
      path: "/models",
      header: "x-api-key",
      headers: { "anthropic-version": "2023-06-01" },
    },
  },
  {
    id: "gemini",
    label: "Google Gemini",
    backend: "gemini",
    keyVariables: described("gemini").keyVariables,
    fastModels: ["gemini-2.5-flash", "gemini-2.5-flash-lite"],
    strongModels: ["gemini-2.5-pro", "gemini-2.5-flash"],
    webSearch: true,
    keyCheck: {
      ...keyCheckBase("gemini"),
      path: "/models",
      header: "x-goog-api-key",
    },
  },
  {
    id: "grok",
    label: "xAI (Grok)",
    backend: "grok",
    keyVariables: described("grok").keyVariables,
    fastModels: ["grok-4-1-fast-non-reasoning", "grok-3-mini"],
    strongModels: ["grok-4", "grok-4-1-fast-reasoning"],
    webSearch: true,
    keyCheck: {
      ...keyCheckBase("grok"),
      path: "/models",
      header: "bearer",
    },
  },
  {
    id: "zai",
    label: "Z.ai (GLM)",
    backend: "zai",
    keyVariables: described("zai").keyVariables,
    fastModels: ["glm-4.5-air", "glm-4.5-flash"],
    strongModels: ["glm-4.6", "glm-4.5"],
    webSearch: false,
    keyCheck: {
      ...keyCheckBase("zai"),
      path: "/models",
      header: "bearer",
    },
  },
  {
    id: "openrouter",
    label: "OpenRouter",
    backend: "chatcompletion",
    baseUrl: described("openrouter").defaultBaseUrl!,
    keyVariables: described("openrouter").keyVariables,
    fastModels: ["openai/gpt-4o-mini", "google/gemini-2.5-flash"],
    strongModels: ["anthropic/claude-sonnet-4.5", "openai/gpt-5-mini"],
    webSearch: false,
    keyCheck: {
      ...keyCheckBase("openrouter"),
      // /models answers without a key; /key describes the key and refuses a bad one.
      path: "/key",
      header: "bearer",
    },
  },
  {
    id: "azure_openai",
    label: "Azure OpenAI",
    backend: "azure_openai",
    keyVariables: described("azure_openai").keyVariables,
    endpointVariable: {
      name: "AZURE_OPENAI_ENDPOINT",
      placeholder: "https://<resource>.openai.azure.com",
    },
    fastModels: ["gpt-4o-mini"],
    strongModels: ["gpt-4.1"],
    webSearch: false,
    keyCheck: { defaultBaseUrl: "/openai/v1", path: "/models", header: "api-key" },
  },
];

/** The provider with this id. */
export function providerById(id: ProviderId): ProviderInfo {
  const provider = PROVIDERS.find((candidate) => candidate.id === id);
  if (provider === undefined) throw new Error(`unknown provider id ${id}`);
  return provider;
}

/**
 * Hosted OpenAI-compatible providers known by host (or parent domain): their name and API key
 * variable. The `chatcompletion` backend picks the key by `base_url` host from this table.
 */
export const PROVIDER_HOSTS: readonly { domain: string; provider: string; keyVariable: string }[] =
  [
    { domain: "openrouter.ai", provider: "openrouter", keyVariable: "OPENROUTER_API_KEY" },
    { domain: "groq.com", provider: "groq", keyVariable: "GROQ_API_KEY" },
    { domain: "together.xyz", provider: "together", keyVariable: "TOGETHER_API_KEY" },
    { domain: "together.ai", provider: "together", keyVariable: "TOGETHER_API_KEY" },
    { domain: "fireworks.ai", provider: "fireworks", keyVariable: "FIREWORKS_API_KEY" },
    { domain: "cerebras.ai", provider: "cerebras", keyVariable: "CEREBRAS_API_KEY" },
    { domain: "moonshot.ai", provider: "moonshot", keyVariable: "MOONSHOT_API_KEY" },
    { domain: "moonshot.cn", provider: "moonshot", keyVariable: "MOONSHOT_API_KEY" },
    { domain: "nebius.ai", provider: "nebius", keyVariable: "NEBIUS_API_KEY" },
    { domain: "nebius.com", provider: "nebius", keyVariable: "NEBIUS_API_KEY" },
    { domain: "z.ai", provider: "zai", keyVariable: "ZAI_API_KEY" },
    { domain: "bigmodel.cn", provider: "zai", keyVariable: "ZAI_API_KEY" },
    { domain: "api.openai.com", provider: "openai", keyVariable: "OPENAI_API_KEY" },
    { domain: "api.deepseek.com", provider: "deepseek", keyVariable: "DEEPSEEK_API_KEY" },
    { domain: "api.mistral.ai", provider: "mistral", keyVariable: "MISTRAL_API_KEY" },
    { domain: "api.x.ai", provider: "xai", keyVariable: "XAI_API_KEY" },
    {
      domain: "generativelanguage.googleapis.com",
      provider: "gemini",
      keyVariable: "GEMINI_API_KEY",
    },
    { domain: "api.poe.com", provider: "poe", keyVariable: "POE_API_KEY" },
  ];

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
