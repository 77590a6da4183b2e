/**
 * The names of the generation parameters, in a file of their own: the provider descriptors say
 * which each type sends (`./provider-descriptors/descriptor.ts`), and the schema that describes
 * them (`./generation-schema.ts`) reads the descriptors, so neither imports the other's file.
 */

/** The generation parameters as written in a backend block, in the order docs list them. */
export const GENERATION_PARAMETERS = [
  "temperature",
  "top_p",
  "top_k",
  "max_tokens",
  "frequency_penalty",
  "presence_penalty",
  "seed",
  "stop",
  "reasoning_effort",
  "extra_body",
  "chat_template_kwargs",
] as const;
export type GenerationParameter = (typeof GENERATION_PARAMETERS)[number];
