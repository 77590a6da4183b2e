/**
 * `agents[].backend.pricing`: the user's own price and context window for the agent's model,
 * over the `@pydantic/genai-prices` data coord prices by (`src/backends/pricing.ts`). For a
 * model the data lacks (a self-hosted server, a fine-tune, an Azure deployment not named after
 * its model), a negotiated price, or a server whose window is not the model's.
 */
import { z } from "zod";

const perMTok = (what: string) =>
  z.number().min(0).optional().describe(`USD per 1,000,000 ${what}.`);

/** The `pricing` key, spread into `agents[].backend`. */
export const pricingKeys = {
  pricing: z
    .object({
      input_per_mtok: perMTok("prompt tokens (uncached)"),
      output_per_mtok: perMTok("reply tokens (reasoning tokens included)"),
      cached_input_per_mtok: perMTok(
        "prompt tokens read from the provider's cache (default: `input_per_mtok`)",
      ),
      context_window: z
        .number()
        .int()
        .positive()
        .optional()
        .describe(
          "The model's context window in tokens (what coord shortens the other answers to after a context overflow whose message names no window).",
        ),
    })
    .refine(
      (pricing) =>
        (pricing.input_per_mtok === undefined) === (pricing.output_per_mtok === undefined),
      { error: "set both input_per_mtok and output_per_mtok, or neither" },
    )
    .optional()
    .describe(
      "This agent's model price and context window, over coord's price data (@pydantic/genai-prices): both `input_per_mtok` and `output_per_mtok` set its price (e.g. `{input_per_mtok: 0, output_per_mtok: 0}` for a server you run); `context_window` alone keeps the listed price. Every type but `scripted`.",
    ),
};
