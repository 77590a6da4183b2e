/** `ollama`: a Ollama server on this machine, Chat Completions (`src/backends/chat-completions.ts`); no key, and no price unless `base_url:` names a listed provider. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const ollama = defineProvider({
  type: "ollama",
  label: "Ollama",
  implementation: "chat_completions",
  keyVariables: [],
  defaultBaseUrl: "http://localhost:11434/v1",
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true },
  price: { kind: "by_base_url" },
  tracing: { providerName: "ollama" },
});
