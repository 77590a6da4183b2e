/**
 * Injected time (CONTRIBUTING.md rule 9): the engine, the retry wrapper and the log writer take a
 * Clock so tests pass a fixed one and replays are byte-identical.
 */

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds; rejects with the signal's reason if it aborts first.
   * @param ms delay in milliseconds.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Monotonic milliseconds from any origin, with sub-millisecond precision, for short durations
   * (a file tool call takes less than a millisecond). Absent: durations use {@link Clock.now}.
   */
  elapsed?(): number;
}

/** The real clock: `Date.now()`, `performance.now()` and timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  elapsed: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/** A {@link Clock} whose time only moves when nothing else can run; see {@link createVirtualClock}. */
export interface VirtualClock extends Clock {
  /** Timers waiting, for tests that check nothing is left behind. */
  readonly pending: number;
  /**
   * Tells the clock that its `settled` condition may have changed ({@link VirtualClockOptions});
   * it then moves on if there is a timer to fire. Without `settled`, nothing to do.
   */
  wake(): void;
}

/** Options of {@link createVirtualClock}. */
export interface VirtualClockOptions {
  /**
   * Time may move only while this holds, e.g. "no request over a real socket is on its way"
   * (test/support/io-gate.ts), so a timer cannot beat a reply that is about to arrive. Checked
   * when the process is idle; whoever changes its answer calls {@link VirtualClock.wake}.
   * Default: always settled.
   */
  settled?: () => boolean;
}

/**
 * A deterministic clock for tests and benchmarks: `sleep` never waits in real time. Whenever the
 * process is otherwise idle (checked with `setImmediate`, after pending promise callbacks), time
 * jumps to the earliest timer and fires it. Runs are then fast and their order depends only on
 * the virtual delays.
 * @param start initial time (ms since the epoch). Default 2026-01-01T00:00:00Z.
 * @param options.settled a condition time waits for (see {@link VirtualClockOptions}).
 */
export function createVirtualClock(
  start = Date.UTC(2026, 0, 1),
  options: VirtualClockOptions = {},
): VirtualClock {
  let now = start;
  let nextId = 0;
  const timers = new Map<number, { at: number; id: number; fire: () => void }>();
  let pumping = false;

  const pump = () => {
    if (pumping) return;
    pumping = true;
    setImmediate(() => {
      pumping = false;
      let earliest: { at: number; id: number; fire: () => void } | undefined;
      for (const timer of timers.values()) {
        if (
          !earliest ||
          timer.at < earliest.at ||
          (timer.at === earliest.at && timer.id < earliest.id)
        )
          earliest = timer;
      }
      if (!earliest) return;
      if (options.settled && !options.settled()) return; // wake() pumps again
      timers.delete(earliest.id);
      now = Math.max(now, earliest.at);
      earliest.fire();
      if (timers.size > 0) pump();
    });
  };

  return {
    now: () => now,
    get pending() {
      return timers.size;
    },
    wake() {
      if (timers.size > 0) pump();
    },
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason as Error);
        const id = nextId++;
        const onAbort = () => {
          timers.delete(id);
          reject(signal!.reason as Error);
        };
        timers.set(id, {
          at: now + ms,
          id,
          fire: () => {
            signal?.removeEventListener("abort", onAbort);
            resolve();
          },
        });
        signal?.addEventListener("abort", onAbort, { once: true });
        pump();
      });
    },
  };
}

/**
 * Node's timer limit (ms): `setTimeout` and `AbortSignal.timeout` fire after 1 ms for any longer
 * delay (a TimeoutOverflowWarning), so every configured duration is checked against it.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** {@link MAX_TIMER_MS} in whole seconds: 2147483 s, about 24.8 days. */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);
