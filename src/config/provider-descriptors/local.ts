/** `local`: in-process GGUF inference on this machine's CPU (`src/backends/local.ts`); `model:` is the file's path. */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const local = defineProvider({
  type: "local",
  label: "local GGUF model",
  implementation: "local",
  keyVariables: [],
  generationParameters: [
    "temperature",
    "top_p",
    "top_k",
    "max_tokens",
    "frequency_penalty",
    "presence_penalty",
    "seed",
    "stop",
  ],
  capabilities: { ...NO_CAPABILITIES, inProcess: true },
  price: {
    kind: "free",
    why: "local: runs in process on this machine's CPU (node-llama-cpp), no per-token charge",
  },
  tracing: { providerName: "local" },
});
