/**
 * The `grok` backend: xAI's Chat Completions API (`POST {base_url}/chat/completions`) through
 * `@ai-sdk/xai`. Reasoning models (grok-3-mini) stream `reasoning_content` as `reasoning-delta`
 * chunks; xAI reports reasoning tokens apart from completion tokens, and the SDK adds them back.
 * With server-side tools enabled (web search, X search, code execution) the agent uses xAI's
 * Responses API (`POST {base_url}/responses`) instead, and those tools arrive as
 * `provider-tool-call` / `provider-tool-result` chunks.
 */
import { activityFetch } from "./ai-sdk-activity.js";
import { bodyMergingFetch, generationSettings } from "./generation-settings.js";
import { createXai } from "@ai-sdk/xai";
import type { ToolSet } from "ai";
import type { BackendConfig } from "../config/index.js";
import type { Backend } from "./backend.js";
import { streamWithAiSdk, type AiSdkProviderOptions } from "./ai-sdk-stream.js";
import { requireModel, type ProviderDependencies } from "./provider-config.js";
import { configuredBaseUrl, defaultBaseUrlOf, factsOf } from "./providers/facts.js";
import {
  asTool,
  backendOptions,
  isEnabled,
  recordOf,
  resolveApiKey,
  withDefaultPath,
} from "./provider-config.js";

/** The xAI API base URL used when neither `base_url:` nor `XAI_BASE_URL` is set. */
export const XAI_DEFAULT_BASE_URL = defaultBaseUrlOf("grok");

/**
 * Creates the `grok` backend.
 *
 * - key: `config.api_key`, else `XAI_API_KEY` (sent as `Authorization: Bearer …`);
 * - base URL: `config.base_url`, else `XAI_BASE_URL`, else {@link XAI_DEFAULT_BASE_URL};
 * - options: see {@link grokProviderOptions} and {@link grokProviderTools}.
 *
 * @throws ConfigError when no model or no API key is configured (naming `XAI_API_KEY`).
 */
export function createGrokBackend(
  config: BackendConfig,
  env: Readonly<Record<string, string | undefined>>,
  dependencies: ProviderDependencies = {},
): Backend {
  const model = requireModel(config);
  const generation = generationSettings(config, env);
  const apiKey = resolveApiKey(config, env, {
    provider: "xAI",
    variables: factsOf("grok").keyVariables,
    example: "xai-…",
  });
  const baseURL = withDefaultPath(
    configuredBaseUrl(config, env, factsOf("grok")) ?? XAI_DEFAULT_BASE_URL,
    "/v1",
  );
  const provider = createXai({
    apiKey,
    baseURL,
    fetch: activityFetch(bodyMergingFetch(generation.bodyFields, dependencies.fetch)),
  });
  const providerTools = grokProviderTools(config, provider.tools);
  // xAI's server-side tools exist only in its Responses API; plain calls use Chat Completions.
  const useResponses = Object.keys(providerTools).length > 0;
  const languageModel = useResponses ? provider.responses(model) : provider.chat(model);
  const providerOptions = grokProviderOptions(config);

  return {
    type: "grok",
    reportsActivity: true,
    model,
    stream: (request, options) =>
      streamWithAiSdk(languageModel, "xai", request, {
        ...options,
        callSettings: generation.callSettings,
        providerOptions,
        ...(useResponses ? { providerTools } : {}),
        authHint: "check XAI_API_KEY or `api_key:` in the config",
        ...(dependencies.clock ? { clock: dependencies.clock } : {}),
      }),
  };
}

/**
 * xAI provider options from MassGen-style keys: `reasoning_effort: low|high` or
 * `reasoning: {effort}` → `reasoningEffort` (grok-3-mini; grok-4 always reasons and rejects it).
 */
export function grokProviderOptions(config: BackendConfig): AiSdkProviderOptions {
  const options = backendOptions(config);
  const effort = options.reasoning_effort ?? recordOf(options.reasoning).effort;
  return { xai: typeof effort === "string" ? { reasoningEffort: effort } : {} };
}

/**
 * xAI's server-side tools from `enable_web_search: true` (`web_search`), `enable_x_search: true`
 * (`x_search`) and `enable_code_execution: true` (`code_execution`). Any of them moves the agent
 * to xAI's Responses API, where they run.
 */
export function grokProviderTools(
  config: BackendConfig,
  tools: ReturnType<typeof createXai>["tools"],
): ToolSet {
  const options = backendOptions(config);
  const set: ToolSet = {};
  if (isEnabled(options.enable_web_search)) set.web_search = asTool(tools.webSearch({}));
  if (isEnabled(options.enable_x_search)) set.x_search = asTool(tools.xSearch({}));
  if (isEnabled(options.enable_code_execution)) {
    set.code_execution = asTool(tools.codeExecution({}));
  }
  return set;
}
