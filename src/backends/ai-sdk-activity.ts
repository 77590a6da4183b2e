/**
 * Wire-level signs of life for the ai SDK backends: a `fetch` wrapper that
 * reports the response's headers and every body chunk to the listener of the model call in
 * flight, so the retry wrapper's first-byte and stream-idle timeouts see what the provider really
 * sends (the SDK's own stream parts arrive late: it holds some back until later events come).
 *
 * The listener travels with the call through an AsyncLocalStorage: {@link withActivityListener}
 * around the provider's `doStream`, {@link activityFetch} given to the provider factory.
 */
import { AsyncLocalStorage } from "node:async_hooks";

const activityListener = new AsyncLocalStorage<() => void>();

/** Runs `start` (which makes the call's requests) with `listener` told of their wire activity. */
export function withActivityListener<T>(listener: (() => void) | undefined, start: () => T): T {
  return listener === undefined ? start() : activityListener.run(listener, start);
}

/**
 * `inner` (default the global `fetch`) reporting the response headers and each body chunk to the
 * listener of the call that made the request, if any.
 */
export function activityFetch(inner?: typeof fetch): typeof fetch {
  return async (input, init) => {
    const listener = activityListener.getStore();
    const response = await (inner ?? globalThis.fetch)(input, init);
    if (listener === undefined) return response;
    listener();
    if (response.body === null) return response;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          listener();
          controller.enqueue(chunk);
        },
      }),
    );
    const wrapped = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(wrapped, "url", { value: response.url });
    return wrapped;
  };
}
