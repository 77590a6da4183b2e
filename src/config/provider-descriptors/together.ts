/** `together`: Together AI, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const together = defineProvider({
  type: "together",
  label: "Together AI",
  implementation: "hosted_chat",
  keyVariables: ["TOGETHER_API_KEY"],
  defaultBaseUrl: "https://api.together.xyz/v1",
  sdk: "togetherai",
  hosts: ["together.xyz", "together.ai"],
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true, topK: true },
  price: { kind: "list", provider: "together" },
  tracing: { providerName: "together" },
});
