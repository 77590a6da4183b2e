/**
 * Retries and a per-request timeout as a wrapper around any backend (STYLE.md rule 5;
 * COORDINATION.md "Limits and failures": 429/5xx/timeouts retried with backoff, honouring
 * Retry-After). Each retry is announced in the stream itself, as a `retry` chunk before the
 * wait, so it reaches the run's events and log like everything else.
 *
 * A call is retried only while nothing has been streamed from it yet: once a chunk reached the
 * engine, a failure surfaces as is (the engine counts it against the agent).
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
      let streamed = false;
      try {
        for await (const chunk of backend.stream(request, { signal: combined })) {
          streamed = true;
          yield chunk;
        }
        return;
      } catch (caught) {
        if (signal.aborted) throw caught; // the caller cancelled: never retry
        const timedOut = timeout.signal.aborted;
        const error = timedOut
          ? new BackendError({
              message: `${backend.type}: no complete response within ${Math.round(requestTimeoutMs / 1000)} s (timeout_settings.request_timeout_seconds)`,
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
      }
    }
  }

  return {
    type: backend.type,
    model: backend.model,
    stream,
    ...(backend.close ? { close: () => backend.close!() } : {}),
  };
}
