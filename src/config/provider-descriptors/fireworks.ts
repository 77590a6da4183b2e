/** `fireworks`: Fireworks AI, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const fireworks = defineProvider({
  type: "fireworks",
  label: "Fireworks AI",
  implementation: "hosted_chat",
  keyVariables: ["FIREWORKS_API_KEY"],
  defaultBaseUrl: "https://api.fireworks.ai/inference/v1",
  sdk: "fireworks",
  hosts: ["fireworks.ai"],
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true, topK: true },
  price: { kind: "list", provider: "fireworks" },
  tracing: { providerName: "fireworks" },
});
