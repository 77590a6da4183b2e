/** `chatcompletion`: any OpenAI-compatible Chat Completions server at `base_url:` (required); its key is picked by host (`PROVIDER_HOSTS`: every descriptor's `hosts`), its price by the provider the host names. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const chatcompletion = defineProvider({
  type: "chatcompletion",
  label: "OpenAI-compatible server",
  implementation: "chat_completions",
  keyVariables: [],
  keyByHost: true,
  // Hosted providers without a type of their own, known by host.
  hosts: [
    { domain: "api.deepseek.com", provider: "deepseek", keyVariable: "DEEPSEEK_API_KEY" },
    { domain: "api.mistral.ai", provider: "mistral", keyVariable: "MISTRAL_API_KEY" },
  ],
  capabilities: {
    ...NO_CAPABILITIES,
    reasoning: true,
    chatCompletions: true,
    topK: true,
    chatTemplateKwargs: true,
  },
  price: { kind: "by_base_url" },
  tracing: { providerName: "chatcompletion" },
});
