/**
 * Retries and a per-request timeout as a wrapper around any backend (CONTRIBUTING.md rule 5;
 * docs/coordination.md "Limits and failures": 429/5xx/timeouts retried with backoff, honouring
 * Retry-After). Each retry is announced in the stream itself, as a `retry` chunk before the
 * wait, so it reaches the run's events and log like everything else.
 *
 * A call is retried only while nothing has been streamed from it yet: once a chunk reached the
 * engine, a failure surfaces as is (the engine counts it against the agent).
 *
 * Besides the total request timeout, a backend that reports wire activity
 * ({@link Backend.reportsActivity}: every provider over HTTP) gets two liveness limits: a
 * first-byte timeout (nothing at all arrived since the request was sent; not for a
 * {@link Backend.silentStart} server on this machine, which may load a model first) and a
 * stream-idle timeout (nothing arrived for that long since the last event). Either aborts the
 * attempt as a timeout (`BackendError.kind: "timeout"`), retried like one; after the retries the
 * call fails, so a hung provider cannot hold a single agent or the presenter.
 *
 * Every wait (the request timeout, both liveness limits and the backoff between attempts) runs on
 * the injected clock, so tests prove them on a virtual one. A virtual clock jumps to its next timer
 * whenever the process is idle, so a test over a real socket gates it on its requests
 * (test/support/io-gate.ts): time moves only while no request is on its way.
 */
import type { Clock } from "../clock.js";
import {
  BackendError,
  type Backend,
  type BackendChunk,
  type ModelRequest,
  type StreamOptions,
} from "./backend.js";

/** Options of {@link withRetry}. */
export interface RetryOptions {
  clock: Clock;
  /** Retries after the first attempt. Default 3. */
  maxRetries?: number;
  /** Base of the exponential backoff (ms). Default 1000. */
  baseDelayMs?: number;
  /** Cap of one wait (ms), also applied to Retry-After. Default 60000. */
  maxDelayMs?: number;
  /** Per-request timeout (ms): a call with no finish by then is aborted and retried. Default 300000. */
  requestTimeoutMs?: number;
  /** Random source in [0, 1) for jitter. Default Math.random. */
  random?: () => number;
  /**
   * Longest wait (ms) for the first sign of life of an attempt (any chunk or wire event), for
   * backends with `reportsActivity`. Default none.
   */
  firstByteTimeoutMs?: number | undefined;
  /** Longest silence (ms) between two signs of life, for backends with `reportsActivity`. Default none. */
  streamIdleTimeoutMs?: number | undefined;
}

/**
 * Wait before retry `attempt` (1-based): Retry-After when the provider gave it, else full jitter
 * over `base * 2^(attempt-1)`, with a floor of half that so waits grow; both capped at `maxDelayMs`.
 */
export function retryDelayMs(
  error: BackendError,
  attempt: number,
  options: { baseDelayMs: number; maxDelayMs: number; random: () => number },
): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, options.maxDelayMs);
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (options.random() * ceiling) / 2);
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** Wraps `backend` so retryable failures are retried and each request has a timeout. */
export function withRetry(backend: Backend, options: RetryOptions): Backend {
  const maxRetries = options.maxRetries ?? 3;
  const delays = {
    baseDelayMs: options.baseDelayMs ?? 1000,
    maxDelayMs: options.maxDelayMs ?? 60_000,
    random: options.random ?? Math.random,
  };
  const requestTimeoutMs = options.requestTimeoutMs ?? 300_000;
  const liveness = backend.reportsActivity === true;
  const firstByteMs =
    liveness && backend.silentStart !== true ? options.firstByteTimeoutMs : undefined;
  const idleMs = liveness ? options.streamIdleTimeoutMs : undefined;
  const seconds = (ms: number) => String(Number((ms / 1000).toFixed(3)));

  async function* stream(
    request: ModelRequest,
    { signal }: StreamOptions,
  ): AsyncGenerator<BackendChunk> {
    for (let attempt = 1; ; attempt++) {
      // The attempt's signal: aborted by the caller's (with its reason) or by a limit. A listener
      // rather than AbortSignal.any, which costs more per call than everything else here.
      const timeout = new AbortController();
      const combined = timeout.signal;
      const forward = () => timeout.abort(signal.reason);
      if (signal.aborted) forward();
      else signal.addEventListener("abort", forward, { once: true });
      let stalled: string | undefined;
      const watch = attemptWatch(options.clock, {
        requestMs: requestTimeoutMs,
        firstByteMs,
        idleMs,
        onStall: (why) => {
          stalled = why;
          timeout.abort(new DOMException(why, "TimeoutError"));
        },
        requestMessage: `${backend.type}: no complete response within ${seconds(requestTimeoutMs)} s (timeout_settings.request_timeout_seconds)`,
        firstByteMessage: `${backend.type}: no response within ${seconds(firstByteMs ?? 0)} s (timeout_settings.first_byte_timeout_seconds)`,
        idleMessage: `${backend.type}: the response stream was silent for ${seconds(idleMs ?? 0)} s (timeout_settings.stream_idle_timeout_seconds)`,
      });
      const onActivity = watch.activity;
      let streamed = false;
      let retry: Extract<BackendChunk, { type: "retry" }>;
      try {
        const streamOptions = liveness ? { signal: combined, onActivity } : { signal: combined };
        for await (const chunk of backend.stream(request, streamOptions)) {
          onActivity();
          // Notices (a provider warning, an inner retry) are not the reply: the call may still
          // be retried after them.
          if (chunk.type !== "warning" && chunk.type !== "retry") streamed = true;
          yield chunk;
        }
        return;
      } catch (caught) {
        if (signal.aborted) throw caught; // the caller cancelled: never retry
        // Only a limit of the attempt aborts `timeout`, and it says which one in `stalled`.
        const timedOut = stalled !== undefined;
        const error =
          stalled !== undefined
            ? new BackendError({
                message: stalled,
                provider: backend.type,
                retryable: true,
                kind: "timeout",
                cause: caught,
              })
            : caught;
        if (!(error instanceof BackendError) || isAbort(error)) throw error;
        if (!error.retryable || streamed || attempt > maxRetries) throw error;
        const delayMs = retryDelayMs(error, attempt, delays);
        const errorKind = timedOut ? "timeout" : error.status !== undefined ? "http" : "network";
        retry = { type: "retry", attempt, delayMs, errorKind, error };
      } finally {
        signal.removeEventListener("abort", forward);
        watch.stop(); // before the backoff: a finished attempt leaves no timer behind
      }
      yield retry;
      await options.clock.sleep(retry.delayMs, signal);
    }
  }

  return {
    type: backend.type,
    model: backend.model,
    ...(backend.reportsActivity !== undefined ? { reportsActivity: backend.reportsActivity } : {}),
    ...(backend.silentStart !== undefined ? { silentStart: backend.silentStart } : {}),
    stream,
    ...(backend.close ? { close: () => backend.close!() } : {}),
  };
}

/** The limits of one attempt; see {@link attemptWatch}. */
interface AttemptLimits {
  /** Longest wait (ms) for the whole attempt. */
  requestMs: number;
  /** Longest wait (ms) for the first sign of life; undefined: none. */
  firstByteMs: number | undefined;
  /** Longest silence (ms) after a sign of life; undefined: none. */
  idleMs: number | undefined;
  /** Called once, with the message of the limit that was reached. */
  onStall: (message: string) => void;
  requestMessage: string;
  firstByteMessage: string;
  idleMessage: string;
}

/** The reason the timers of a finished attempt are cancelled with (made once: no stack each time). */
const STOPPED = new Error("attempt finished");

/**
 * The limits of one attempt, on `clock`: the request limit runs from now for `requestMs`; the
 * first-byte limit from now until the first {@link activity}; the idle limit from each sign of
 * life. One timer is armed at a time, for the limit due first; when it wakes and that limit moved
 * (something arrived meanwhile) it is armed again for the time left. The first limit reached calls
 * `onStall` with its message, once (at equal times the request limit). `stop` cancels the timer
 * (its sleep ends, so a virtual clock has nothing left pending).
 */
function attemptWatch(
  clock: Clock,
  limits: AttemptLimits,
): { activity: () => void; stop: () => void } {
  const stopped = new AbortController();
  const started = clock.now();
  let lastActivity: number | undefined;
  let armedAt: number | undefined;
  let done = false;
  /** The limit due first now: its time (ms on `clock`) and message. */
  const due = (): { at: number; message: string } => {
    let at = started + limits.requestMs;
    let message = limits.requestMessage;
    const other =
      lastActivity === undefined
        ? limits.firstByteMs !== undefined && {
            at: started + limits.firstByteMs,
            message: limits.firstByteMessage,
          }
        : limits.idleMs !== undefined && {
            at: lastActivity + limits.idleMs,
            message: limits.idleMessage,
          };
    if (other && other.at < at) ({ at, message } = other);
    return { at, message };
  };
  const arm = (at: number) => {
    armedAt = at;
    clock.sleep(Math.max(0, at - clock.now()), stopped.signal).then(
      () => wake(at),
      () => {},
    );
  };
  const wake = (at: number) => {
    if (at === armedAt) armedAt = undefined;
    if (done) return;
    const next = due();
    if (next.at <= clock.now()) {
      done = true;
      limits.onStall(next.message);
    } else if (armedAt === undefined || next.at < armedAt) arm(next.at);
  };
  arm(due().at);
  return {
    activity() {
      if (done) return;
      const first = lastActivity === undefined;
      lastActivity = clock.now();
      // The idle limit may fall before the first-byte one the timer is armed for.
      if (first) {
        const next = due().at;
        if (armedAt === undefined || next < armedAt) arm(next);
      }
    },
    stop() {
      done = true;
      stopped.abort(STOPPED);
    },
  };
}
