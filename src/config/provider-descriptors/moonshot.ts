/** `moonshot`: Moonshot AI, Kimi, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const moonshot = defineProvider({
  type: "moonshot",
  label: "Moonshot AI, Kimi",
  implementation: "hosted_chat",
  keyVariables: ["MOONSHOT_API_KEY", "KIMI_API_KEY"],
  defaultBaseUrl: "https://api.moonshot.cn/v1",
  sdk: "openai-compatible",
  hosts: ["moonshot.ai", "moonshot.cn"],
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true },
  price: { kind: "list", provider: "moonshotai" },
  tracing: { providerName: "moonshot" },
});
