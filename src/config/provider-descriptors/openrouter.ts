/** `openrouter`: OpenRouter, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const openrouter = defineProvider({
  type: "openrouter",
  label: "OpenRouter",
  implementation: "hosted_chat",
  keyVariables: ["OPENROUTER_API_KEY"],
  defaultBaseUrl: "https://openrouter.ai/api/v1",
  sdk: "openai-compatible",
  hosts: ["openrouter.ai"],
  setup: {
    order: 6,
    fastModels: ["openai/gpt-4o-mini", "google/gemini-2.5-flash"],
    strongModels: ["anthropic/claude-sonnet-4.5", "openai/gpt-5-mini"],
    // The wizard's agents are `chatcompletion` at OpenRouter's base URL.
    agentType: "chatcompletion",
    // /models answers without a key; /key describes the key and refuses a bad one.
    keyCheck: { path: "/key", header: "bearer" },
  },
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true, topK: true },
  price: { kind: "list", provider: "openrouter" },
  tracing: { providerName: "openrouter" },
});
