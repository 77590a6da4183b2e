/**
 * The OpenAI-compatible Chat Completions backends (`POST {base_url}/chat/completions`) through
 * `@ai-sdk/openai-compatible`: `chatcompletion` (any compatible server; OpenRouter, Groq, …),
 * `zai`, and the local servers `lmstudio`, `vllm`, `sglang`, `ollama`. Streamed
 * `reasoning_content` (DeepSeek, GLM, vLLM reasoning parsers) arrives as `reasoning-delta` chunks.
 *
 * Provider quirks are the small named functions below (CONTRIBUTING.md rule 4).
 */
import { activityFetch } from "./ai-sdk-activity.js";
import { bodyMergingFetch, generationSettings } from "./generation-settings.js";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import {
  type BackendConfig,
  type BackendType,
  descriptorOf,
  PROVIDER_DESCRIPTORS,
  PROVIDER_HOSTS,
} from "../config/index.js";
import { ConfigError } from "../errors.js";
import type { Backend, ModelRequest } from "./backend.js";
import { streamWithAiSdk } from "./ai-sdk-stream.js";
import { sharedLanguageModel } from "./model-cache.js";
import { requireModel, type ProviderDependencies } from "./provider-config.js";

/** The descriptors of the types served by {@link createChatCompletionsBackend}. */
const DESCRIPTORS = PROVIDER_DESCRIPTORS.filter(
  (descriptor) => descriptor.implementation === "chat_completions",
);

/**
 * Backend types served by {@link createChatCompletionsBackend}: the descriptors whose
 * implementation is `chat_completions` (`chatcompletion`, `zai`, and the local servers).
 */
export const CHAT_COMPLETIONS_TYPES: readonly BackendType[] = DESCRIPTORS.map(
  (descriptor) => descriptor.type,
);
export type ChatCompletionsType = BackendType;

/** Base URL per type when the config sets no `base_url:` (`chatcompletion` has none). */
export const CHAT_COMPLETIONS_DEFAULT_BASE_URLS: Readonly<Record<string, string | undefined>> =
  Object.fromEntries(DESCRIPTORS.map((descriptor) => [descriptor.type, descriptor.defaultBaseUrl]));

/**
 * Human name of each server on this machine (a default base URL on a local host), for "is it
 * running?" hints.
 */
const LOCAL_SERVER_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  DESCRIPTORS.filter(
    (descriptor) =>
      descriptor.defaultBaseUrl !== undefined &&
      isLocalHost(new URL(descriptor.defaultBaseUrl).hostname),
  ).map((descriptor) => [descriptor.type, descriptor.label]),
);

/** Where and as whom one Chat Completions backend connects. */
export interface ChatCompletionsEndpoint {
  type: ChatCompletionsType;
  /** Base URL without trailing slash, e.g. `https://openrouter.ai/api/v1`. */
  baseURL: string;
  /** Name used in errors: `openrouter`, `zai`, `lmstudio`, or the host for unknown servers. */
  providerName: string;
  /** The key to send as `Authorization: Bearer …`; undefined sends none. */
  apiKey: string | undefined;
  /** The env variable the key comes from (or would), if any. */
  keyVariable: string | undefined;
}

/**
 * Creates a Chat Completions backend for `chatcompletion`, `zai`, `lmstudio`, `vllm`, `sglang` or
 * `ollama` (see {@link resolveChatCompletionsEndpoint} for base URL and key rules).
 *
 * @param config the agent's `backend` block; `type` must be one of {@link CHAT_COMPLETIONS_TYPES}.
 * @param env environment variables (already merged with `~/.config/coord/.env`).
 * @param dependencies optional injected `fetch` and clock.
 * @throws ConfigError for a missing model, a missing/invalid `base_url`, or a missing API key
 *   for a known hosted provider (the message names the variable).
 */
export function createChatCompletionsBackend(
  config: BackendConfig,
  env: Record<string, string | undefined>,
  dependencies: ProviderDependencies = {},
): Backend {
  const model = requireModel(config);
  const generation = generationSettings(config, env);
  const endpoint = resolveChatCompletionsEndpoint(config, env);
  const settings = {
    name: endpoint.providerName,
    baseURL: endpoint.baseURL,
    ...(endpoint.apiKey !== undefined ? { apiKey: endpoint.apiKey } : {}),
    includeUsage: sendsStreamOptions(endpoint),
  };
  // Built once per distinct settings (model-cache.ts); the tool-choice memory stays this backend's.
  const languageModel = sharedLanguageModel(
    { sdk: "openai-compatible", ...settings, bodyFields: generation.bodyFields, model },
    dependencies.fetch,
    () =>
      createOpenAICompatible({
        ...settings,
        fetch: activityFetch(bodyMergingFetch(generation.bodyFields, dependencies.fetch)),
      }).chatModel(model),
  );
  const instance = {};
  const authHint = endpoint.keyVariable
    ? `check ${endpoint.keyVariable} or \`api_key:\` in the config`
    : "set `api_key:` in the config";
  const unreachableHint = unreachableHintFor(endpoint);

  return {
    type: endpoint.type,
    model,
    // Every server gets the stream-idle timeout; a local one (LM Studio, Ollama, …) no
    // first-byte timeout: it may load a model or evaluate a long prompt silently for minutes.
    reportsActivity: true,
    ...(unreachableHint !== undefined ? { silentStart: true } : {}),
    stream: (request, options) =>
      streamWithAiSdk(languageModel, endpoint.providerName, adaptRequest(endpoint, request), {
        ...options,
        instance,
        callSettings: generation.callSettings,
        authHint,
        ...(unreachableHint ? { unreachableHint } : {}),
        ...(dependencies.clock ? { clock: dependencies.clock } : {}),
      }),
  };
}

/**
 * Works out the base URL, provider name and API key of a Chat Completions backend.
 *
 * - base URL: `config.base_url`, else the type's default ({@link CHAT_COMPLETIONS_DEFAULT_BASE_URLS});
 *   `chatcompletion` requires `base_url`.
 * - key: `config.api_key`; else the type's descriptor's variable (`zai` → `ZAI_API_KEY`) or the host's
 *   (`PROVIDER_HOSTS`: the provider descriptors' `hosts`, e.g. `openrouter.ai` → `OPENROUTER_API_KEY`). Local hosts need no
 *   key; unknown remote hosts get none unless `api_key:` is set.
 *
 * @throws ConfigError when `base_url` is missing or not a URL, or a known provider's key is unset.
 */
export function resolveChatCompletionsEndpoint(
  config: BackendConfig,
  env: Record<string, string | undefined>,
): ChatCompletionsEndpoint {
  const type = chatCompletionsType(config.type);
  const rawBaseURL = nonEmpty(config.base_url) ?? CHAT_COMPLETIONS_DEFAULT_BASE_URLS[type];
  if (rawBaseURL === undefined) {
    throw new ConfigError(
      "Backend type `chatcompletion` needs a server: set `base_url:` in the agent's backend config " +
        "(e.g. https://openrouter.ai/api/v1)",
    );
  }
  let url: URL;
  try {
    url = new URL(rawBaseURL);
  } catch {
    throw new ConfigError(
      `\`base_url: ${rawBaseURL}\` is not a URL: write it like https://openrouter.ai/api/v1`,
    );
  }
  const baseURL = rawBaseURL.replace(/\/+$/, "");
  const hostname = url.hostname.toLowerCase();
  const known = providerForHost(hostname);
  const local = isLocalHost(hostname);
  const providerName = type !== "chatcompletion" ? type : (known?.provider ?? url.host);
  const [ownVariable] = descriptorOf(type)?.keyVariables ?? [];
  const keyVariable = ownVariable ?? known?.keyVariable;

  const configured = nonEmpty(config.api_key);
  if (configured !== undefined)
    return { type, baseURL, providerName, apiKey: configured, keyVariable };

  const fromEnv = keyVariable !== undefined ? nonEmpty(env[keyVariable]) : undefined;
  if (fromEnv === undefined && keyVariable !== undefined && !local) {
    throw new ConfigError(
      `No API key for ${providerName} (${url.host}): export ${keyVariable}=…, ` +
        `or add ${keyVariable}=… to ~/.config/coord/.env, or set \`api_key:\` in the agent's backend config`,
    );
  }
  return { type, baseURL, providerName, apiKey: fromEnv, keyVariable };
}

/** The known hosted provider serving `hostname` (exact host or a subdomain of it), if any. */
export function providerForHost(
  hostname: string,
): { provider: string; keyVariable: string } | undefined {
  const host = hostname.toLowerCase();
  const match = PROVIDER_HOSTS.find(
    (entry) => host === entry.domain || host.endsWith(`.${entry.domain}`),
  );
  return match && { provider: match.provider, keyVariable: match.keyVariable };
}

/**
 * True for hosts on this machine or a private network (loopback, `*.local`, RFC 1918 and
 * link-local addresses, `host.docker.internal`), whose servers usually need no key.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return true;
  if (host === "host.docker.internal" || host === "0.0.0.0" || host === "::1") return true;
  const octets = host.split(".").map(Number);
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet))) return false;
  const [a = -1, b = -1] = octets;
  return (
    a === 127 ||
    a === 10 ||
    (a === 192 && b === 168) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 169 && b === 254)
  );
}

/**
 * Request changes a provider needs. Z.ai's GLM API accepts only `tool_choice: "auto"`: a
 * `required` choice is sent as `auto` (the engine still checks that a workflow tool was called)
 * and `none` drops the tools, which keeps the no-tool-call contract.
 */
export function adaptRequest(
  endpoint: ChatCompletionsEndpoint,
  request: ModelRequest,
): ModelRequest {
  if (acceptsOnlyAutoToolChoice(endpoint)) {
    if (request.toolChoice === "required") return { ...request, toolChoice: "auto" };
    if (request.toolChoice === "none") return { ...request, tools: [], toolChoice: "auto" };
  }
  return request;
}

/** True for servers that accept no `tool_choice` but `auto` (Z.ai / BigModel GLM). */
export function acceptsOnlyAutoToolChoice(endpoint: ChatCompletionsEndpoint): boolean {
  return endpoint.providerName === "zai";
}

/**
 * Whether to send `stream_options: {include_usage: true}`. Z.ai's GLM API does not take
 * `stream_options` and reports usage in its last chunk anyway; every other server gets it.
 */
export function sendsStreamOptions(endpoint: ChatCompletionsEndpoint): boolean {
  return endpoint.providerName !== "zai";
}

/** "Is it running?" hint for local servers; undefined for hosted ones. */
function unreachableHintFor(endpoint: ChatCompletionsEndpoint): string | undefined {
  const name = Object.hasOwn(LOCAL_SERVER_NAMES, endpoint.type)
    ? LOCAL_SERVER_NAMES[endpoint.type]
    : undefined;
  if (name !== undefined)
    return `is ${name} running at ${endpoint.baseURL}? start it or set \`base_url:\``;
  return isLocalHost(new URL(endpoint.baseURL).hostname)
    ? `is the server at ${endpoint.baseURL} running? start it or fix \`base_url:\``
    : undefined;
}

function chatCompletionsType(type: string): ChatCompletionsType {
  const match = CHAT_COMPLETIONS_TYPES.find((candidate) => candidate === type);
  if (match === undefined) {
    throw new ConfigError(
      `Backend type \`${type}\` is not a Chat Completions type (${CHAT_COMPLETIONS_TYPES.join(", ")})`,
    );
  }
  return match;
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
