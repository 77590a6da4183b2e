/**
 * The HTTP app of `coord serve` (spec sections 4.3, 7, 8; docs/server.md), built on Hono and
 * exported so tests drive it with `app.request()`:
 *
 * - `GET /health` → `{status: "ok", version, default_config: boolean, config, model}`;
 * - `GET /v1/models` → the served team as one model (without a server config: the built-in
 *   examples that do not act, as `@examples/NAME`, and the `--teams` folder's files, as
 *   `path:FILE`); `GET /v1/models/{id}` → one of them (404 `model_not_found` otherwise);
 * - `POST /v1/chat/completions` → one team run per request, at most `maxInFlight` at once (one
 *   more: 503 `server_busy` with `Retry-After`); `stream: true` is a 501 unless `stream` is on
 *   (`coord serve --stream`: Server-Sent Events, `./chat-stream.ts`); a request whose run
 *   failed is answered again, for `failureMemoryMs`, with the same error and no run
 *   (`./failure-memory.ts`: clients that retry every 5xx must not re-run a paid team);
 * - everything else → 404 (405 for a known path with the wrong method), always in the
 *   OpenAI error shape `{"error": {message, type, param, code}}`.
 *
 * Every response carries `x-request-id` (the client's when it is a plain token, else a new
 * one). With `apiKey` set, `/v1/*` needs `Authorization: Bearer <apiKey>` (401 otherwise).
 * With `tracing`, each chat completion is a SERVER span (a child of the caller's `traceparent`,
 * if any) with the run's spans under it, and its response carries `x-coord-trace-id` and
 * `traceresponse` (docs/tracing.md).
 *
 * Browser protections (docs/server.md "Security"): chat bodies must be `application/json` (415
 * otherwise, so no web page can post a "simple" cross-site request); a request carrying an
 * `Origin` that is not in `corsOrigins` is a 403, and CORS headers are sent only for allowed
 * origins. Every response body passes through the process's one redactor (`src/redact.ts`).
 * A client that goes away before its request was read is one access-log line (status 499), not
 * an internal error. The chat completion route is in ./chat-route.ts.
 */
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { basename } from "node:path";
import { redact } from "../redact.js";
import { browserGuards } from "./browser-guards.js";
import { accessLog, errorHandler } from "./access-log.js";
import { ApiError } from "./api-error.js";
import type { AppActivity, AppEnv, AppOptions } from "./app-options.js";
import {
  addChatRoute,
  BUSY_RETRY_AFTER_SECONDS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_IN_FLIGHT,
} from "./chat-route.js";
import { bearerAuth, methodNotAllowed, redactBody, sendError } from "./http-guards.js";
import { addModelRoutes } from "./model-routes.js";

export { BUSY_RETRY_AFTER_SECONDS, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_IN_FLIGHT, redactBody };
export type { AppActivity, AppEnv, AppOptions } from "./app-options.js";

/**
 * Creates the app. The options are read once; the app keeps no state between requests beyond
 * the in-flight count and the failures it remembers (never an answer), so concurrent requests
 * never share a run.
 */
export function createApp(options: AppOptions): Hono<AppEnv> & { activity: AppActivity } {
  const now = options.now ?? Date.now;
  const app = new Hono<AppEnv>();
  const slots = inFlightSlots();

  // Redacted once: here, or by the sink itself (coord serve's guarded stderr).
  const onLog =
    options.onLog && !options.logSinkRedacts
      ? (line: string) => options.onLog!(redact(line))
      : options.onLog;

  app.use(requestId({ generator: () => `req_${crypto.randomUUID().replaceAll("-", "")}` }));
  app.use(accessLog(onLog, now));
  for (const guard of browserGuards(options.corsOrigins ?? [])) app.use(guard);
  app.onError(errorHandler(onLog));
  app.notFound((c) =>
    sendError(
      c,
      new ApiError(
        404,
        `unknown path: ${c.req.method} ${c.req.path}; this server serves GET /health, GET /v1/models, GET /v1/models/{id} and POST /v1/chat/completions (not /v1/responses)`,
        { code: "unknown_url" },
      ),
    ),
  );
  if (options.apiKey !== undefined && options.apiKey !== "") {
    app.use("/v1/*", bearerAuth(options.apiKey));
  }

  app.get("/health", (c) =>
    c.json({
      status: "ok",
      version: options.version,
      default_config: options.team !== undefined,
      // The file name only: the server's directory layout is nobody's business.
      config: options.team?.path === undefined ? null : basename(options.team.path),
      model: options.team?.id ?? null,
      auth_required: options.apiKey !== undefined && options.apiKey !== "",
      model_routing: options.team === undefined && options.modelRouting !== false,
      in_flight: slots.inFlight,
    }),
  );

  addModelRoutes(app, options, now);

  addChatRoute(app, options, { now, onLog, slots });

  for (const [path, allowed] of [
    ["/v1/chat/completions", "POST"],
    ["/v1/models", "GET"],
    ["/v1/models/:id{.+}", "GET"],
    ["/health", "GET"],
  ] as const) {
    app.all(path, (c) => methodNotAllowed(c, allowed));
  }

  return Object.assign(app, {
    activity: {
      get inFlight() {
        return slots.inFlight;
      },
      idle: () => slots.idle(),
    },
  });
}

/**
 * The in-flight count the chat route takes and frees (`slots.inFlight++` / `--`), waking every
 * {@link AppActivity.idle} waiter when it comes back to 0: the graceful shutdown waits on that,
 * not on a polling timer.
 */
function inFlightSlots(): { inFlight: number; idle(): Promise<void> } {
  let count = 0;
  let waiters: (() => void)[] = [];
  return {
    get inFlight() {
      return count;
    },
    set inFlight(value: number) {
      count = value;
      if (count !== 0 || waiters.length === 0) return;
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    },
    idle: () =>
      count === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
  };
}
