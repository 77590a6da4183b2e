/** `sglang`: a SGLang server on this machine, Chat Completions (`src/backends/chat-completions.ts`); no key, and no price unless `base_url:` names a listed provider. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const sglang = defineProvider({
  type: "sglang",
  label: "SGLang",
  implementation: "chat_completions",
  keyVariables: [],
  defaultBaseUrl: "http://localhost:30000/v1",
  capabilities: {
    ...NO_CAPABILITIES,
    reasoning: true,
    chatCompletions: true,
    topK: true,
    chatTemplateKwargs: true,
  },
  price: { kind: "by_base_url" },
  tracing: { providerName: "sglang" },
});
