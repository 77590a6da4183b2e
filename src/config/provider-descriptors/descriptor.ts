/**
 * The shape of a provider descriptor: everything coord knows about one backend type, in one
 * place. The config schema's enum and capability descriptions, the config reference's key list,
 * the key checks, the setup wizard, the `chatcompletion` host table, `--validate --offline`, the
 * backend registry, pricing and tracing all read these (docs/architecture.md "Where a new feature
 * lives"); the registry adds the factory (`src/backends/providers/index.ts`).
 */

import type { GenerationParameter } from "../generation-parameters.js";

/**
 * Which backend module runs a type: the registry maps each to one factory of one signature
 * (`src/backends/providers/index.ts`). Several types share one (`hosted_chat` serves every hosted
 * Chat Completions provider).
 */
export type BackendImplementation =
  | "openai"
  | "claude"
  | "gemini"
  | "grok"
  | "azure_openai"
  | "claude_code"
  | "chat_completions"
  | "hosted_chat"
  | "local"
  | "scripted";

/** The ai SDK package behind a hosted Chat Completions provider (`hosted_chat`). */
export type ChatProviderSdk =
  "groq" | "togetherai" | "fireworks" | "cerebras" | "openai-compatible";

/** Where a type's calls are priced from (`src/backends/pricing.ts`). */
export type PriceSource =
  /** The `@pydantic/genai-prices` provider id whose list bills this type (`anthropic`, …). */
  | { kind: "list"; provider: string }
  /** The provider the agent's `base_url` (else the type's default) names, matched by the package. */
  | { kind: "by_base_url" }
  /** 0 USD by definition; `why` is shown as the price's source. */
  | { kind: "free"; why: string };

/**
 * A host (or parent domain) whose `base_url` means this provider to the `chatcompletion` type: an
 * agent pointed at it is named {@link provider} in messages and reads {@link keyVariable}. The
 * descriptors' hosts together are `PROVIDER_HOSTS` (`./index.ts`), read by
 * `src/backends/chat-completions.ts`, `coord --validate --offline` and the wizard's key detection.
 */
export interface ProviderHost {
  /** `openrouter.ai`: the host itself and every subdomain (`api.openrouter.ai`) match. */
  domain: string;
  /** Name in messages; default the descriptor's type (`xai` for `grok`'s host). */
  provider?: string;
  /** The API key variable; default the descriptor's first key variable. */
  keyVariable?: string;
}

/** How the setup wizard sends a key on its check call. */
export type KeyHeader = "bearer" | "x-api-key" | "x-goog-api-key" | "api-key";

/**
 * What the setup wizard offers for a type (`PROVIDERS` in `src/config/providers.ts`, read by
 * `src/setup/`): its models, how it checks a key, and where it is listed. A type without one is
 * not offered by the wizard (its agents can still be written by hand).
 */
export interface SetupOffer {
  /** Place in the wizard's provider list, lower first (the descriptors' order is the schema's). */
  order: number;
  /**
   * Models for a quick, cheap team, best first; the first is the type's `defaultModel` when it
   * has one (Azure: deployment names to edit).
   */
  fastModels: readonly string[];
  /** Models for harder work (code, planning), best first. */
  strongModels: readonly string[];
  /**
   * The backend type the wizard writes its agents with, when not this one: OpenRouter's agents
   * are `chatcompletion` at OpenRouter's default base URL. A backend type's name.
   */
  agentType?: string;
  /** A further variable the wizard asks for besides the key (Azure's endpoint), with a placeholder. */
  endpointVariable?: { name: string; placeholder: string };
  /**
   * The key check: `GET {base}{path}` with the key in `header`, costing no tokens. The base is
   * the type's {@link ProviderDescriptor.baseUrlVariable} else its default base URL, or, with
   * `basePath`, that path below {@link endpointVariable}'s value (Azure: `/openai/v1`).
   */
  keyCheck: {
    path: string;
    header: KeyHeader;
    /** Extra headers (Anthropic's API version). */
    headers?: Readonly<Record<string, string>>;
    basePath?: string;
  };
}

/** What a backend type can do, as the config's key checks read it. */
export interface ProviderCapabilities {
  /** Speaks Chat Completions (`POST {base_url}/chat/completions`). */
  chatCompletions: boolean;
  /** Runs in this process (no `base_url`, no `api_key`). */
  inProcess: boolean;
  /** Reads `reasoning:` (its effort; `reasoning.summary` only on OpenAI's Responses API). */
  reasoning: boolean;
  /** `enable_web_search: true` works. */
  webSearch: boolean;
  /** `enable_code_execution: true` works. */
  codeExecution: boolean;
  /** A Chat Completions server that also takes `top_k` (in the body). */
  topK: boolean;
  /** A server that renders its chat template from `chat_template_kwargs` (vLLM, SGLang). */
  chatTemplateKwargs: boolean;
}

/** One backend type (`agents[].backend.type`, `--backend`). */
export interface ProviderDescriptor<Type extends string = string> {
  type: Type;
  /** Human name: `OpenAI`, `Anthropic (Claude)`, `LM Studio`, … */
  label: string;
  implementation: BackendImplementation;
  /**
   * API key variables, in the order they are tried; the first is the one messages name. Empty
   * for types that need no key or, for `chatcompletion`, pick it by `base_url` host
   * ({@link keyByHost}).
   */
  keyVariables: readonly string[];
  /** Further variables the backend reads beside the key (Azure's endpoint and API version). */
  alsoReads?: readonly string[];
  /** `chatcompletion`: the key variable is chosen by the `base_url` host (`PROVIDER_HOSTS`). */
  keyByHost?: boolean;
  /**
   * Hosts whose `base_url` names this provider when an agent of type `chatcompletion` points at
   * them (a string: the domain, with the type's name and first key variable). `chatcompletion`'s
   * own lists the hosted providers that have no type (DeepSeek, Mistral).
   */
  hosts?: readonly (string | ProviderHost)[];
  /** What the setup wizard offers for this type; absent: the wizard does not list it. */
  setup?: SetupOffer;
  /** Variable that overrides the default base URL (`OPENAI_BASE_URL`), when the backend has one. */
  baseUrlVariable?: string;
  /** Base URL when neither `base_url:` nor {@link baseUrlVariable} is set. */
  defaultBaseUrl?: string;
  /** The model quick setup uses when `--model` is not given (none: it depends on the server). */
  defaultModel?: string;
  /**
   * The generation parameters it sends its provider (the others are a warning naming the agent).
   * Default for a Chat Completions type: the standard fields and `extra_body`, with `top_k` and
   * `chat_template_kwargs` as its capabilities say.
   */
  generationParameters?: readonly GenerationParameter[];
  /** Model names that say this type: `--model NAME` alone picks it (lower-cased name). */
  modelNames?: RegExp;
  /** `hosted_chat`: the ai SDK package it goes through. */
  sdk?: ChatProviderSdk;
  capabilities: ProviderCapabilities;
  price: PriceSource;
  /** Tracing: `gen_ai.provider.name` (and `gen_ai.system`), the convention's well-known value. */
  tracing: { providerName: string };
}

/** The capabilities of a type that has none of the optional ones. */
export const NO_CAPABILITIES: ProviderCapabilities = {
  chatCompletions: false,
  inProcess: false,
  reasoning: false,
  webSearch: false,
  codeExecution: false,
  topK: false,
  chatTemplateKwargs: false,
};

/** A descriptor the wizard offers: its {@link SetupOffer} is present. */
export type OfferedDescriptor<Type extends string = string> = ProviderDescriptor<Type> & {
  setup: SetupOffer;
};

/**
 * Identity, keeping the literal `type` (so the index can derive the `BackendType` union) and
 * whether `setup` is present (so it can derive the wizard's `ProviderId` union).
 */
export function defineProvider<
  const Type extends string,
  const Setup extends SetupOffer | undefined = undefined,
>(
  descriptor: ProviderDescriptor<Type> & { setup?: Setup },
): ProviderDescriptor<Type> & ([Setup] extends [SetupOffer] ? { setup: Setup } : unknown) {
  return descriptor as ProviderDescriptor<Type> &
    ([Setup] extends [SetupOffer] ? { setup: Setup } : unknown);
}
