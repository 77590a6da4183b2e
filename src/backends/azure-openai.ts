/**
 * The `azure_openai` backend: an Azure OpenAI resource through `@ai-sdk/azure`, with the
 * deployment name as `model`. Two Azure APIs, chosen by the API version:
 *
 * - `api_version: v1` (the default): the v1 API, `POST {endpoint}/openai/v1/responses` — the
 *   Responses API as OpenAI serves it (reasoning summaries stream as `reasoning-delta`);
 * - a dated version (`2024-10-21`, `2025-04-01-preview`, as MassGen configs and older resources
 *   use): `POST {endpoint}/openai/deployments/{model}/chat/completions?api-version=…`.
 */
import { activityFetch } from "./ai-sdk-activity.js";
import { bodyMergingFetch, generationSettings } from "./generation-settings.js";
import { createAzure } from "@ai-sdk/azure";
import type { BackendConfig } from "../config/index.js";
import { ConfigError } from "../errors.js";
import type { Backend } from "./backend.js";
import { streamWithAiSdk, type AiSdkProviderOptions } from "./ai-sdk-stream.js";
import { responsesProviderOptions } from "./openai.js";
import { requireModel, type ProviderDependencies } from "./provider-config.js";
import { factsOf } from "./providers/facts.js";
import { backendOptions, nonEmpty, recordOf, resolveApiKey } from "./provider-config.js";

/** Where and how one Azure backend connects. */
export interface AzureEndpoint {
  /** The resource root without a path suffix, e.g. `https://my-resource.openai.azure.com`. */
  resource: string;
  /** `v1`, or a dated version such as `2025-04-01-preview`. */
  apiVersion: string;
  /** `responses` for the v1 API, `deployment-chat` for dated versions. */
  api: "responses" | "deployment-chat";
}

/**
 * Creates the `azure_openai` backend.
 *
 * - deployment: `config.model`;
 * - endpoint: `config.base_url`, else `AZURE_OPENAI_ENDPOINT` (`https://<resource>.openai.azure.com`;
 *   a trailing `/openai` or `/openai/v1` is accepted);
 * - API version: `config.api_version`, else `AZURE_OPENAI_API_VERSION`, else `v1`;
 * - key: `config.api_key`, else `AZURE_OPENAI_API_KEY` (sent as `api-key`).
 *
 * @throws ConfigError when the deployment, the endpoint or the key is missing.
 */
export function createAzureOpenAIBackend(
  config: BackendConfig,
  env: Readonly<Record<string, string | undefined>>,
  dependencies: ProviderDependencies = {},
): Backend {
  const model = requireModel(config);
  const generation = generationSettings(config, env);
  const endpoint = resolveAzureEndpoint(config, env);
  const apiKey = resolveApiKey(config, env, {
    provider: "Azure OpenAI",
    variables: factsOf("azure_openai").keyVariables,
  });
  const fetchOption = {
    fetch: activityFetch(bodyMergingFetch(generation.bodyFields, dependencies.fetch)),
  };
  const languageModel =
    endpoint.api === "responses"
      ? createAzure({
          apiKey,
          baseURL: `${endpoint.resource}/openai/v1`,
          ...fetchOption,
        }).responses(model)
      : createAzure({
          apiKey,
          baseURL: `${endpoint.resource}/openai`,
          apiVersion: endpoint.apiVersion,
          useDeploymentBasedUrls: true,
          ...fetchOption,
        }).chat(model);
  const providerOptions = endpoint.api === "responses" ? azureResponsesOptions(config) : {};

  return {
    type: "azure_openai",
    reportsActivity: true,
    model,
    stream: (request, options) =>
      streamWithAiSdk(languageModel, "azure_openai", request, {
        ...options,
        callSettings: generation.callSettings,
        providerOptions,
        authHint: "check AZURE_OPENAI_API_KEY or `api_key:` in the config",
        ...(dependencies.clock ? { clock: dependencies.clock } : {}),
      }),
  };
}

/**
 * The resource root, API version and API of an Azure backend.
 * @throws ConfigError when neither `base_url:` nor `AZURE_OPENAI_ENDPOINT` is set, or it is not a URL.
 */
export function resolveAzureEndpoint(
  config: BackendConfig,
  env: Readonly<Record<string, string | undefined>>,
): AzureEndpoint {
  const raw = nonEmpty(config.base_url) ?? nonEmpty(env.AZURE_OPENAI_ENDPOINT);
  if (raw === undefined) {
    throw new ConfigError(
      "No Azure OpenAI endpoint: export AZURE_OPENAI_ENDPOINT=https://<resource>.openai.azure.com, " +
        "or set `base_url:` in the agent's backend config",
    );
  }
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(
      `\`base_url: ${raw}\` is not a URL: write it like https://<resource>.openai.azure.com`,
    );
  }
  const resource = raw.replace(/\/+$/, "").replace(/\/openai(\/v1)?$/i, "");
  const configured = backendOptions(config).api_version;
  const apiVersion =
    (typeof configured === "string" ? nonEmpty(configured) : undefined) ??
    nonEmpty(env.AZURE_OPENAI_API_VERSION) ??
    "v1";
  return {
    resource,
    apiVersion,
    api: apiVersion.toLowerCase() === "v1" ? "responses" : "deployment-chat",
  };
}

/**
 * Responses options for a deployment. A deployment's name need not be the model's, so the SDK
 * cannot tell a reasoning model by it: an explicit `reasoning:` block in the config forces
 * reasoning mode (`forceReasoning`), which also sends the system prompt as `developer`.
 */
export function azureResponsesOptions(config: BackendConfig): AiSdkProviderOptions {
  const options = responsesProviderOptions(config).openai ?? {};
  const explicit = Object.keys(recordOf(backendOptions(config).reasoning)).length > 0;
  return { openai: explicit ? { ...options, forceReasoning: true } : options };
}
