/**
 * The events of things going wrong (part of the union in `./events.ts`): an agent's error, a
 * budget limit reached, a straggler cut from the team, a model call retried.
 */
import { z } from "zod";
import { ev } from "./event-envelope.js";

/** Builds the schemas of the failure events (see `buildCoordEventSchema` for why on demand). */
export function failureEventSchemas() {
  return {
    agentError: ev("agent-error", {
      round: z.number().int().nonnegative(),
      message: z.string(),
      provider: z.string().optional(),
      status: z.number().int().optional(),
      retryable: z.boolean(),
      /** True when the agent is removed from the team. */
      fatal: z.boolean(),
      /**
       * What failed: `provider` (the provider answered with an error or not at all), `protocol`
       * (the model misbehaved: plain text, an unknown tool, a repeated answer, cut-off JSON),
       * `budget` (a per-agent limit of the run budget), `context` (the prompt outgrew the model's
       * context window). Absent in logs written before it existed: read as `provider`.
       */
      cause: z.enum(["provider", "protocol", "budget", "context"]).optional(),
    }),
    /**
     * A limit of the run budget (docs/real-models.md "The run budget") was reached. `scope: run` ends
     * coordination the way the orchestrator timeout does (the best answer so far is presented);
     * `scope: agent` removes that agent (`agentId`). `used` and `max` are in the limit's unit:
     * model calls, tokens (input + output) or USD.
     */
    limitReached: ev("limit-reached", {
      scope: z.enum(["run", "agent"]),
      limit: z.enum(["calls", "tokens", "cost"]),
      used: z.number().nonnegative(),
      max: z.number().nonnegative(),
      message: z.string(),
    }),
    /**
     * The straggler rule (`timeout_settings.straggler_timeout_seconds`): every other agent was done
     * and a winner could be chosen, but this agent was still working; its round is aborted and it
     * leaves the team (the run goes on without it).
     */
    stragglerCut: ev("straggler-cut", {
      round: z.number().int().positive(),
      /** How long it had kept the others waiting when cut: the straggler timeout. */
      waitedMs: z.number().nonnegative(),
      /** One line saying what happened and which setting decides it. */
      message: z.string(),
    }),
    retry: ev("retry", {
      round: z.number().int().nonnegative(),
      /** 1-based retry number of this model call. */
      attempt: z.number().int().positive(),
      /** Wait before the retry (ms): the provider's Retry-After, else exponential backoff. */
      waitMs: z.number().nonnegative(),
      /** HTTP status of the failure, when it was an HTTP response. */
      status: z.number().int().optional(),
      /** `http`, `timeout` (no response within the request timeout) or `network`. */
      errorKind: z.enum(["http", "timeout", "network"]),
      /** The provider's message. */
      reason: z.string(),
    }),
  };
}
