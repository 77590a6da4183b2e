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
  capabilities: { ...NO_CAPABILITIES, reasoning: true, webSearch: true, codeExecution: true },
  price: { kind: "list", provider: "x-ai" },
  tracing: { providerName: "x_ai" },
});
