/** `gemini`: Google's Gemini API (`src/backends/gemini.ts`). */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const gemini = defineProvider({
  type: "gemini",
  label: "Google Gemini",
  implementation: "gemini",
  keyVariables: ["GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY"],
  baseUrlVariable: "GEMINI_BASE_URL",
  defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
  defaultModel: "gemini-2.5-flash",
  modelNames: /^gemini/,
  generationParameters: [
    "temperature",
    "top_p",
    "top_k",
    "max_tokens",
    "frequency_penalty",
    "presence_penalty",
    "seed",
    "stop",
    "extra_body",
  ],
  hosts: ["generativelanguage.googleapis.com"],
  setup: {
    order: 3,
    fastModels: ["gemini-2.5-flash", "gemini-2.5-flash-lite"],
    strongModels: ["gemini-2.5-pro", "gemini-2.5-flash"],
    keyCheck: { path: "/models", header: "x-goog-api-key" },
  },
  capabilities: { ...NO_CAPABILITIES, webSearch: true, codeExecution: true },
  price: { kind: "list", provider: "google" },
  tracing: { providerName: "gcp.gemini" },
});
