/** `openai`: OpenAI's Responses API (`src/backends/openai.ts`). */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const openai = defineProvider({
  type: "openai",
  label: "OpenAI",
  implementation: "openai",
  keyVariables: ["OPENAI_API_KEY"],
  baseUrlVariable: "OPENAI_BASE_URL",
  defaultBaseUrl: "https://api.openai.com/v1",
  defaultModel: "gpt-4o-mini",
  modelNames: /^(gpt-|chatgpt|o\d)/,
  generationParameters: ["temperature", "top_p", "max_tokens", "reasoning_effort", "extra_body"],
  hosts: ["api.openai.com"],
  setup: {
    order: 1,
    fastModels: ["gpt-4o-mini", "gpt-4.1-mini", "gpt-4.1-nano"],
    strongModels: ["gpt-5-mini", "gpt-4.1", "gpt-5"],
    keyCheck: { path: "/models", header: "bearer" },
  },
  capabilities: { ...NO_CAPABILITIES, reasoning: true, webSearch: true },
  price: { kind: "list", provider: "openai" },
  tracing: { providerName: "openai" },
});
