/** `openrouter`: OpenRouter, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const openrouter = defineProvider({
  type: "openrouter",
  label: "OpenRouter",
  implementation: "hosted_chat",
  keyVariables: ["OPENROUTER_API_KEY"],
  defaultBaseUrl: "https://openrouter.ai/api/v1",
  sdk: "openai-compatible",
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true, topK: true },
  price: { kind: "list", provider: "openrouter" },
  tracing: { providerName: "openrouter" },
});
