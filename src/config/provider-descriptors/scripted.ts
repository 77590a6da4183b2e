/** `scripted`: a test double that plays its `steps:` and calls no model (`src/backends/scripted.ts`). */
import { defineProvider, NO_CAPABILITIES } from "./descriptor.js";

export const scripted = defineProvider({
  type: "scripted",
  label: "scripted (test double)",
  implementation: "scripted",
  keyVariables: [],
  generationParameters: [],
  capabilities: { ...NO_CAPABILITIES, inProcess: true },
  price: { kind: "free", why: "scripted: plays its steps, calls no model" },
  tracing: { providerName: "scripted" },
});
