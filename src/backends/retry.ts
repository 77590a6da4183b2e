/**
 * Retries and a per-request timeout as a wrapper around any backend (STYLE.md rule 5;
 * COORDINATION.md "Limits and failures": 429/5xx/timeouts retried with backoff, honouring
 * Retry-After). Each retry is announced in the stream itself, as a `retry` chunk before the
 * wait, so it reaches the run's events and log like everything else.
 *
 * A call is retried only while nothing has been streamed from it yet: once a chunk reached the
 * engine, a failure surfaces as is (the engine counts it against the agent).
 *
 * Besides the total request timeout, a backend that reports wire activity
 * ({@link Backend.reportsActivity}: the hosted providers) gets two liveness limits (issue 17
 * item 4): a first-byte timeout (nothing at all arrived since the request was sent) and a
 * stream-idle timeout (nothing arrived for that long since the last event). Either aborts the
 * attempt as a timeout, retried like one.
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
  const firstByteMs = liveness ? options.firstByteTimeoutMs : undefined;
  const idleMs = liveness ? options.streamIdleTimeoutMs : undefined;
  const seconds = (ms: number) => String(Number((ms / 1000).toFixed(3)));

  async function* stream(
    request: ModelRequest,
    { signal }: StreamOptions,
  ): AsyncGenerator<BackendChunk> {
    for (let attempt = 1; ; attempt++) {
      const timeout = new AbortController();
      const timer = setTimeout(
        () => timeout.abort(new DOMException("request timed out", "TimeoutError")),
        requestTimeoutMs,
      );
      const combined = AbortSignal.any([signal, timeout.signal]);
      // Liveness: one timer, first the first-byte limit, then (refreshed on every sign of life)
      // the idle limit.
      let stalled: string | undefined;
      const stall = (why: string) => () => {
        stalled = why;
        timeout.abort(new DOMException(why, "TimeoutError"));
      };
      let idleTimer: NodeJS.Timeout | undefined;
      const firstByteTimer =
        firstByteMs === undefined
          ? undefined
          : setTimeout(
              stall(
                `${backend.type}: no response within ${seconds(firstByteMs)} s (timeout_settings.first_byte_timeout_seconds)`,
              ),
              firstByteMs,
            );
      const onActivity = () => {
        if (firstByteTimer !== undefined) clearTimeout(firstByteTimer);
        if (idleMs === undefined) return;
        if (idleTimer === undefined) {
          idleTimer = setTimeout(
            stall(
              `${backend.type}: the response stream was silent for ${seconds(idleMs)} s (timeout_settings.stream_idle_timeout_seconds)`,
            ),
            idleMs,
          );
        } else idleTimer.refresh();
      };
      let streamed = false;
      try {
        const streamOptions = liveness ? { signal: combined, onActivity } : { signal: combined };
        for await (const chunk of backend.stream(request, streamOptions)) {
          onActivity();
          streamed = true;
          yield chunk;
        }
        return;
      } catch (caught) {
        if (signal.aborted) throw caught; // the caller cancelled: never retry
        const timedOut = timeout.signal.aborted;
        const error = timedOut
          ? new BackendError({
              message:
                stalled ??
                `${backend.type}: no complete response within ${seconds(requestTimeoutMs)} s (timeout_settings.request_timeout_seconds)`,
              provider: backend.type,
              retryable: true,
              cause: caught,
            })
          : caught;
        if (!(error instanceof BackendError) || isAbort(error)) throw error;
        if (!error.retryable || streamed || attempt > maxRetries) throw error;
        const delayMs = retryDelayMs(error, attempt, delays);
        const errorKind = timedOut ? "timeout" : error.status !== undefined ? "http" : "network";
        yield { type: "retry", attempt, delayMs, errorKind, error };
        await options.clock.sleep(delayMs, signal);
      } finally {
        clearTimeout(timer);
        clearTimeout(firstByteTimer);
        clearTimeout(idleTimer);
      }
    }
  }

  return {
    type: backend.type,
    model: backend.model,
    ...(backend.reportsActivity !== undefined ? { reportsActivity: backend.reportsActivity } : {}),
    stream,
    ...(backend.close ? { close: () => backend.close!() } : {}),
  };
}
