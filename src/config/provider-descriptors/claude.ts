/** `claude`: Anthropic's Messages API (`src/backends/claude.ts`). */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const claude = defineProvider({
  type: "claude",
  label: "Anthropic (Claude)",
  implementation: "claude",
  keyVariables: ["ANTHROPIC_API_KEY"],
  baseUrlVariable: "ANTHROPIC_BASE_URL",
  defaultBaseUrl: "https://api.anthropic.com/v1",
  defaultModel: "claude-haiku-4-5",
  modelNames: /^claude/,
  generationParameters: ["temperature", "top_p", "top_k", "max_tokens", "stop", "extra_body"],
  setup: {
    order: 2,
    fastModels: ["claude-haiku-4-5", "claude-sonnet-4-5"],
    strongModels: ["claude-sonnet-4-5", "claude-opus-4-5"],
    keyCheck: {
      path: "/models",
      header: "x-api-key",
      headers: { "anthropic-version": "2023-06-01" },
    },
  },
  capabilities: { ...NO_CAPABILITIES, reasoning: true, webSearch: true, codeExecution: true },
  price: { kind: "list", provider: "anthropic" },
  tracing: { providerName: "anthropic" },
});
