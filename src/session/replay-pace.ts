/**
 * Replay timing for `coord viewer --replay-speed N` (spec §4.2): stored events are released at
 * the pace they were recorded — event `i` at `(time_i − time_0) / speed` after the replay
 * starts — on an injected clock (virtual in tests, CONTRIBUTING.md rule 9). Without a speed the
 * replay is instant. Pure apart from the clock; the events go through the one reducer afterwards
 * like any live run's.
 */
import type { CoordEvent } from "../events/index.js";

/**
 * What the replay uses of a clock (src/clock.ts `Clock`: the system clock, or a virtual one in
 * tests). Named here rather than imported, so the browser page's typecheck, which bundles this
 * folder, does not load the Node timers of src/clock.ts.
 */
export interface PaceClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Options of {@link createReplayPace}. */
export interface ReplayPaceOptions {
  /** Playback speed: 1 real time, 2 twice as fast; undefined: instant. Must be > 0. */
  speed?: number | undefined;
  clock: PaceClock;
  /** Stops the replay: {@link ReplayPace.events} then ends without error. */
  signal?: AbortSignal;
}

/** A paced replay of recorded events. */
export interface ReplayPace {
  /** The events, each released when its recorded time comes (all at once when instant). */
  events(): AsyncGenerator<CoordEvent, void, undefined>;
  /**
   * The recorded time the replay has reached, epoch ms: for the live view's elapsed time. Before
   * the first event, the first event's time; when instant, the last released event's time.
   */
  logTime(): number;
}

/**
 * Paces `recorded` on `clock`.
 * @throws RangeError when `speed` is not a positive finite number.
 */
export function createReplayPace(
  recorded: readonly CoordEvent[],
  options: ReplayPaceOptions,
): ReplayPace {
  const { speed, clock, signal } = options;
  if (speed !== undefined && !(Number.isFinite(speed) && speed > 0)) {
    throw new RangeError(`replay speed must be a positive number, got ${speed}`);
  }
  const first = recorded.length > 0 ? Date.parse(recorded[0]!.time) : NaN;
  let startedAt: number | undefined;
  let released = first;

  return {
    async *events() {
      startedAt = clock.now();
      for (const event of recorded) {
        if (signal?.aborted === true) return;
        const at = Date.parse(event.time);
        if (speed !== undefined && Number.isFinite(at) && Number.isFinite(first)) {
          const wait = startedAt + (at - first) / speed - clock.now();
          if (wait > 0) {
            try {
              await clock.sleep(wait, signal);
            } catch {
              return; // aborted
            }
          }
        }
        if (Number.isFinite(at)) released = Math.max(Number.isFinite(released) ? released : at, at);
        yield event;
      }
    },
    logTime() {
      if (speed === undefined || startedAt === undefined || !Number.isFinite(first)) {
        return Number.isFinite(released) ? released : clock.now();
      }
      return Math.max(released, first + (clock.now() - startedAt) * speed);
    },
  };
}
