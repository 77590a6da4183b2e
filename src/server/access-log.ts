/**
 * The access log and the error handler of `coord serve`'s app (docs/server.md "Starting the
 * server", "Errors"): one line per request (`<request id> <method> <path> <status> <ms> ms`, with
 * a note when the client went away or the answer was a remembered failure), and every thrown
 * error sent in the OpenAI shape, with 5xx messages logged in full first.
 */
import type { Context, ErrorHandler, MiddlewareHandler } from "hono";
import type { RequestIdVariables } from "hono/request-id";
import { ApiError } from "./api-error.js";
import { CLIENT_GONE_STATUS, isClientGone, redactBody, sendError } from "./http-guards.js";

/** The request variables the log reads. */
export type LogVariables = RequestIdVariables & {
  /** The client went away before its request was read (status 499). */
  clientGone?: boolean;
  /** The answer is a remembered failure (`./failure-memory.ts`): how long ago the run failed, ms. */
  repeatOfMs?: number;
};

/**
 * Logs every request but `/health` once answered, after redacting its body (`redactBody`).
 * @param onLog receives each line (redacted once: by the app's wrapper, or by the sink when
 *   `AppOptions.logSinkRedacts`); undefined: no log.
 * @param now epoch ms.
 */
export function accessLog(
  onLog: ((line: string) => void) | undefined,
  now: () => number,
): MiddlewareHandler<{ Variables: LogVariables }> {
  return async (c, next) => {
    const started = now();
    await next();
    await redactBody(c);
    if (c.req.path === "/health") return;
    const repeatOf = c.get("repeatOfMs");
    const note = c.get("clientGone")
      ? " (the client went away before its request was read)"
      : repeatOf === undefined
        ? ""
        : ` (a repeat of a request that failed ${Math.round(repeatOf / 1000)} s ago: no run)`;
    onLog?.(
      `${c.get("requestId")} ${c.req.method} ${c.req.path} ${c.res.status} ${now() - started} ms${note}`,
    );
  };
}

/**
 * Sends an {@link ApiError} as it is (logging a 5xx's full message: the client's copy loses its
 * addresses); a client gone as status 499 with no body; anything else as a 500 `internal_error`
 * whose stack goes to the log.
 */
export function errorHandler(
  onLog: ((line: string) => void) | undefined,
): ErrorHandler<{ Variables: LogVariables }> {
  return (error: Error, c: Context<{ Variables: LogVariables }>) => {
    if (error instanceof ApiError) {
      if (error.status >= 500) onLog?.(`${c.get("requestId")} ${error.status} ${error.message}`);
      return sendError(c, error);
    }
    if (isClientGone(error, c)) {
      // Nobody reads this answer: the access log line says what happened, without a stack.
      c.set("clientGone", true);
      return c.body(null, CLIENT_GONE_STATUS as 200);
    }
    onLog?.(`${c.get("requestId")} internal error: ${error.stack ?? error.message}`);
    return sendError(
      c,
      new ApiError(500, `internal error in coord serve (please report it): ${error.message}`, {
        code: "internal_error",
      }),
    );
  };
}
