/**
 * The envelope every event shares and the two helpers the event families (`./*-events.ts`) build
 * their schemas with: {@link ev} (one event type) and {@link streamedBlock} (a streamed block).
 */
import { z } from "zod";

/**
 * Schema version written in every event's `v` field. Bump on an incompatible change, keep a
 * fixture of every released version, and teach `./jsonl.ts` to upgrade it.
 *
 * - 1: the first release.
 * - 2: `agent-round-start` renamed `round-start`; streamed blocks as start/delta/end with a
 *   `blockId` (text, reasoning, final); new `final-end`, `retry` and `warning`; `run-end.reason`
 *   gains `shutdown`. Additive since: `straggler-cut`; the planning and execution modes (`plan`,
 *   `broadcast-question`, `broadcast-reply`, `plan-execution`, `task-status`, `task-added`).
 */
export const EVENT_SCHEMA_VERSION = 2;

const envelope = {
  /** Schema version, {@link EVENT_SCHEMA_VERSION} (older logs are upgraded when read). */
  v: z.literal(EVENT_SCHEMA_VERSION),
  /** 1-based position of the event in its run. */
  seq: z.number().int().positive(),
  /** ISO-8601 UTC timestamp from the injected clock. */
  time: z.string(),
  runId: z.string(),
  /** The real agent id (config `agents[].id`) the event is about, if any. */
  agentId: z.string().optional(),
};

/** The schema of one event type: the envelope, `type: <type>`, and the event's own fields. */
export const ev = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ ...envelope, type: z.literal(type), ...shape });

/**
 * One streamed block of a model call (CONTRIBUTING.md rule 2): `<kind>-start`, any number of
 * `<kind>-delta`, `<kind>-end`, sharing a `blockId` unique within the run.
 */
export const streamedBlock = <K extends string>(kind: K) => {
  const block = { round: z.number().int().positive(), blockId: z.string() };
  return [
    ev(`${kind}-start`, block),
    ev(`${kind}-delta`, { ...block, text: z.string() }),
    ev(`${kind}-end`, block),
  ] as const;
};
