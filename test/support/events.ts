/**
 * Events for tests, stamped with the envelope the engine's emitter gives real ones
 * (`{v, seq, time, runId}`, src/events/events.ts): the one event builder every test uses, in
 * src/ (`../../test/support/events.js`) or in test/. A state is then built the only way states
 * are built, by feeding the events to the reducer (`replay`, or `step` in
 * src/ui/terminal/test-states.ts).
 */
import { EVENT_SCHEMA_VERSION, type CoordEvent, type EventBody } from "../../src/events/index.js";

/** Where a script of events starts and how its clock and ids run. */
export interface EventScript {
  /** Time of seq 1, in ms since the epoch; default 2025-03-01T10:00:00.000Z. */
  start?: number;
  /** Time between two consecutive events, in ms; default 100 (0: every event at `start`). */
  stepMs?: number;
  /** Default `run-1`. */
  runId?: string;
  /** Seq of the first body; default 1 (a script continuing an earlier one starts after it). */
  firstSeq?: number;
}

/** Time of seq 1 when a script does not say. */
export const SCRIPT_START = Date.parse("2025-03-01T10:00:00.000Z");

/** One event: `body` at `seq`, at `start + (seq - 1) × stepMs`. */
export function eventOf(body: EventBody, seq: number, script: EventScript = {}): CoordEvent {
  const { start = SCRIPT_START, stepMs = 100, runId = "run-1" } = script;
  return {
    v: EVENT_SCHEMA_VERSION,
    seq,
    time: new Date(start + (seq - 1) * stepMs).toISOString(),
    runId,
    ...body,
  };
}

/** The bodies as events with a running seq from `firstSeq` (default 1), `stepMs` apart. */
export function eventsOf(bodies: readonly EventBody[], script: EventScript = {}): CoordEvent[] {
  const firstSeq = script.firstSeq ?? 1;
  return bodies.map((body, index) => eventOf(body, firstSeq + index, script));
}
