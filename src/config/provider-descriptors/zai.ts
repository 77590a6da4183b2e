/** `zai`: Z.ai's GLM API, Chat Completions (`src/backends/chat-completions.ts`). */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const zai = defineProvider({
  type: "zai",
  label: "Z.ai (GLM)",
  implementation: "chat_completions",
  keyVariables: ["ZAI_API_KEY"],
  defaultBaseUrl: "https://api.z.ai/api/paas/v4",
  defaultModel: "glm-4.5-air",
  modelNames: /^glm/,
  // Z.ai's GLM API has no penalties and no seed.
  generationParameters: [
    "temperature",
    "top_p",
    "max_tokens",
    "stop",
    "reasoning_effort",
    "extra_body",
  ],
  hosts: ["z.ai", "bigmodel.cn"],
  setup: {
    order: 5,
    fastModels: ["glm-4.5-air", "glm-4.5-flash"],
    strongModels: ["glm-4.6", "glm-4.5"],
    keyCheck: { path: "/models", header: "bearer" },
  },
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true },
  price: { kind: "list", provider: "zai" },
  tracing: { providerName: "zai" },
});
