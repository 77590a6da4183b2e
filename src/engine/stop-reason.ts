/**
 * Why a run was stopped from outside, carried by the abort signal's reason so the engine ends
 * the run with the right `run-end.reason` (`timeout`, `interrupted`, `shutdown`) and no caller
 * has to work it out again from its own signal.
 */
import type { StopReason } from "../events/index.js";

/**
 * The abort reason that stops a run with `reason`: `controller.abort(new RunStopped("shutdown"))`.
 * `detail`, when given, is the run's `run-end.error` (say what stopped it: "stopped by SIGTERM");
 * otherwise the engine says it from the reason.
 */
export class RunStopped extends Error {
  constructor(
    readonly reason: StopReason,
    readonly detail?: string,
  ) {
    super(`run stopped: ${detail ?? reason}`);
    this.name = "AbortError";
  }
}

/**
 * What stopped the run, in words, from an aborted signal: a {@link RunStopped}'s `detail`, or the
 * reason itself when it is a string (`controller.abort("stopped by SIGTERM")`: code that must not
 * load the engine, such as the CLI's signal handling, stops a run that way, as `interrupted`).
 */
export function stopDetailOf(signal: AbortSignal): string | undefined {
  const reason: unknown = signal.reason;
  if (reason instanceof RunStopped) return reason.detail;
  return typeof reason === "string" && reason !== "" ? reason : undefined;
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
