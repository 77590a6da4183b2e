/**
 * The `openai` backend: OpenAI's Responses API (`POST /v1/responses`) through `@ai-sdk/openai`.
 * Reasoning models stream their reasoning summaries as `reasoning-delta` chunks.
 */
import { activityFetch } from "./ai-sdk-activity.js";
import { bodyMergingFetch, generationSettings } from "./generation-settings.js";
import { createOpenAI } from "@ai-sdk/openai";
import type { ToolSet } from "ai";
import type { BackendConfig } from "../config/index.js";
import { ConfigError } from "../errors.js";
import type { Backend } from "./backend.js";
import { streamWithAiSdk, type AiSdkProviderOptions } from "./ai-sdk-stream.js";
import {
  asTool,
  backendOptions,
  isEnabled,
  requireModel,
  type ProviderDependencies,
} from "./provider-config.js";

export { requireModel, type ProviderDependencies };
import { configuredBaseUrl, defaultBaseUrlOf, factsOf } from "./providers/facts.js";

/** The OpenAI API base URL used when neither `base_url:` nor `OPENAI_BASE_URL` is set. */
export const OPENAI_DEFAULT_BASE_URL = defaultBaseUrlOf("openai");

/** Injected dependencies of the OpenAI-family backends (CONTRIBUTING.md rule 9). */
/**
 * Creates the `openai` backend (Responses API, one `POST {base_url}/responses` per call).
 *
 * - key: `config.api_key`, else `env.OPENAI_API_KEY`;
 * - base URL: `config.base_url`, else `env.OPENAI_BASE_URL`, else {@link OPENAI_DEFAULT_BASE_URL};
 * - reasoning: MassGen's `reasoning: {effort, summary}` backend keys pass through; the summary
 *   defaults to `auto` so reasoning models stream their reasoning (ignored by other models);
 * - `text: {verbosity: low|medium|high}` passes through; `enable_web_search` and
 *   `enable_code_interpreter` offer OpenAI's hosted tools ({@link openAIProviderTools}).
 *
 * @param config the agent's `backend` block.
 * @param env environment variables (already merged with `~/.config/coord/.env`).
 * @param dependencies optional injected `fetch` and clock.
 * @throws ConfigError when no model or no API key is configured.
 */
export function createOpenAIBackend(
  config: BackendConfig,
  env: Record<string, string | undefined>,
  dependencies: ProviderDependencies = {},
): Backend {
  const model = requireModel(config);
  const generation = generationSettings(config, env);
  const facts = factsOf("openai");
  const apiKey =
    nonEmpty(config.api_key) ??
    facts.keyVariables
      .map((variable) => nonEmpty(env[variable]))
      .find((value) => value !== undefined);
  if (apiKey === undefined) {
    throw new ConfigError(
      "No OpenAI API key: export OPENAI_API_KEY=sk-…, or add OPENAI_API_KEY=… to ~/.config/coord/.env, " +
        "or set `api_key:` in the agent's backend config",
    );
  }
  const baseURL = configuredBaseUrl(config, env, facts) ?? OPENAI_DEFAULT_BASE_URL;
  const provider = createOpenAI({
    apiKey,
    baseURL,
    fetch: activityFetch(bodyMergingFetch(generation.bodyFields, dependencies.fetch)),
  });
  const languageModel = provider.responses(model);
  const providerOptions = responsesProviderOptions(config);
  const providerTools = openAIProviderTools(config, provider.tools);

  return {
    type: "openai",
    reportsActivity: true,
    model,
    stream: (request, options) =>
      streamWithAiSdk(languageModel, "openai", request, {
        ...options,
        callSettings: generation.callSettings,
        providerOptions,
        providerTools,
        authHint: "check OPENAI_API_KEY or `api_key:` in the config",
        ...(dependencies.clock ? { clock: dependencies.clock } : {}),
      }),
  };
}

/**
 * Responses-API options from the backend config. MassGen configs write
 * `reasoning: {effort: low|medium|high, summary: auto|concise|detailed}`; for reasoning models
 * coord defaults the summary to `auto` so their reasoning streams.
 */
export function responsesProviderOptions(config: BackendConfig): AiSdkProviderOptions {
  const reasoning = (config as Record<string, unknown>).reasoning;
  const fields =
    typeof reasoning === "object" && reasoning !== null
      ? (reasoning as Record<string, unknown>)
      : {};
  const summary =
    typeof fields.summary === "string"
      ? fields.summary
      : isReasoningModelName(config.model ?? "")
        ? "auto"
        : undefined;
  const text = (config as Record<string, unknown>).text;
  const verbosity =
    typeof text === "object" && text !== null
      ? (text as Record<string, unknown>).verbosity
      : (config as Record<string, unknown>).verbosity;
  return {
    openai: {
      ...(summary !== undefined ? { reasoningSummary: summary } : {}),
      ...(typeof fields.effort === "string" ? { reasoningEffort: fields.effort } : {}),
      ...(typeof verbosity === "string" ? { textVerbosity: verbosity } : {}),
    },
  };
}

/**
 * OpenAI's hosted tools from MassGen's keys: `enable_web_search: true` (`web_search`) and
 * `enable_code_interpreter: true` (`code_interpreter` in an automatic container). Their calls
 * arrive as `provider-tool-call` / `provider-tool-result` chunks.
 */
export function openAIProviderTools(
  config: BackendConfig,
  tools: ReturnType<typeof createOpenAI>["tools"],
): ToolSet {
  const options = backendOptions(config);
  const set: ToolSet = {};
  if (isEnabled(options.enable_web_search)) set.web_search = asTool(tools.webSearch({}));
  if (isEnabled(options.enable_code_interpreter)) {
    set.code_interpreter = asTool(tools.codeInterpreter({}));
  }
  return set;
}

/**
 * True for OpenAI reasoning models: the o-series (`o1`, `o3-mini`, `o4-mini`, …) and GPT-5 and
 * later except the `-chat` variants (the rule `@ai-sdk/openai` applies).
 */
export function isReasoningModelName(model: string): boolean {
  const name = model.toLowerCase().replace(/^openai\//, "");
  if (/^o\d/.test(name)) return true;
  const gpt = /^gpt-(\d+)(?:\.\d+)?(?:-(.*))?$/.exec(name);
  return gpt !== null && Number(gpt[1]) >= 5 && !(gpt[2] ?? "").startsWith("chat");
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
}
