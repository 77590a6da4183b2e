/**
 * `agents[].backend`: the provider and model behind one agent, with every key coord reads
 * (MassGen's names where MassGen has them). Keys it does not read are warnings at load, with why
 * (`./unused-keys.ts`); none is passed on unread.
 */
import { z } from "zod";
import { BACKEND_TYPES } from "./backend-types.js";
import { generationKeys } from "./generation-schema.js";
import { pricingKeys } from "./pricing-schema.js";
import { claudeCodeKeys, providerOptionKeys } from "./provider-options-schema.js";
import { ScriptedStep } from "./scripted-schema.js";
import { backendToolKeys } from "./tool-schema.js";

/** True for an absolute `http://` or `https://` URL (a `base_url` may name nothing else). */
function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}

/** `agents[].backend`: the provider and model behind one agent. */
export const BackendConfig = z.object({
  type: z.enum(BACKEND_TYPES).describe("Provider backend."),
  model: z
    .string()
    .optional()
    .describe(
      "Model name (required except for `scripted`, and `claude_code`: Claude Code's default); for `local`, the path of a GGUF file; for `scripted`, a label.",
    ),
  base_url: z
    .string()
    .refine(isHttpUrl, {
      error: (issue) =>
        `expected an http:// or https:// URL, received ${JSON.stringify(issue.input)}`,
    })
    .optional()
    .describe(
      "API base URL (default: the provider's; `azure_openai`: the resource endpoint, else `AZURE_OPENAI_ENDPOINT`).",
    ),
  api_key: z.string().optional().describe("API key; overrides the environment variable."),
  temperature: z.number().min(0).max(2).optional().describe("Sampling temperature (0 … 2)."),
  max_tokens: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Output cap per model call (tokens)."),
  threads: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("`local`: CPU threads for inference (default 1; keep at most the core count)."),
  context_size: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("`local`: context window in tokens (default 2048)."),
  steps: z.array(ScriptedStep).optional().describe("`scripted`: the steps to play, in order."),
  scripts: z
    .array(
      z.object({
        match: z.string().describe("Text the run's first prompt must contain, e.g. its question."),
        steps: z.array(ScriptedStep).describe("The steps to play for that run."),
      }),
    )
    .optional()
    .describe(
      "`scripted`: step lists per run (e.g. per chat turn): the first call picks the one whose `match` occurs latest in its prompt (the current question comes after the history); `steps` when none matches.",
    ),
  api_version: z
    .string()
    .optional()
    .describe(
      "`azure_openai`: API version (default `AZURE_OPENAI_API_VERSION`, else `v1`): `v1` uses the Responses API, a dated version (`2024-10-21`) the deployment's Chat Completions.",
    ),
  ...generationKeys,
  ...providerOptionKeys,
  ...claudeCodeKeys,
  ...backendToolKeys,
  ...pricingKeys,
});
export type BackendConfig = z.infer<typeof BackendConfig>;
