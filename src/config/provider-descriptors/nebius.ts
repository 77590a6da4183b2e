/** `nebius`: Nebius AI Studio, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const nebius = defineProvider({
  type: "nebius",
  label: "Nebius AI Studio",
  implementation: "hosted_chat",
  keyVariables: ["NEBIUS_API_KEY"],
  defaultBaseUrl: "https://api.studio.nebius.ai/v1",
  sdk: "openai-compatible",
  hosts: ["nebius.ai", "nebius.com"],
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true },
  price: { kind: "by_base_url" },
  tracing: { providerName: "nebius" },
});
