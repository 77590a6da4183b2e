/**
 * The `claude` backend: Anthropic's Messages API (`POST {base_url}/messages`) through
 * `@ai-sdk/anthropic`. Extended thinking streams as `reasoning-delta` chunks; Anthropic's own web
 * search and code execution run on Anthropic's side and arrive as `provider-tool-call` /
 * `provider-tool-result` chunks.
 */
import { activityFetch } from "./ai-sdk-activity.js";
import { bodyMergingFetch, generationSettings } from "./generation-settings.js";
import { createAnthropic } from "@ai-sdk/anthropic";
import type { ToolSet } from "ai";
import type { BackendConfig } from "../config/index.js";
import type { Backend, ModelRequest } from "./backend.js";
import { streamWithAiSdk, type AiSdkProviderOptions } from "./ai-sdk-stream.js";
import { requireModel, type ProviderDependencies } from "./provider-config.js";
import { configuredBaseUrl, defaultBaseUrlOf, factsOf } from "./providers/facts.js";
import {
  asTool,
  backendOptions,
  isEnabled,
  numberOf,
  recordOf,
  resolveApiKey,
  withDefaultPath,
} from "./provider-config.js";

/** The Anthropic API base URL used when neither `base_url:` nor `ANTHROPIC_BASE_URL` is set. */
export const ANTHROPIC_DEFAULT_BASE_URL = defaultBaseUrlOf("claude");

/**
 * Creates the `claude` backend.
 *
 * - key: `config.api_key`, else `env.ANTHROPIC_API_KEY` (sent as `x-api-key`);
 * - base URL: `config.base_url`, else `env.ANTHROPIC_BASE_URL`, else
 *   {@link ANTHROPIC_DEFAULT_BASE_URL}; a URL without a path (`https://host`, as Claude Code
 *   writes `ANTHROPIC_BASE_URL`) gets `/v1`;
 * - options: see {@link claudeProviderOptions} and {@link claudeProviderTools}.
 *
 * @param config the agent's `backend` block.
 * @param env environment variables (already merged with `~/.config/coord/.env`).
 * @param dependencies optional injected `fetch` and clock.
 * @throws ConfigError when no model or no API key is configured (naming `ANTHROPIC_API_KEY`).
 */
export function createClaudeBackend(
  config: BackendConfig,
  env: Readonly<Record<string, string | undefined>>,
  dependencies: ProviderDependencies = {},
): Backend {
  const model = requireModel(config);
  const generation = generationSettings(config, env);
  const apiKey = resolveApiKey(config, env, {
    provider: "Anthropic",
    variables: factsOf("claude").keyVariables,
    example: "sk-ant-…",
  });
  const baseURL = withDefaultPath(
    configuredBaseUrl(config, env, factsOf("claude")) ?? ANTHROPIC_DEFAULT_BASE_URL,
    "/v1",
  );
  const provider = createAnthropic({
    apiKey,
    baseURL,
    fetch: activityFetch(bodyMergingFetch(generation.bodyFields, dependencies.fetch)),
  });
  const languageModel = provider.messages(model);
  const providerOptions = claudeProviderOptions(config);
  const providerTools = claudeProviderTools(config, provider.tools);
  const thinking = thinksWith(providerOptions);

  return {
    type: "claude",
    reportsActivity: true,
    model,
    stream: (request, options) =>
      streamWithAiSdk(languageModel, "anthropic", adaptClaudeRequest(request, thinking), {
        ...options,
        callSettings: generation.callSettings,
        providerOptions,
        providerTools,
        authHint: "check ANTHROPIC_API_KEY or `api_key:` in the config",
        ...(dependencies.clock ? { clock: dependencies.clock } : {}),
      }),
  };
}

/**
 * Anthropic provider options from MassGen-style keys:
 *
 * - extended thinking: `thinking_budget_tokens: N`, or `thinking: {type: enabled, budget_tokens: N}`
 *   → `thinking: {type: "enabled", budgetTokens: N}`; `thinking: {type: adaptive}` passes through;
 * - `effort: low|medium|high|…` (or `reasoning: {effort}`) → `effort`.
 */
export function claudeProviderOptions(config: BackendConfig): AiSdkProviderOptions {
  const options = backendOptions(config);
  const thinking = recordOf(options.thinking);
  const budget = numberOf(options.thinking_budget_tokens) ?? numberOf(thinking.budget_tokens);
  const thinkingType = typeof thinking.type === "string" ? thinking.type : undefined;
  const effort =
    typeof options.effort === "string"
      ? options.effort
      : typeof recordOf(options.reasoning).effort === "string"
        ? (recordOf(options.reasoning).effort as string)
        : undefined;
  const anthropic: Record<string, unknown> = {};
  if (thinkingType === "adaptive") anthropic.thinking = { type: "adaptive" };
  else if (thinkingType === "disabled") anthropic.thinking = { type: "disabled" };
  else if (budget !== undefined || thinkingType === "enabled") {
    anthropic.thinking = {
      type: "enabled",
      ...(budget !== undefined ? { budgetTokens: budget } : {}),
    };
  }
  if (effort !== undefined) anthropic.effort = effort;
  return { anthropic: anthropic as AiSdkProviderOptions[string] };
}

/**
 * Anthropic's server tools from `enable_web_search: true` (`web_search_20250305`, with
 * `web_search_max_uses: N` when set) and `enable_code_execution: true` (`code_execution_20250825`).
 */
export function claudeProviderTools(
  config: BackendConfig,
  tools: ReturnType<typeof createAnthropic>["tools"],
): ToolSet {
  const options = backendOptions(config);
  const set: ToolSet = {};
  if (isEnabled(options.enable_web_search)) {
    const maxUses = numberOf(options.web_search_max_uses);
    set.web_search = asTool(tools.webSearch_20250305(maxUses !== undefined ? { maxUses } : {}));
  }
  if (isEnabled(options.enable_code_execution)) {
    set.code_execution = asTool(tools.codeExecution_20250825());
  }
  return set;
}

/**
 * Anthropic refuses a forced tool choice (`tool_choice: any`) while extended thinking is on: with
 * thinking, a `required` call is sent as `auto` (the engine still checks that a workflow tool was
 * called, and asks again if not).
 */
export function adaptClaudeRequest(request: ModelRequest, thinking: boolean): ModelRequest {
  return thinking && request.toolChoice === "required"
    ? { ...request, toolChoice: "auto" }
    : request;
}

/** True when the options turn extended thinking on (`enabled` or `adaptive`). */
function thinksWith(options: AiSdkProviderOptions): boolean {
  const type = recordOf(recordOf(options.anthropic).thinking).type;
  return type === "enabled" || type === "adaptive";
}
