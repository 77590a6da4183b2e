/**
 * Turns event bodies into enveloped events and hands them out as an AsyncIterable, in order.
 * The engine pushes synchronously; a slow consumer only grows the buffer, it never reorders.
 */
import type { Clock } from "../clock.js";
import { type CoordEvent, EVENT_SCHEMA_VERSION, type EventBody } from "../events/index.js";

/** The engine's side of the stream. */
export interface Emitter {
  /** Adds the envelope (v, seq, time, runId) and queues the event. Returns the full event. */
  emit(body: EventBody): CoordEvent;
  /** Ends the stream after the queued events. */
  close(): void;
  /** Ends the stream with an error after the queued events. */
  fail(error: unknown): void;
  /** A new block id (`b1`, `b2`, …), unique within the run, for a streamed block's events. */
  nextBlockId(): string;
  readonly events: AsyncIterable<CoordEvent>;
}

/** Creates an emitter for one run. */
export function createEmitter(runId: string, clock: Clock): Emitter {
  const buffer: CoordEvent[] = [];
  let seq = 0;
  let blocks = 0;
  let closed = false;
  let failure: { error: unknown } | undefined;
  let wake: (() => void) | undefined;

  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };

  async function* iterate(): AsyncGenerator<CoordEvent> {
    for (;;) {
      if (buffer.length > 0) {
        // Hand out everything queued so far in one go.
        const batch = buffer.splice(0, buffer.length);
        for (const event of batch) yield event;
        continue;
      }
      if (failure) throw failure.error;
      if (closed) return;
      await new Promise<void>((resolve) => (wake = resolve));
    }
  }

  return {
    emit(body) {
      if (closed) throw new Error(`event ${body.type} emitted after the run ended`);
      seq++;
      const event = {
        v: EVENT_SCHEMA_VERSION,
        seq,
        time: new Date(clock.now()).toISOString(),
        runId,
        ...body,
      } as CoordEvent;
      buffer.push(event);
      notify();
      return event;
    },
    close() {
      closed = true;
      notify();
    },
    nextBlockId: () => `b${++blocks}`,
    fail(error) {
      failure = { error };
      closed = true;
      notify();
    },
    events: { [Symbol.asyncIterator]: iterate },
  };
}
