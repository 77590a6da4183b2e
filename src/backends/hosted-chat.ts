/**
 * MassGen's hosted provider types that speak Chat Completions: `openrouter`, `groq`, `cerebras`,
 * `together`, `fireworks`, `moonshot`, `nebius`, `poe`, `qwen` (their base URLs and key variables
 * in `src/config/chat-providers.ts`). Groq, Together AI, Fireworks and Cerebras go through their ai
 * SDK provider packages; the others through `@ai-sdk/openai-compatible`. All stream through
 * {@link streamWithAiSdk}, with the config's generation parameters (`generation-settings.ts`).
 */
import { createCerebras } from "@ai-sdk/cerebras";
import { createFireworks } from "@ai-sdk/fireworks";
import { createGroq } from "@ai-sdk/groq";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createTogetherAI } from "@ai-sdk/togetherai";
import type { AiSdkModel } from "./ai-sdk-stream.js";
import { chatProviderOf, type BackendConfig, type ChatProviderInfo } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { activityFetch } from "./ai-sdk-activity.js";
import { streamWithAiSdk } from "./ai-sdk-stream.js";
import type { Backend } from "./backend.js";
import { bodyMergingFetch, generationSettings } from "./generation-settings.js";
import { sharedLanguageModel } from "./model-cache.js";
import { requireModel, type ProviderDependencies } from "./openai.js";
import { resolveApiKey } from "./provider-config.js";

/**
 * Creates the backend of a hosted Chat Completions provider type.
 *
 * - base URL: `config.base_url`, else the provider's ({@link ChatProviderInfo.baseUrl});
 * - key: `config.api_key`, else the provider's variables in order (`QWEN_API_KEY`,
 *   `DASHSCOPE_API_KEY`, …).
 *
 * @throws ConfigError for a type that is not a hosted provider, a missing model, or a missing key
 *   (naming the variable).
 */
export function createHostedChatBackend(
  config: BackendConfig,
  env: Readonly<Record<string, string | undefined>>,
  dependencies: ProviderDependencies = {},
): Backend {
  const provider = chatProviderOf(config.type);
  if (provider === undefined) {
    throw new ConfigError(`Backend type \`${config.type}\` is not a hosted Chat Completions type`);
  }
  const model = requireModel(config);
  const apiKey = resolveApiKey(config, env, {
    provider: provider.label,
    variables: provider.keyVariables,
  });
  const generation = generationSettings(config, env);
  const baseURL = (config.base_url ?? provider.baseUrl).replace(/\/+$/, "");
  // Built once per distinct settings (model-cache.ts); the tool-choice memory stays this backend's.
  const languageModel = sharedLanguageModel(
    {
      sdk: provider.sdk,
      type: provider.type,
      apiKey,
      baseURL,
      bodyFields: generation.bodyFields,
      model,
    },
    dependencies.fetch,
    () =>
      languageModelOf(
        provider,
        {
          apiKey,
          baseURL,
          fetch: activityFetch(bodyMergingFetch(generation.bodyFields, dependencies.fetch)),
        },
        model,
      ),
  );
  const instance = {};
  const [keyVariable] = provider.keyVariables;
  return {
    type: config.type,
    model,
    reportsActivity: true,
    stream: (request, options) =>
      streamWithAiSdk(languageModel, provider.type, request, {
        ...options,
        instance,
        callSettings: generation.callSettings,
        authHint: `check ${keyVariable} or \`api_key:\` in the config`,
        ...(dependencies.clock ? { clock: dependencies.clock } : {}),
      }),
  };
}

function languageModelOf(
  provider: ChatProviderInfo,
  settings: { apiKey: string; baseURL: string; fetch: typeof fetch },
  model: string,
): AiSdkModel {
  switch (provider.sdk) {
    case "groq":
      return createGroq(settings).languageModel(model);
    case "togetherai":
      return createTogetherAI(settings).chatModel(model);
    case "fireworks":
      return createFireworks(settings).chatModel(model);
    case "cerebras":
      return createCerebras(settings).languageModel(model);
    case "openai-compatible":
      return createOpenAICompatible({
        name: provider.type,
        ...settings,
        includeUsage: true,
      }).chatModel(model);
  }
}
