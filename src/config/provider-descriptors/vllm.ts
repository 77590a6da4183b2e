/** `vllm`: a vLLM server on this machine, Chat Completions (`src/backends/chat-completions.ts`); no key, and no price unless `base_url:` names a listed provider. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const vllm = defineProvider({
  type: "vllm",
  label: "vLLM",
  implementation: "chat_completions",
  keyVariables: [],
  defaultBaseUrl: "http://localhost:8000/v1",
  capabilities: {
    ...NO_CAPABILITIES,
    reasoning: true,
    chatCompletions: true,
    topK: true,
    chatTemplateKwargs: true,
  },
  price: { kind: "by_base_url" },
  tracing: { providerName: "vllm" },
});
