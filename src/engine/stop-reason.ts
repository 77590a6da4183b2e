/**
 * Why a run was stopped from outside, carried by the abort signal's reason so the engine ends
 * the run with the right `run-end.reason` (`timeout`, `interrupted`, `shutdown`) and no caller
 * has to work it out again from its own signal.
 */
import type { StopReason } from "../events/index.js";

/** The abort reason that stops a run with `reason`: `controller.abort(new RunStopped("shutdown"))`. */
export class RunStopped extends Error {
  constructor(readonly reason: StopReason) {
    super(`run stopped: ${reason}`);
    this.name = "AbortError";
  }
}

/**
 * The stop reason an aborted signal carries: a {@link RunStopped}'s reason; `timeout` for a
 * `TimeoutError` (`AbortSignal.timeout`, a request timeout); otherwise `interrupted`.
 */
export function stopReasonOf(signal: AbortSignal): StopReason {
  const reason: unknown = signal.reason;
  if (reason instanceof RunStopped) return reason.reason;
  if ((reason instanceof DOMException || reason instanceof Error) && reason.name === "TimeoutError")
    return "timeout";
  return "interrupted";
}
