/**
 * The generation parameters of `agents[].backend` (MassGen's keys): sampling, output cap, stop
 * sequences, a raw body extension. Each is sent to the provider where it takes it (the backends'
 * call settings, `src/backends/generation-settings.ts`); where a backend type cannot take one,
 * the loader warns naming the agent (`./backend-key-support.ts`).
 */
import { z } from "zod";
import { typeList, typesWith } from "./provider-descriptors/index.js";

/** Keys spread into `agents[].backend` (besides `temperature` and `max_tokens`). */
export const generationKeys = {
  top_p: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("Nucleus sampling: only the most likely tokens whose probabilities add up to this."),
  top_k: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Sample from the K most likely tokens only (`claude`, `gemini`, `local`, vLLM …)."),
  frequency_penalty: z
    .number()
    .min(-2)
    .max(2)
    .optional()
    .describe("Penalise tokens by how often they already appeared (-2 … 2)."),
  presence_penalty: z
    .number()
    .min(-2)
    .max(2)
    .optional()
    .describe("Penalise tokens that already appeared at all (-2 … 2)."),
  seed: z.number().int().optional().describe("Seed for sampling, where the provider honours one."),
  stop: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe("Stop sequence(s): the model stops before writing one."),
  extra_body: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "Fields merged into every request body as is (as the OpenAI SDK's `extra_body`), e.g. `{chat_template_kwargs: {enable_thinking: true}}`.",
    ),
  chat_template_kwargs: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      `${typeList(typesWith("chatTemplateKwargs"))} (vLLM, SGLang and servers like them): arguments of the model's chat template, e.g. \`{enable_thinking: false}\`.`,
    ),
};

export { GENERATION_PARAMETERS, type GenerationParameter } from "./generation-parameters.js";
