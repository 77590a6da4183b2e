/**
 * Which backend types read which `agents[].backend` keys: the generation parameters each provider
 * takes (as its ai SDK provider sends them), and the keys only one provider has (its thinking
 * settings, hosted tools, `local` threads, …). A key set on a type that does not read it is a
 * warning at load naming the agent:
 * nothing is accepted and ignored silently.
 */
import type { BackendConfig } from "./backend-schema.js";
import type { BackendType } from "./backend-types.js";
import { GENERATION_PARAMETERS, type GenerationParameter } from "./generation-schema.js";
import {
  descriptorOf,
  NO_CAPABILITIES,
  type ProviderCapabilities,
  typesWith,
} from "./provider-descriptors/index.js";

/** The capabilities of `type`, from its descriptor (none for a string that is no type). */
function capabilitiesOf(type: string): ProviderCapabilities {
  return descriptorOf(type)?.capabilities ?? NO_CAPABILITIES;
}

/** The backend types that speak Chat Completions (`POST {base_url}/chat/completions`). */
export const CHAT_COMPLETIONS_BACKEND_TYPES: readonly BackendType[] = typesWith("chatCompletions");

const CHAT: readonly BackendType[] = CHAT_COMPLETIONS_BACKEND_TYPES;

/** What every Chat Completions server takes: the standard fields plus the body extension. */
const CHAT_PARAMETERS: readonly GenerationParameter[] = [
  "temperature",
  "top_p",
  "max_tokens",
  "frequency_penalty",
  "presence_penalty",
  "seed",
  "stop",
  "reasoning_effort",
  "extra_body",
];
/** Chat Completions servers that also take `top_k` (sent in the body). */
const TOP_K_SERVERS: readonly BackendType[] = typesWith("topK");
/** Servers that render a chat template from `chat_template_kwargs` (vLLM, SGLang). */
const CHAT_TEMPLATE_SERVERS: readonly BackendType[] = typesWith("chatTemplateKwargs");

/**
 * True when the backend speaks Chat Completions: the Chat Completions types, and `azure_openai`
 * with a dated `api_version` (else `AZURE_OPENAI_API_VERSION` from `env`; `v1`, the default, is
 * the Responses API).
 */
export function speaksChatCompletions(
  backend: Pick<BackendConfig, "type" | "api_version">,
  env: Readonly<Record<string, string | undefined>> = {},
): boolean {
  if (CHAT.includes(backend.type)) return true;
  if (backend.type !== "azure_openai") return false;
  const version = (backend.api_version ?? env.AZURE_OPENAI_API_VERSION ?? "v1").trim();
  return version !== "" && version.toLowerCase() !== "v1";
}

/**
 * The generation parameters a backend sends to its provider.
 * @param backend the agent's backend block (`azure_openai` with a dated `api_version` speaks
 *   Chat Completions; `AZURE_OPENAI_API_VERSION` is read from `env`).
 */
export function generationParametersOf(
  backend: Pick<BackendConfig, "type" | "api_version">,
  env: Readonly<Record<string, string | undefined>> = {},
): ReadonlySet<GenerationParameter> {
  const type = backend.type;
  // A deployment's Chat Completions is sent no reasoning effort (generation-settings.ts).
  if (type === "azure_openai" && speaksChatCompletions(backend, env)) {
    return new Set(CHAT_PARAMETERS.filter((key) => key !== "reasoning_effort"));
  }
  const descriptor = descriptorOf(type);
  if (descriptor?.generationParameters !== undefined)
    return new Set(descriptor.generationParameters);
  if (descriptor?.capabilities.chatCompletions !== true) return new Set();
  return new Set([
    ...CHAT_PARAMETERS,
    ...(TOP_K_SERVERS.includes(type) ? (["top_k"] as const) : []),
    ...(CHAT_TEMPLATE_SERVERS.includes(type) ? (["chat_template_kwargs"] as const) : []),
  ]);
}

const ALL_BUT_IN_PROCESS = (type: BackendType) => !capabilitiesOf(type).inProcess;

/** Provider-specific keys and the types that read them. */
const READERS: Readonly<Record<string, (type: BackendType) => boolean>> = {
  base_url: ALL_BUT_IN_PROCESS,
  api_key: ALL_BUT_IN_PROCESS,
  threads: (type) => type === "local",
  context_size: (type) => type === "local",
  pricing: (type) => type !== "scripted",
  steps: (type) => type === "scripted",
  scripts: (type) => type === "scripted",
  api_version: (type) => type === "azure_openai",
  reasoning: (type) => capabilitiesOf(type).reasoning,
  text: (type) => type === "openai" || type === "azure_openai",
  verbosity: (type) => type === "openai" || type === "azure_openai",
  enable_web_search: (type) => capabilitiesOf(type).webSearch,
  enable_code_execution: (type) => capabilitiesOf(type).codeExecution,
  enable_x_search: (type) => type === "grok",
  enable_code_interpreter: (type) => type === "openai",
  web_search_max_uses: (type) => type === "claude",
  thinking_budget_tokens: (type) => type === "claude",
  thinking: (type) => type === "claude",
  effort: (type) => type === "claude",
  thinking_budget: (type) => type === "gemini",
  include_thoughts: (type) => type === "gemini",
  thinking_level: (type) => type === "gemini",
  thinking_config: (type) => type === "gemini",
  permission_mode: (type) => type === "claude_code",
  system_prompt: (type) => type === "claude_code",
  append_system_prompt: (type) => type === "claude_code",
  max_thinking_tokens: (type) => type === "claude_code",
  max_turns: (type) => type === "claude_code",
  disallowed_tools: (type) => type === "claude_code",
};

/** A backend key its type does not read. */
export interface UnreadBackendKey {
  /** The key inside the backend block: `["top_k"]`, `["reasoning", "summary"]`. */
  path: readonly string[];
  /** Completes "agent X's backend `type` …": `does not take top_k`. */
  text: string;
}

/**
 * The keys of `backend` that its type does not read, in the order written. A `false` switch
 * (`enable_web_search: false`) is not listed: off is what happens anyway.
 */
export function unreadBackendKeys(
  backend: BackendConfig,
  env: Readonly<Record<string, string | undefined>> = {},
): UnreadBackendKey[] {
  const parameters = generationParametersOf(backend, env);
  const unread: UnreadBackendKey[] = [];
  for (const [key, value] of Object.entries(backend)) {
    if (value === undefined || value === false) continue;
    if ((GENERATION_PARAMETERS as readonly string[]).includes(key)) {
      if (!parameters.has(key as GenerationParameter)) {
        unread.push({
          path: [key],
          text: parameterHint(backend.type, key as GenerationParameter),
        });
      }
      continue;
    }
    // Own keys only: `toString`, `valueOf`, … are plain (unknown) keys, not Object.prototype's.
    const reads = Object.hasOwn(READERS, key) ? READERS[key] : undefined;
    if (reads !== undefined && !reads(backend.type)) {
      unread.push({ path: [key], text: `does not read ${key}` });
    } else if (key === "reasoning" && backend.type === "azure_openai") {
      if (speaksChatCompletions(backend, env)) {
        unread.push({ path: [key], text: `does not send reasoning: ${AZURE_CHAT}` });
      }
    } else if (key === "reasoning") {
      const summary = reasoningSummaryHint(backend.type, backend.reasoning?.summary);
      if (summary !== undefined) unread.push({ path: ["reasoning", "summary"], text: summary });
    }
  }
  return unread;
}

const AZURE_CHAT =
  "a dated api_version speaks the deployment's Chat Completions (api_version: v1 sends reasoning)";

/**
 * Why `reasoning.summary` is not sent, when the backend reads `reasoning:` but only its effort:
 * only OpenAI's Responses API (`openai`, `azure_openai` with the v1 API) takes a summary.
 */
function reasoningSummaryHint(type: BackendType, summary: string | undefined): string | undefined {
  if (summary === undefined) return undefined;
  if (CHAT.includes(type)) {
    return "cannot send reasoning.summary: Chat Completions has no reasoning summary (reasoning.effort is sent, as reasoning_effort)";
  }
  if (type === "grok") return "cannot send reasoning.summary: xAI takes reasoning.effort only";
  if (type === "claude") {
    return "cannot send reasoning.summary: Anthropic takes the effort only (thinking streams as reasoning: set thinking_budget_tokens)";
  }
  return undefined;
}

/** "cannot take top_k" with what to do where there is something. */
function parameterHint(type: BackendType, key: GenerationParameter): string {
  if (type === "claude_code") return `cannot take ${key}: Claude Code chooses its own sampling`;
  if (type === "scripted") return `cannot take ${key}: it plays its steps`;
  if (key === "reasoning_effort" && type === "claude") return `cannot take ${key}: use effort`;
  if (key === "reasoning_effort" && type === "azure_openai")
    return `cannot take ${key}: ${AZURE_CHAT}`;
  if (key === "reasoning_effort" && type === "gemini")
    return `cannot take ${key}: use thinking_budget or thinking_level`;
  return `cannot take ${key}`;
}
