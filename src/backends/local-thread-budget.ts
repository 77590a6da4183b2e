/**
 * The process-wide CPU thread budget of the `local` backend: inference threads in use never exceed
 * the core count, because past that llama.cpp's spinning worker threads collapse throughput (a
 * second 2-thread context on 2 cores turns 2 s into 14 s). Callers wait in FIFO order.
 */
import { availableParallelism } from "node:os";

const threadBudget = { capacity: Math.max(1, availableParallelism()), inUse: 0 };
const threadWaiters: Array<{ units: number; grant: () => void }> = [];

function drainThreadWaiters(): void {
  while (
    threadWaiters.length > 0 &&
    threadBudget.inUse + threadWaiters[0]!.units <= threadBudget.capacity
  ) {
    const waiter = threadWaiters.shift()!;
    threadBudget.inUse += waiter.units;
    waiter.grant();
  }
}

/** Waits (FIFO) until `threads` CPU threads are free; resolves to the release function. */
export async function acquireThreads(threads: number, signal: AbortSignal): Promise<() => void> {
  const units = Math.min(threads, threadBudget.capacity);
  signal.throwIfAborted();
  await new Promise<void>((grant, reject) => {
    const waiter = { units, grant };
    const onAbort = () => {
      threadWaiters.splice(threadWaiters.indexOf(waiter), 1);
      reject(abortReason(signal));
    };
    waiter.grant = () => {
      signal.removeEventListener("abort", onAbort);
      grant();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    threadWaiters.push(waiter);
    drainThreadWaiters();
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    threadBudget.inUse -= units;
    drainThreadWaiters();
  };
}

/** What an aborted local call throws: `signal.reason`, or an `AbortError` DOMException. */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new DOMException("The local model call was aborted.", "AbortError");
}
