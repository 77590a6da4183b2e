/**
 * The events of an agent's round (part of the union in `./events.ts`): `round-start`, the streamed
 * text and reasoning, tool calls and results, refused attempts, updates injected, the `usage` of
 * each model call and `round-end`, with the round's vocabulary (outcomes, token usage).
 */
import { z } from "zod";
import { ev, streamedBlock } from "./event-envelope.js";

/** How a round ended; `metrics.json` counts rounds by this outcome. */
export const RoundOutcome = z.enum([
  "answer", // a valid new_answer
  "vote", // a valid vote
  "stop", // a valid stop (decomposition mode)
  "invalid", // no valid workflow call after the allowed attempts
  "error", // the backend failed (after retries)
  "aborted", // cancelled: timeout, interrupt, or the run ended
  "final", // the final presentation round
  "plan", // a planning call before coordination (subtasks, personas) that gave its output
]);
export type RoundOutcome = z.infer<typeof RoundOutcome>;

/** Token usage of one model call. All counts are tokens; unknown counts are 0. */
export const Usage = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  reasoningTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof Usage>;

/** Builds the schemas of a round's events (see `buildCoordEventSchema` for why on demand). */
export function roundEventSchemas() {
  return {
    roundStart: ev("round-start", {
      /** The agent's 1-based round counter. */
      round: z.number().int().positive(),
      /**
       * 1-based attempt at a valid workflow call (at most 3). A round opens with attempt 1; each
       * further attempt is announced by another `round-start` of the same round; one `round-end`
       * closes the round.
       */
      attempt: z.number().int().positive(),
      /** `coordinate`: a workflow round; `final`: the final presentation; `plan`: a planning call. */
      kind: z.enum(["coordinate", "final", "plan"]),
      /**
       * What a `plan` round produces: `subtasks` (the decomposer, decomposition mode) or `personas`
       * (the persona generator). A plan round without `agentId` ran on the persona generator's own
       * backend (`persona_generator.backend`).
       */
      produces: z.enum(["subtasks", "personas"]).optional(),
      /** Answer labels (`agent<N>.<M>`) the agent can see at the start of this round. */
      answersSeen: z.array(z.string()),
    }),
    text: streamedBlock("text"),
    reasoning: streamedBlock("reasoning"),
    toolCall: ev("tool-call", {
      round: z.number().int().positive(),
      toolCallId: z.string(),
      toolName: z.string(),
      input: z.unknown(),
    }),
    toolResult: ev("tool-result", {
      round: z.number().int().positive(),
      toolCallId: z.string(),
      toolName: z.string(),
      output: z.string(),
      isError: z.boolean(),
      durationMs: z.number().nonnegative(),
    }),
    workflowInvalid: ev("workflow-invalid", {
      round: z.number().int().positive(),
      attempt: z.number().int().positive(),
      message: z.string(),
    }),
    updateInjected: ev("update-injected", {
      round: z.number().int().positive(),
      /** Answer labels the agent had not seen that the update carries. */
      labels: z.array(z.string()),
      /** `step`: after a tool result mid-round; `vote-refused`: in the refusal of a stale vote; `restart`: an idle agent started again. */
      via: z.enum(["step", "vote-refused", "restart"]),
    }),
    roundEnd: ev("round-end", {
      round: z.number().int().positive(),
      outcome: RoundOutcome,
      durationMs: z.number().nonnegative(),
    }),
  };
}

/**
 * Builds the schema of the `usage` event, one per model call: tokens, cost and timing (see
 * `buildCoordEventSchema` for why on demand).
 */
export function usageEventSchemas() {
  return {
    usage: ev("usage", {
      round: z.number().int().positive(),
      backend: z.string(),
      model: z.string(),
      usage: Usage,
      /**
       * The call's cost in USD from the price table (`backends/pricing.ts`); absent when the model
       * has no known price (its cost is unknown, never guessed).
       */
      costUsd: z.number().nonnegative().optional(),
      /** Wall time of the model call. */
      durationMs: z.number().nonnegative(),
      /** Time from request to first streamed chunk, if any chunk came. */
      timeToFirstTokenMs: z.number().nonnegative().optional(),
      finishReason: z.string(),
      /**
       * True for a request that failed (HTTP error, network, timeout, no reply): it still counts
       * as a model call, shown apart. Its `usage` is what the provider reported (usually zero) and
       * `finishReason` is `error`. Retries inside the backend are `retry` events, each one more
       * failed request sent.
       */
      failed: z.boolean().optional(),
    }),
  };
}
