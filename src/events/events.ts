/**
 * The CoordEvent union: the one contract between the coordination engine and everything that
 * renders, logs, serves or replays a run (docs/architecture.md "One stream",
 * docs/coordination.md "Events"). Start reading here: this file assembles the union from its
 * families, each in its own file — the run (`./run-events.ts`), an agent's round
 * (`./round-events.ts`), the answers, votes and winner (`./answer-events.ts`), the modes beyond
 * voting (`./mode-events.ts`) and the failures (`./failure-events.ts`) — over the shared
 * envelope (`./event-envelope.ts`).
 *
 * Every event carries the same envelope `{v, seq, time, runId, type, agentId?}`. The persisted
 * form (events.jsonl) is exactly this object, one per line; `v` is the schema version and a
 * reader rejects versions it does not know (see `./jsonl.ts`).
 *
 * Units: every `*Ms` field is milliseconds; token counts are tokens; `time` is ISO-8601 UTC.
 */
import { z } from "zod";
import { answerEventSchemas, outcomeEventSchemas } from "./answer-events.js";
import { failureEventSchemas } from "./failure-events.js";
import { agentSetupEventSchemas, planEventSchemas } from "./mode-events.js";
import { roundEventSchemas, usageEventSchemas } from "./round-events.js";
import { runEventSchemas } from "./run-events.js";

export { EVENT_SCHEMA_VERSION } from "./event-envelope.js";
export { RoundOutcome, Usage } from "./round-events.js";
export { CoordinationMode, RunEndReason, StopReason } from "./run-events.js";

/**
 * Builds the zod schema of {@link CoordEvent}; {@link coordEventSchema} keeps the one built. Kept
 * out of module load: its ~40 object schemas cost about 60 ms of start-up, and a run
 * only writes events; readers of events.jsonl, the docs and the tests build it.
 *
 * The members are listed in the order of a run's life, which is the order of the reference
 * (docs/events.md).
 */
function buildCoordEventSchema() {
  const run = runEventSchemas();
  const round = { ...roundEventSchemas(), ...usageEventSchemas() };
  const answers = { ...answerEventSchemas(), ...outcomeEventSchemas() };
  const modes = { ...agentSetupEventSchemas(), ...planEventSchemas() };
  const failures = failureEventSchemas();
  return z.discriminatedUnion("type", [
    run.runStart,
    round.roundStart,
    ...round.text,
    ...round.reasoning,
    round.toolCall,
    round.toolResult,
    round.workflowInvalid,
    round.updateInjected,
    answers.answer,
    answers.vote,
    answers.voteRefused,
    answers.votesReset,
    modes.stop,
    modes.subtask,
    modes.plan,
    modes.broadcastQuestion,
    modes.broadcastReply,
    modes.planExecution,
    modes.taskStatus,
    modes.taskAdded,
    failures.agentError,
    failures.limitReached,
    failures.stragglerCut,
    round.usage,
    round.roundEnd,
    modes.persona,
    answers.winner,
    answers.finalStart,
    answers.finalDelta,
    answers.finalEnd,
    answers.finalAnswer,
    failures.retry,
    run.workspaceSnapshot,
    run.warning,
    run.runEnd,
  ]);
}

let builtSchema: ReturnType<typeof buildCoordEventSchema> | undefined;

/** The zod schema of {@link CoordEvent} (a discriminated union on `type`), built on first use. */
export function coordEventSchema(): ReturnType<typeof buildCoordEventSchema> {
  return (builtSchema ??= buildCoordEventSchema());
}

/** One event of a run, as emitted by the engine and stored in events.jsonl. */
export type CoordEvent = z.infer<ReturnType<typeof buildCoordEventSchema>>;
/** The `type` discriminator of {@link CoordEvent}. */
export type CoordEventType = CoordEvent["type"];
/** The event of one type. */
export type EventOf<T extends CoordEventType> = Extract<CoordEvent, { type: T }>;
/** An event without its envelope: what the engine's emitter is given. */
export type EventBody<T extends CoordEventType = CoordEventType> = T extends CoordEventType
  ? Omit<EventOf<T>, "v" | "seq" | "time" | "runId">
  : never;
