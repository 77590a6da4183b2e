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
import type { RunState } from "../session/index.js";
import type { RequestTrace, Tracing } from "../tracing/index.js";
import { accessLog, errorHandler, type LogVariables } from "./access-log.js";
import { ApiError } from "./api-error.js";
import type { Clock } from "../clock.js";
import {
  addChatRoute,
  BUSY_RETRY_AFTER_SECONDS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_IN_FLIGHT,
} from "./chat-route.js";
import { bearerAuth, methodNotAllowed, redactBody, sendError } from "./http-guards.js";
import { addModelRoutes } from "./model-routes.js";
import type { ServedTeam } from "./served-team.js";

export { BUSY_RETRY_AFTER_SECONDS, DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_IN_FLIGHT, redactBody };

/** Options of {@link createApp}. */
export interface AppOptions {
  /** The server's team (`--config`); undefined: each request's `model` chooses one. */
  team?: ServedTeam | undefined;
  /** Environment (merged with ~/.config/coord/.env): provider keys, `COORD_*`. */
  env: Readonly<Record<string, string | undefined>>;
  /** Working directory: `path:FILE` models, relative model paths and the log root resolve here. */
  cwd: string;
  /** coord's version, for `/health` and the run logs. */
  version: string;
  /** Run log root (`agent_outputs` or `COORD_LOG_DIR`); undefined: no run logs. */
  logRoot?: string | undefined;
  /** Also write coord_debug.log per run and report trace lines through `onLog`. */
  debug?: boolean;
  /** When set, `/v1/*` requires `Authorization: Bearer <apiKey>`. */
  apiKey?: string | undefined;
  /** Cap on request bodies (bytes); larger ones get 413. Default {@link DEFAULT_MAX_BODY_BYTES}. */
  maxBodyBytes?: number;
  /** Stop a run after this long (ms) and answer 504; default none (the config's timeouts apply). */
  requestTimeoutMs?: number | undefined;
  /**
   * Origins whose web pages may call the server (`--cors-origin`, `*` for any): they get CORS
   * headers; a request with any other `Origin` header is a 403. Default none.
   */
  corsOrigins?: readonly string[] | undefined;
  /**
   * Without a server team, let each request's `model` choose one (`@examples/NAME`, `path:FILE`,
   * `<backend>/<model>`). Default true; `--no-model-routing` sets false.
   */
  modelRouting?: boolean | undefined;
  /** `--teams DIR` (absolute): `path:FILE` names a config file in it; undefined: `path:` is refused. */
  teamsDir?: string | undefined;
  /** `--allow-acting-teams`: a `path:` team that runs commands, writes files or starts MCP servers may run. */
  allowActingTeams?: boolean | undefined;
  /**
   * Chat completions in flight at once; one more gets 503 `server_busy` with `Retry-After`.
   * Default {@link DEFAULT_MAX_IN_FLIGHT}.
   */
  maxInFlight?: number | undefined;
  /** `--stream`: answer `stream: true` with Server-Sent Events; default false (a 501). */
  stream?: boolean | undefined;
  /** Silence in a streamed answer before a `: keep-alive` comment, ms; default 15000. */
  keepAliveMs?: number | undefined;
  /**
   * How long a failed run answers the same request again without a run (ms; 0: never); default
   * `FAILURE_MEMORY_MS` (`./failure-memory.ts`: 180 s).
   */
  failureMemoryMs?: number | undefined;
  /** Time for the keep-alive sleeps; default the system clock. */
  clock?: Clock | undefined;
  /** Aborting it stops every run in flight (they answer 503): shutdown past its grace period. */
  signal?: AbortSignal;
  /** Epoch ms; default `Date.now`. */
  now?: () => number;
  /** For execution_metadata.yaml in each run log. */
  cliArgs?: readonly string[];
  /** One line per finished request (access log) and, with `debug`, per trace line. */
  onLog?: (line: string) => void;
  /** Called when a run ends, with its final state (tests, observability). */
  onRunEnd?: (state: RunState, requestId: string) => void;
  /** Traces each chat completion (`coord serve --tracing`, `COORD_TRACING_ENABLED`). */
  tracing?: Tracing | undefined;
}

/** Counts of requests the app is serving; read by the server for graceful shutdown. */
export interface AppActivity {
  /** Chat completions in flight. */
  readonly inFlight: number;
}

/** The app's per-request variables: the access log's, and the request's trace span. */
export type AppEnv = { Variables: LogVariables & { requestTrace?: RequestTrace } };

/**
 * Creates the app. The options are read once; the app keeps no state between requests beyond
 * the in-flight count and the failures it remembers (never an answer), so concurrent requests
 * never share a run.
 */
export function createApp(options: AppOptions): Hono<AppEnv> & { activity: AppActivity } {
  const now = options.now ?? Date.now;
  const app = new Hono<AppEnv>();
  const slots = { inFlight: 0 };

  const onLog = options.onLog && ((line: string) => options.onLog!(redact(line)));

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
    },
  });
}
