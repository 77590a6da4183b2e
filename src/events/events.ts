/**
 * The CoordEvent union: the one contract between the coordination engine and everything that
 * renders, logs, serves or replays a run (ARCHITECTURE.md "One idea holds it together",
 * COORDINATION.md "Events").
 *
 * Every event carries the same envelope `{v, seq, time, runId, type, agentId?}`. The persisted
 * form (events.jsonl) is exactly this object, one per line; `v` is the schema version and a
 * reader rejects versions it does not know (see `./jsonl.ts`).
 *
 * Units: every `*Ms` field is milliseconds; token counts are tokens; `time` is ISO-8601 UTC.
 */
import { z } from "zod";

/** Schema version written in every event's `v` field. Bump on an incompatible change. */
export const EVENT_SCHEMA_VERSION = 1;

/** Why a run ended (COORDINATION.md "Events": `run-end.reason`). */
export const RunEndReason = z.enum(["completed", "failed", "timeout", "interrupted"]);
export type RunEndReason = z.infer<typeof RunEndReason>;

/** Coordination modes the engine implements (COORDINATION.md "Voting mode", "Other modes"). */
export const CoordinationMode = z.enum(["voting", "quick", "single", "decomposition"]);
export type CoordinationMode = z.infer<typeof CoordinationMode>;

/** How a round ended; `metrics.json` counts rounds by this outcome. */
export const RoundOutcome = z.enum([
  "answer", // a valid new_answer
  "vote", // a valid vote
  "stop", // a valid stop (decomposition mode)
  "invalid", // no valid workflow call after the allowed attempts
  "error", // the backend failed (after retries)
  "aborted", // cancelled: timeout, interrupt, or the run ended
  "final", // the final presentation round
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

const envelope = {
  /** Schema version, {@link EVENT_SCHEMA_VERSION}. */
  v: z.literal(EVENT_SCHEMA_VERSION),
  /** 1-based position of the event in its run. */
  seq: z.number().int().positive(),
  /** ISO-8601 UTC timestamp from the injected clock. */
  time: z.string(),
  runId: z.string(),
  /** The real agent id (config `agents[].id`) the event is about, if any. */
  agentId: z.string().optional(),
};

const agentInfo = z.object({
  id: z.string(),
  /** `agent<N>`: the agent's 1-based position in config order. */
  anonId: z.string(),
  backend: z.string(),
  model: z.string(),
});

const ev = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ ...envelope, type: z.literal(type), ...shape });

export const CoordEventSchema = z.discriminatedUnion("type", [
  ev("run-start", {
    question: z.string(),
    mode: CoordinationMode,
    agents: z.array(agentInfo),
    /** Earlier turns of a multi-turn conversation, oldest first. */
    historyTurns: z.number().int().nonnegative(),
  }),
  ev("agent-round-start", {
    /** The agent's 1-based round counter. */
    round: z.number().int().positive(),
    /** 1-based attempt within the round (at most 3 for workflow validation). */
    attempt: z.number().int().positive(),
    kind: z.enum(["coordinate", "final", "plan"]),
    /** Answer labels (`agent<N>.<M>`) the agent can see at the start of this round. */
    answersSeen: z.array(z.string()),
  }),
  ev("text-delta", { round: z.number().int().positive(), text: z.string() }),
  ev("reasoning-delta", { round: z.number().int().positive(), text: z.string() }),
  ev("tool-call", {
    round: z.number().int().positive(),
    toolCallId: z.string(),
    toolName: z.string(),
    input: z.unknown(),
  }),
  ev("tool-result", {
    round: z.number().int().positive(),
    toolCallId: z.string(),
    toolName: z.string(),
    output: z.string(),
    isError: z.boolean(),
    durationMs: z.number().nonnegative(),
  }),
  ev("workflow-invalid", {
    round: z.number().int().positive(),
    attempt: z.number().int().positive(),
    message: z.string(),
  }),
  ev("update-injected", {
    round: z.number().int().positive(),
    /** Answer labels the agent had not seen that the update carries. */
    labels: z.array(z.string()),
    /** `step`: after a tool result mid-round; `vote-refused`: in the refusal of a stale vote; `restart`: an idle agent started again. */
    via: z.enum(["step", "vote-refused", "restart"]),
  }),
  ev("answer", {
    round: z.number().int().positive(),
    /** `agent<N>.<M>`. */
    label: z.string(),
    anonId: z.string(),
    content: z.string(),
  }),
  ev("vote", {
    round: z.number().int().positive(),
    /** Real id of the agent voted for. */
    targetAgentId: z.string(),
    targetAnonId: z.string(),
    /** Label of the answer the vote is for. */
    label: z.string(),
    reason: z.string(),
  }),
  ev("vote-refused", {
    round: z.number().int().positive(),
    targetAnonId: z.string(),
    message: z.string(),
  }),
  ev("votes-reset", {
    /** The answer label whose arrival cleared the votes. */
    causeLabel: z.string(),
    cleared: z.number().int().nonnegative(),
  }),
  ev("stop", {
    round: z.number().int().positive(),
    status: z.enum(["complete", "blocked"]),
    summary: z.string(),
  }),
  ev("agent-error", {
    round: z.number().int().nonnegative(),
    message: z.string(),
    provider: z.string().optional(),
    status: z.number().int().optional(),
    retryable: z.boolean(),
    /** True when the agent is removed from the team. */
    fatal: z.boolean(),
  }),
  ev("usage", {
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
  }),
  ev("round-end", {
    round: z.number().int().positive(),
    outcome: RoundOutcome,
    durationMs: z.number().nonnegative(),
  }),
  ev("persona", { persona: z.string() }),
  ev("winner", {
    anonId: z.string(),
    label: z.string(),
    votes: z.number().int().nonnegative(),
    /** Votes per real agent id, for the final answer set. */
    tally: z.record(z.string(), z.number().int().nonnegative()),
    tieBroken: z.boolean(),
    /** How the winner was chosen. */
    basis: z.enum(["votes", "timeout", "single", "quick", "decomposition"]),
  }),
  ev("final-start", {}),
  ev("final-delta", { text: z.string() }),
  ev("final-answer", {
    /** `agent<N>.final`. */
    label: z.string(),
    content: z.string(),
    /** `presentation`: written in the final round; `answer`: the winning answer as is. */
    source: z.enum(["presentation", "answer"]),
  }),
  ev("run-end", {
    reason: RunEndReason,
    durationMs: z.number().nonnegative(),
    /** One line saying what went wrong, when `reason` is not `completed`. */
    error: z.string().optional(),
  }),
]);

/** One event of a run, as emitted by the engine and stored in events.jsonl. */
export type CoordEvent = z.infer<typeof CoordEventSchema>;
/** The `type` discriminator of {@link CoordEvent}. */
export type CoordEventType = CoordEvent["type"];
/** The event of one type. */
export type EventOf<T extends CoordEventType> = Extract<CoordEvent, { type: T }>;
/** An event without its envelope: what the engine's emitter is given. */
export type EventBody<T extends CoordEventType = CoordEventType> = T extends CoordEventType
  ? Omit<EventOf<T>, "v" | "seq" | "time" | "runId">
  : never;
