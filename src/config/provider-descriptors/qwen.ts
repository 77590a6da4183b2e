/** `qwen`: Qwen, Alibaba Cloud Model Studio, one of MassGen's hosted Chat Completions types (`src/backends/hosted-chat.ts`); base URL and key variables are MassGen's, so its configs run unchanged. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const qwen = defineProvider({
  type: "qwen",
  label: "Qwen, Alibaba Cloud Model Studio",
  implementation: "hosted_chat",
  keyVariables: ["QWEN_API_KEY", "DASHSCOPE_API_KEY"],
  defaultBaseUrl: "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
  sdk: "openai-compatible",
  capabilities: { ...NO_CAPABILITIES, reasoning: true, chatCompletions: true, topK: true },
  price: { kind: "by_base_url" },
  tracing: { providerName: "qwen" },
});
