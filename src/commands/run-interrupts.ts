/**
 * What stops a single question from outside (docs/architecture.md "Exit codes": 4 interrupted).
 *
 * SIGINT (Ctrl+C), SIGTERM (`kill`, a service manager) and SIGHUP (the terminal was closed) all
 * stop the run the same way: the AbortController handed to the run is aborted with a string
 * saying what stopped it (engine/stop-reason.ts `stopDetailOf`), so the engine ends it with
 * `run-end` (reason `interrupted`, that string as its error), the log writer finishes status.json and
 * metrics.json, and the session is closed as `interrupted`. A second signal quits at once.
 *
 * An output that is gone (EPIPE: the reader of a pipe left, as `| head -1` does; EIO: the
 * terminal is gone) stops the run the same way, through {@link RunInterrupts.outputClosed}; it
 * never quits at once, and it does not count as the first signal (a terminal that closes gives
 * both EIO and SIGHUP, in either order).
 */

/** The run's `run-end.error` for each signal. */
const STOPPED_BY: Record<StopSignal, string> = {
  SIGINT: "interrupted by the user (Ctrl+C)",
  SIGTERM: "stopped by SIGTERM",
  SIGHUP: "stopped by SIGHUP (the terminal was closed)",
};

/** The signals that stop a run. */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** Where signals come from: `process`, or an EventEmitter in tests. */
export interface SignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
}

/** The stop requests of one run. */
export interface RunInterrupts {
  /** Aborted at the first stop request: give it to the run. */
  readonly signal: AbortSignal;
  /** Stdout or stderr is gone: stop the run (if it is not stopping yet). Never quits. */
  outputClosed(): void;
  /** Removes the signal listeners (call when the run is over). */
  dispose(): void;
}

/**
 * Listens for {@link STOP_SIGNALS} on `source` until {@link RunInterrupts.dispose}.
 * @param options.onStopping told of the first signal, before the run is aborted (to say so),
 *   unless the run was already stopping because its output is gone.
 * @param options.quit called for every signal after the first (exit at once).
 */
export function watchRunInterrupts(options: {
  source: SignalSource;
  onStopping?: (signal: StopSignal) => void;
  quit: (signal: StopSignal) => void;
}): RunInterrupts {
  const controller = new AbortController();
  let signals = 0;
  const listeners = STOP_SIGNALS.map((name) => {
    const listener = () => {
      signals++;
      if (signals > 1) {
        options.quit(name);
        return;
      }
      if (!controller.signal.aborted) options.onStopping?.(name);
      controller.abort(STOPPED_BY[name]);
    };
    options.source.on(name, listener);
    return { name, listener };
  });
  return {
    signal: controller.signal,
    outputClosed: () => controller.abort("stopped: its output was closed (EPIPE or EIO)"),
    dispose() {
      for (const { name, listener } of listeners) options.source.off(name, listener);
    },
  };
}

/** The line said on stderr when a signal starts the stop. */
export function stoppingMessage(signal: StopSignal): string {
  return signal === "SIGINT"
    ? "coord: stopping (Ctrl+C again to quit at once)…"
    : `coord: ${signal}: stopping (send it again to quit at once)…`;
}
