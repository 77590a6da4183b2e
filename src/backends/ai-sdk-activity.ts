/**
 * Wire-level signs of life for the ai SDK backends: a `fetch` wrapper that
 * reports the response's headers and every body chunk to the listener of the model call in
 * flight, so the retry wrapper's first-byte and stream-idle timeouts see what the provider really
 * sends (the SDK's own stream parts arrive late: it holds some back until later events come).
 *
 * The listener travels with the call's abort signal: {@link withActivityListener} registers it
 * for the signal given to the provider's `doStream`, which every `@ai-sdk/*` provider passes on
 * unchanged to `fetch` (`postJsonToApi`'s `signal`), where {@link activityFetch} looks it up. (An
 * AsyncLocalStorage did this before; on Node 20 it turns on a hook for every promise of the
 * process, which cost more CPU per model call than the rest of this file.)
 */

/** The listener of each model call in flight, by the signal its requests carry. */
const listeners = new WeakMap<AbortSignal, () => void>();

/**
 * Runs `start` (which makes the call's requests with the signal it is given) with `listener` told
 * of their wire activity. `start` gets `signal` itself, or, when another call in flight already
 * uses that signal, a signal that follows it (so each call's activity reaches its own listener).
 * The listener is registered until `start` settles (the request has been sent by then; its body
 * keeps reporting to the listener it was sent with).
 */
export async function withActivityListener<T>(
  listener: (() => void) | undefined,
  signal: AbortSignal,
  start: (signal: AbortSignal) => PromiseLike<T>,
): Promise<T> {
  if (listener === undefined) return start(signal);
  const own = listeners.has(signal) ? AbortSignal.any([signal]) : signal;
  listeners.set(own, listener);
  try {
    return await start(own);
  } finally {
    if (listeners.get(own) === listener) listeners.delete(own);
  }
}

/**
 * `inner` (default the global `fetch`) reporting the response headers and each body chunk to the
 * listener registered for the request's signal ({@link withActivityListener}), if any. A
 * successful response's body is read through one pull stream that calls the listener per chunk;
 * an error response is returned as it came (its headers were the sign of life).
 */
export function activityFetch(inner?: typeof fetch): typeof fetch {
  return async (input, init) => {
    const signal = init?.signal;
    const listener = signal ? listeners.get(signal) : undefined;
    const response = await (inner ?? globalThis.fetch)(input, init);
    if (listener === undefined) return response;
    listener();
    if (response.body === null || !response.ok) return response;
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) return controller.close();
          listener();
          controller.enqueue(value);
        },
        cancel: (reason) => reader.cancel(reason),
      },
      { highWaterMark: 0 },
    );
    // The same response with its body read through `body`: its status, headers and url stay.
    Object.defineProperty(response, "body", { value: body });
    return response;
  };
}
