/**
 * A virtual clock for tests over a real socket. A virtual clock jumps to its next timer as soon as
 * the process is idle, and a process waiting for a reply from a local fake server is idle: a
 * request timeout of 300 s would fire before the reply arrives. The gate holds time while any
 * request sent through its {@link IoGate.fetch} is on its way: from the call until its response
 * body is read to the end, cancelled or failed, or its signal aborts. A fake server's handler that
 * means to hold a reply (a provider that hangs) says so with {@link IoGate.hold}; that request then
 * no longer holds time, and the timeouts under test fire, in virtual time, at once.
 */
import { createVirtualClock, type VirtualClock } from "../../src/clock.js";
import type { FakeRequest } from "./fake-openai-server.js";

/** The header that names a request to the gate (a number). */
export const IO_GATE_HEADER = "x-io-gate";

/** See the module docstring. */
export interface IoGate {
  /** Virtual time, moving only while no request is on its way. */
  clock: VirtualClock;
  /** A fetch that reports its requests to the gate; each gets an {@link IO_GATE_HEADER} header. */
  fetch: typeof fetch;
  /**
   * Marks `request` (as the fake server received it) as held by the server. `afterFirstBytes`:
   * the server sends the head and a first event, then holds the rest; the request holds time
   * until the client has read those first bytes. Default: the server holds the whole reply.
   */
  hold(request: FakeRequest, options?: { afterFirstBytes?: boolean }): void;
}

/**
 * Creates an {@link IoGate}.
 * @param start the virtual clock's initial time (ms since the epoch); default its own.
 */
export function createIoGate(start?: number): IoGate {
  let nextId = 0;
  /** Requests on their way: id → whether body bytes arrived. */
  const open = new Map<number, { bytes: boolean }>();
  /** Held requests: id → held after the first bytes. */
  const held = new Map<number, boolean>();
  const quiet = (id: number, state: { bytes: boolean }) =>
    held.has(id) && (held.get(id) === false || state.bytes);
  const clock = createVirtualClock(start, {
    settled: () => [...open].every(([id, state]) => quiet(id, state)),
  });
  const finish = (id: number) => {
    if (open.delete(id)) clock.wake();
  };

  const gatedFetch: typeof fetch = async (input, init) => {
    const id = nextId++;
    const state = { bytes: false };
    open.set(id, state);
    init?.signal?.addEventListener("abort", () => finish(id), { once: true });
    const headers = new Headers(init?.headers);
    headers.set(IO_GATE_HEADER, String(id));
    let response: Response;
    try {
      response = await fetch(input, { ...init, headers });
    } catch (error) {
      finish(id);
      throw error;
    }
    if (response.body === null) {
      finish(id);
      return response;
    }
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            finish(id);
            return;
          }
          if (!state.bytes) {
            state.bytes = true;
            clock.wake();
          }
          controller.enqueue(value);
        } catch (error) {
          finish(id);
          controller.error(error);
        }
      },
      cancel(reason) {
        finish(id);
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return {
    clock,
    fetch: gatedFetch,
    hold(request, options = {}) {
      const id = Number(request.headers[IO_GATE_HEADER]);
      if (!Number.isInteger(id))
        throw new Error(`hold: the request has no ${IO_GATE_HEADER} header`);
      held.set(id, options.afterFirstBytes === true);
      clock.wake();
    },
  };
}
