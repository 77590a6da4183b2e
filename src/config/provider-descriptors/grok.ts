/** `grok`: xAI's API (`src/backends/grok.ts`). */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const grok = defineProvider({
  type: "grok",
  label: "xAI (Grok)",
  implementation: "grok",
  keyVariables: ["XAI_API_KEY"],
  baseUrlVariable: "XAI_BASE_URL",
  defaultBaseUrl: "https://api.x.ai/v1",
  defaultModel: "grok-4-1-fast-non-reasoning",
  modelNames: /^grok/,
  generationParameters: [
    "temperature",
    "top_p",
    "max_tokens",
    "seed",
    "reasoning_effort",
    "extra_body",
  ],
  // Named `xai` when a `chatcompletion` agent points at its API.
  hosts: [{ domain: "api.x.ai", provider: "xai" }],
  setup: {
    order: 4,
    fastModels: ["grok-4-1-fast-non-reasoning", "grok-3-mini"],
    strongModels: ["grok-4", "grok-4-1-fast-reasoning"],
    keyCheck: { path: "/models", header: "bearer" },
  },
  capabilities: { ...NO_CAPABILITIES, reasoning: true, webSearch: true, codeExecution: true },
  price: { kind: "list", provider: "x-ai" },
  tracing: { providerName: "x_ai" },
});
