/** `azure_openai`: an Azure OpenAI deployment (`src/backends/azure-openai.ts`); its base URL is the resource endpoint, its models are deployment names. The package falls back to OpenAI's list for a deployment named after its model. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const azureOpenai = defineProvider({
  type: "azure_openai",
  label: "Azure OpenAI",
  implementation: "azure_openai",
  keyVariables: ["AZURE_OPENAI_API_KEY"],
  alsoReads: ["AZURE_OPENAI_ENDPOINT", "AZURE_OPENAI_API_VERSION"],
  // Its v1 (Responses) API; a dated api_version's Chat Completions: src/config/backend-key-support.ts.
  generationParameters: ["temperature", "top_p", "max_tokens", "reasoning_effort", "extra_body"],
  setup: {
    order: 7,
    fastModels: ["gpt-4o-mini"],
    strongModels: ["gpt-4.1"],
    endpointVariable: {
      name: "AZURE_OPENAI_ENDPOINT",
      placeholder: "https://<resource>.openai.azure.com",
    },
    keyCheck: { path: "/models", header: "api-key", basePath: "/openai/v1" },
  },
  capabilities: { ...NO_CAPABILITIES, reasoning: true },
  price: { kind: "list", provider: "azure" },
  tracing: { providerName: "azure.ai.openai" },
});
