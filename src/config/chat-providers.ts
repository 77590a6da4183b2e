/**
 * The hosted providers MassGen names as backend types and coord runs through their Chat
 * Completions APIs: their default base URLs and API key variables (MassGen's, so its configs run
 * unchanged), and which ai SDK package speaks to each (a provider package where a well-kept one
 * exists, else `@ai-sdk/openai-compatible`). Read by the backends (`src/backends/hosted-chat.ts`),
 * `coord --validate` and the docs.
 */
import type { BackendType } from "./backend-types.js";

/** The ai SDK package behind a hosted Chat Completions provider. */
export type ChatProviderSdk =
  "groq" | "togetherai" | "fireworks" | "cerebras" | "openai-compatible";

/** One hosted Chat Completions provider. */
export interface ChatProviderInfo {
  type: BackendType;
  /** Human name: `Groq`, `Together AI`, … */
  label: string;
  /** Base URL when the config sets no `base_url:` (MassGen's default). */
  baseUrl: string;
  /** Key variables, in the order they are tried; the first is the one messages name. */
  keyVariables: readonly string[];
  sdk: ChatProviderSdk;
}

/** The providers, by backend type. */
export const CHAT_PROVIDERS: readonly ChatProviderInfo[] = [
  {
    type: "openrouter",
    label: "OpenRouter",
    baseUrl: "https://openrouter.ai/api/v1",
    keyVariables: ["OPENROUTER_API_KEY"],
    sdk: "openai-compatible",
  },
  {
    type: "groq",
    label: "Groq",
    baseUrl: "https://api.groq.com/openai/v1",
    keyVariables: ["GROQ_API_KEY"],
    sdk: "groq",
  },
  {
    type: "cerebras",
    label: "Cerebras",
    baseUrl: "https://api.cerebras.ai/v1",
    keyVariables: ["CEREBRAS_API_KEY"],
    sdk: "cerebras",
  },
  {
    type: "together",
    label: "Together AI",
    baseUrl: "https://api.together.xyz/v1",
    keyVariables: ["TOGETHER_API_KEY"],
    sdk: "togetherai",
  },
  {
    type: "fireworks",
    label: "Fireworks AI",
    baseUrl: "https://api.fireworks.ai/inference/v1",
    keyVariables: ["FIREWORKS_API_KEY"],
    sdk: "fireworks",
  },
  {
    type: "moonshot",
    label: "Moonshot AI, Kimi",
    baseUrl: "https://api.moonshot.cn/v1",
    keyVariables: ["MOONSHOT_API_KEY", "KIMI_API_KEY"],
    sdk: "openai-compatible",
  },
  {
    type: "nebius",
    label: "Nebius AI Studio",
    baseUrl: "https://api.studio.nebius.ai/v1",
    keyVariables: ["NEBIUS_API_KEY"],
    sdk: "openai-compatible",
  },
  {
    type: "poe",
    label: "Poe",
    baseUrl: "https://api.poe.com/v1",
    keyVariables: ["POE_API_KEY"],
    sdk: "openai-compatible",
  },
  {
    type: "qwen",
    label: "Qwen, Alibaba Cloud Model Studio",
    baseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
    keyVariables: ["QWEN_API_KEY", "DASHSCOPE_API_KEY"],
    sdk: "openai-compatible",
  },
];

/** The provider of a backend type, or undefined when the type is not one of {@link CHAT_PROVIDERS}. */
export function chatProviderOf(type: string): ChatProviderInfo | undefined {
  return CHAT_PROVIDERS.find((provider) => provider.type === type);
}
