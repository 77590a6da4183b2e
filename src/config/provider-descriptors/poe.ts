/** `poe`: Poe, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const poe = defineProvider({
  type: "poe",
  label: "Poe",
  implementation: "hosted_chat",
  keyVariables: ["POE_API_KEY"],
  defaultBaseUrl: "https://api.poe.com/v1",
  sdk: "openai-compatible",
  hosts: ["api.poe.com"],
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true },
  price: { kind: "by_base_url" },
  tracing: { providerName: "poe" },
});
