/**
 * The shape of a provider descriptor: everything coord knows about one backend type, in one
 * place. The config schema's enum, the config reference's key list, the key checks, the backend
 * registry, pricing and tracing all read these (docs/architecture.md "Where a new feature
 * lives"); the registry adds the factory (`src/backends/providers/index.ts`).
 */

import type { GenerationParameter } from "../generation-schema.js";

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

/** Identity, keeping the literal `type` (so the index can derive the `BackendType` union). */
export function defineProvider<const Type extends string>(
  descriptor: ProviderDescriptor<Type>,
): ProviderDescriptor<Type> {
  return descriptor;
}
