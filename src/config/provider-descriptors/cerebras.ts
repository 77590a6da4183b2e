/** `cerebras`: Cerebras, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const cerebras = defineProvider({
  type: "cerebras",
  label: "Cerebras",
  implementation: "hosted_chat",
  keyVariables: ["CEREBRAS_API_KEY"],
  defaultBaseUrl: "https://api.cerebras.ai/v1",
  sdk: "cerebras",
  hosts: ["cerebras.ai"],
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true },
  price: { kind: "list", provider: "cerebras" },
  tracing: { providerName: "cerebras" },
});
