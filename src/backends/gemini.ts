/**
 * The `gemini` backend: Google's Generative Language API
 * (`POST {base_url}/models/{model}:streamGenerateContent?alt=sse`) through `@ai-sdk/google`.
 * Thoughts stream as `reasoning-delta` chunks; Google Search and code execution run on Google's
 * side and arrive as `provider-tool-call` / `provider-tool-result` chunks.
 *
 * Provider quirks (CONTRIBUTING.md rule 4): Google reports web searches only as grounding metadata
 * on the last chunk ({@link groundingToolChunks}), and says how long to wait after a 429 in the
 * error body, not in a header ({@link retryInfoDelayMs}).
 */
import { activityFetch } from "./ai-sdk-activity.js";
import { bodyMergingFetch, generationSettings } from "./generation-settings.js";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import type { ToolSet } from "ai";
import type { BackendConfig } from "../config/index.js";
import { BackendError, type Backend, type BackendChunk } from "./backend.js";
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

/** The Gemini API base URL used when `base_url:` is not set. */
export const GEMINI_DEFAULT_BASE_URL = defaultBaseUrlOf("gemini");

/**
 * Creates the `gemini` backend.
 *
 * - key: `config.api_key`, else `GEMINI_API_KEY`, else `GOOGLE_API_KEY`, else
 *   `GOOGLE_GENERATIVE_AI_API_KEY` (sent as `x-goog-api-key`);
 * - base URL: `config.base_url`, else `GEMINI_BASE_URL`, else {@link GEMINI_DEFAULT_BASE_URL}
 *   (a URL without a path gets `/v1beta`);
 * - options: see {@link geminiProviderOptions} and {@link geminiProviderTools}.
 *
 * @throws ConfigError when no model or no API key is configured (naming `GEMINI_API_KEY`).
 */
export function createGeminiBackend(
  config: BackendConfig,
  env: Readonly<Record<string, string | undefined>>,
  dependencies: ProviderDependencies = {},
): Backend {
  const model = requireModel(config);
  const generation = generationSettings(config, env);
  const apiKey = resolveApiKey(config, env, {
    provider: "Gemini",
    variables: factsOf("gemini").keyVariables,
    example: "AIza…",
  });
  const baseURL = withDefaultPath(
    configuredBaseUrl(config, env, factsOf("gemini")) ?? GEMINI_DEFAULT_BASE_URL,
    "/v1beta",
  );
  const provider = createGoogleGenerativeAI({
    apiKey,
    baseURL,
    fetch: activityFetch(bodyMergingFetch(generation.bodyFields, dependencies.fetch)),
  });
  const languageModel = provider.languageModel(model);
  const providerOptions = geminiProviderOptions(config);
  const providerTools = geminiProviderTools(config, provider.tools);

  async function* stream(
    ...[request, options]: Parameters<Backend["stream"]>
  ): AsyncIterable<BackendChunk> {
    // Gemini 3 may report server tool calls as parts; then the grounding summary would repeat them.
    let sawProviderCall = false;
    try {
      for await (const chunk of streamWithAiSdk(languageModel, "gemini", request, {
        ...options,
        callSettings: generation.callSettings,
        providerOptions,
        providerTools,
        metadataChunks: (metadata) => (sawProviderCall ? [] : groundingToolChunks(metadata)),
        authHint: "check GEMINI_API_KEY (or GOOGLE_API_KEY) or `api_key:` in the config",
        ...(dependencies.clock ? { clock: dependencies.clock } : {}),
      })) {
        if (chunk.type === "provider-tool-call") sawProviderCall = true;
        yield chunk;
      }
    } catch (error) {
      throw withRetryDelay(error);
    }
  }

  return { type: "gemini", model, reportsActivity: true, stream };
}

/**
 * Gemini provider options from MassGen-style keys: `thinking_budget: N` (tokens; `-1` dynamic,
 * `0` off), `include_thoughts: bool`, `thinking_level: low|high` (Gemini 3), also nested as
 * `thinking_config: {thinking_budget, include_thoughts, thinking_level}`. Thoughts are included by
 * default whenever thinking is configured or the model thinks (Gemini 2.5 and later), so they
 * stream as reasoning.
 */
export function geminiProviderOptions(config: BackendConfig): AiSdkProviderOptions {
  const options = backendOptions(config);
  const nested = recordOf(options.thinking_config);
  const budget = numberOf(options.thinking_budget) ?? numberOf(nested.thinking_budget);
  const level = options.thinking_level ?? nested.thinking_level;
  const include = options.include_thoughts ?? nested.include_thoughts;
  const includeThoughts =
    include !== undefined
      ? isEnabled(include)
      : budget !== undefined && budget !== 0
        ? true
        : typeof level === "string" || isThinkingModelName(config.model ?? "")
          ? true
          : undefined;
  const thinkingConfig = {
    ...(budget !== undefined ? { thinkingBudget: budget } : {}),
    ...(typeof level === "string" ? { thinkingLevel: level } : {}),
    ...(includeThoughts !== undefined ? { includeThoughts } : {}),
  };
  return {
    google: Object.keys(thinkingConfig).length > 0 ? { thinkingConfig } : {},
  };
}

/** True for Gemini models that think: 2.5 and later. */
export function isThinkingModelName(model: string): boolean {
  const match = /gemini-(\d+)(?:\.(\d+))?/.exec(model.toLowerCase());
  if (match === null) return false;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  return major > 2 || (major === 2 && minor >= 5);
}

/**
 * Google's hosted tools from `enable_web_search: true` (Google Search grounding) and
 * `enable_code_execution: true`. Gemini before 3 cannot combine them with function tools in one
 * call; the SDK then warns and the API may refuse.
 */
export function geminiProviderTools(
  config: BackendConfig,
  tools: ReturnType<typeof createGoogleGenerativeAI>["tools"],
): ToolSet {
  const options = backendOptions(config);
  const set: ToolSet = {};
  if (isEnabled(options.enable_web_search)) set.google_search = asTool(tools.googleSearch({}));
  if (isEnabled(options.enable_code_execution)) {
    set.code_execution = asTool(tools.codeExecution({}));
  }
  return set;
}

/**
 * A `web_search` provider tool call and result from Gemini's grounding metadata
 * (`providerMetadata.google.groundingMetadata`: `webSearchQueries`, `groundingChunks[].web`).
 * Empty when the step was not grounded.
 */
export function groundingToolChunks(providerMetadata: unknown): BackendChunk[] {
  const grounding = recordOf(recordOf(recordOf(providerMetadata).google).groundingMetadata);
  const queries = Array.isArray(grounding.webSearchQueries)
    ? grounding.webSearchQueries.filter((query): query is string => typeof query === "string")
    : [];
  if (queries.length === 0) return [];
  const results = (Array.isArray(grounding.groundingChunks) ? grounding.groundingChunks : [])
    .map((chunk) => recordOf(recordOf(chunk).web))
    .filter((web) => typeof web.uri === "string")
    .map((web) => ({ url: web.uri, title: typeof web.title === "string" ? web.title : "" }));
  const toolCallId = "gemini_web_search";
  return [
    { type: "provider-tool-call", toolCallId, toolName: "web_search", input: { queries } },
    {
      type: "provider-tool-result",
      toolCallId,
      toolName: "web_search",
      output: results,
      isError: false,
    },
  ];
}

/**
 * Milliseconds from a Google error body's `google.rpc.RetryInfo` detail (`"retryDelay": "37s"`),
 * or undefined.
 */
export function retryInfoDelayMs(responseBody: string | undefined): number | undefined {
  if (responseBody === undefined) return undefined;
  const match = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(responseBody);
  return match === null ? undefined : Math.round(Number(match[1]) * 1000);
}

/** A BackendError with the body's RetryInfo delay when the headers gave none. */
function withRetryDelay(error: unknown): unknown {
  if (!(error instanceof BackendError) || error.retryAfterMs !== undefined) return error;
  const body = recordOf(error.cause).responseBody;
  const delay = retryInfoDelayMs(typeof body === "string" ? body : undefined);
  if (delay === undefined) return error;
  return new BackendError({
    message: error.message,
    provider: error.provider,
    ...(error.status !== undefined ? { status: error.status } : {}),
    retryable: error.retryable,
    retryAfterMs: delay,
    cause: error.cause,
  });
}
