/** `groq`: Groq, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const groq = defineProvider({
  type: "groq",
  label: "Groq",
  implementation: "hosted_chat",
  keyVariables: ["GROQ_API_KEY"],
  defaultBaseUrl: "https://api.groq.com/openai/v1",
  sdk: "groq",
  hosts: ["groq.com"],
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true },
  price: { kind: "list", provider: "groq" },
  tracing: { providerName: "groq" },
});
