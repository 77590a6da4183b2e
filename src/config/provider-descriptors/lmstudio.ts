/** `lmstudio`: a LM Studio server on this machine, Chat Completions (`src/backends/chat-completions.ts`); no key, and no price unless `base_url:` names a listed provider. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const lmstudio = defineProvider({
  type: "lmstudio",
  label: "LM Studio",
  implementation: "chat_completions",
  keyVariables: [],
  defaultBaseUrl: "http://localhost:1234/v1",
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true, topK: true },
  price: { kind: "by_base_url" },
  tracing: { providerName: "lmstudio" },
});
