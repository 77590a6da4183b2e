/**
 * `POST /v1/chat/completions` of `coord serve` (./app.ts; docs/server.md), in the order a request
 * meets its steps: a JSON body only (415), the request's trace span (with tracing on), the body
 * limit (413), then {@link serveChatCompletion}: read the request and choose its team, answer a
 * remembered failure again without a run (`./failure-memory.ts`), take a slot among
 * `maxInFlight` (503 `server_busy` otherwise), and run the team, as one JSON answer or as
 * Server-Sent Events (`./chat-stream.ts`).
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { systemClock } from "../clock.js";
import type { Tracing } from "../tracing/index.js";
import { ApiError } from "./api-error.js";
import type { AppEnv, AppOptions } from "./app-options.js";
import { type CompletionContext, runChatCompletion } from "./chat-completion.js";
import { type ChatRequest, parseJsonBody, readChatRequest } from "./chat-request.js";
import { DEFAULT_KEEP_ALIVE_MS, streamChatCompletion } from "./chat-stream.js";
import { createFailureMemory } from "./failure-memory.js";
import { withGeneration } from "./generation-override.js";
import { isJsonContentType, sendError } from "./http-guards.js";
import { teamForModel, type ServedTeam } from "./served-team.js";
import { createTeamCache, type TeamCache } from "./team-cache.js";

/** Default cap on a request body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Default cap on chat completions in flight at once (`--max-in-flight`). */
export const DEFAULT_MAX_IN_FLIGHT = 64;

/** `Retry-After` of the 503 a request past the in-flight cap gets, seconds. */
export const BUSY_RETRY_AFTER_SECONDS = 5;

/** What the route shares with the rest of the app. */
export interface ChatRouteShared {
  /** Epoch ms. */
  now: () => number;
  /** The app's log (lines already redacted), if any. */
  onLog: ((line: string) => void) | undefined;
  /** Chat completions in flight: counted here, read by `/health` and the graceful shutdown. */
  slots: { inFlight: number };
}

/** Adds `POST /v1/chat/completions` to `app`. */
export function addChatRoute(
  app: Hono<AppEnv>,
  options: AppOptions,
  shared: ChatRouteShared,
): void {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  app.post(
    "/v1/chat/completions",
    jsonBodyOnly,
    traceRequest(options.tracing),
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) =>
        sendError(
          c,
          new ApiError(
            413,
            `the request body is larger than the server's limit of ${maxBodyBytes} bytes`,
            { code: "request_too_large" },
          ),
        ),
    }),
    serveChatCompletion(options, shared),
  );
}

/** 415 unless the body is sent as `application/json` (no web page can post it "simply"). */
const jsonBodyOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const type = c.req.header("content-type");
  if (isJsonContentType(type)) return next();
  return sendError(
    c,
    new ApiError(
      415,
      `the request body must be JSON sent with Content-Type: application/json (received ${type === undefined ? "no Content-Type" : JSON.stringify(type)})`,
      { code: "unsupported_media_type" },
    ),
  );
};

/** With tracing on: the request's SERVER span around the rest, its ids in the response headers. */
function traceRequest(tracing: Tracing | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!tracing) return next();
    const requestTrace = tracing.startRequest({
      method: c.req.method,
      route: "/v1/chat/completions",
      traceparent: c.req.header("traceparent"),
      requestId: c.get("requestId"),
      userAgent: c.req.header("user-agent"),
    });
    c.set("requestTrace", requestTrace);
    c.header("x-coord-trace-id", requestTrace.traceId);
    c.header("traceresponse", requestTrace.traceresponse);
    try {
      await next();
    } finally {
      requestTrace.end(c.res.status);
    }
  };
}

/** The route's handler: request and team, a remembered failure, a slot, the run. */
function serveChatCompletion(
  options: AppOptions,
  shared: ChatRouteShared,
): (c: Context<AppEnv>) => Promise<Response> {
  const { now, onLog, slots } = shared;
  const route: RouteContext = { options, now, onLog };
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const failures = createFailureMemory({ now, ttlMs: options.failureMemoryMs });
  const teams = createTeamCache<ServedTeam>();

  return async (c) => {
    const text = await c.req.text();
    const request = readChatRequest(parseJsonBody(text), { stream: options.stream === true });
    const routed = options.team ?? (await routedTeam(options, request.model, teams));
    // The request's temperature, max_tokens, stop: for this run's agents only.
    const { generation, generationFields } = request.options;
    const config = withGeneration(
      routed.config,
      routed.agentIndexes,
      generation,
      options.env,
      generationFields,
    );
    const team = { ...routed, config };
    // A client retrying a failed run (LangChain, the AI SDK) gets its failure, not a new run:
    // as it came the first time (a streamed one ends its stream with it).
    const repeatKey = failures.keyOf(team.id, routed.config, text);
    const remembered = (error: unknown): never => {
      failures.remember(repeatKey, error);
      throw error;
    };
    const repeat = failures.recall(repeatKey);
    if (repeat) {
      c.set("repeatOfMs", repeat.ageMs);
      if (!request.stream) return sendError(c, repeat.error);
      return chatStream(route, c, request, team, () => undefined, remembered, repeat.error);
    }
    // Runs are capped, not requests: a client still sending its body holds no run slot.
    if (slots.inFlight >= maxInFlight) return serverBusy(c, maxInFlight);
    slots.inFlight++;
    let held = false;
    try {
      if (!request.stream) return await chatCompletion(route, c, request, team).catch(remembered);
      // A streamed run holds its slot until the stream ends, not until its headers are sent.
      const response = chatStream(route, c, request, team, () => slots.inFlight--, remembered);
      held = true;
      return response;
    } finally {
      if (!held) slots.inFlight--;
    }
  };
}

/** What the run steps of the route read: the app's options, its clock and its log. */
interface RouteContext {
  options: AppOptions;
  now: () => number;
  onLog: ((line: string) => void) | undefined;
}

/** Runs one chat completion (counted in flight by the caller). */
async function chatCompletion(
  route: RouteContext,
  c: Context<AppEnv>,
  request: ChatRequest,
  team: ServedTeam,
): Promise<Response> {
  const { body, logDir } = await runChatCompletion(team, request, completionContext(route, c));
  if (logDir !== undefined) c.header("x-coord-log-dir", logDir);
  return c.json(body);
}

/**
 * Runs one chat completion as Server-Sent Events; `release` frees its slot at the end, `failed`
 * sees its error. With `replay` (a remembered failure) no run starts: the stream ends with it.
 */
function chatStream(
  route: RouteContext,
  c: Context<AppEnv>,
  request: ChatRequest,
  team: ServedTeam,
  release: () => void,
  failed: (error: unknown) => never,
  replay?: ApiError,
): Response {
  const { options, now, onLog } = route;
  const id = c.get("requestId");
  return streamChatCompletion(
    (onLine, gone) =>
      replay
        ? Promise.reject(replay)
        : runChatCompletion(team, request, {
            ...completionContext(route, c, gone),
            onLine,
          }).catch(failed),
    {
      model: team.id,
      created: Math.floor(now() / 1000),
      includeUsage: request.includeUsage,
      keepAliveMs: options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      clock: options.clock ?? systemClock,
      onError: (error) => {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        onLog?.(`${id} streamed run failed: ${message}`);
      },
      onEnd: release,
    },
  );
}

/** What a run needs from the server; `gone` also stops it (a streaming client went away). */
function completionContext(
  route: RouteContext,
  c: Context<AppEnv>,
  gone?: AbortSignal,
): CompletionContext {
  const { options, now, onLog } = route;
  const id = c.get("requestId");
  const signals = [c.req.raw.signal];
  if (gone) signals.push(gone);
  if (options.signal) signals.push(options.signal);
  if (options.requestTimeoutMs !== undefined)
    signals.push(AbortSignal.timeout(options.requestTimeoutMs));
  return {
    env: options.env,
    cwd: options.cwd,
    logRoot: options.logRoot,
    debug: options.debug ?? false,
    version: options.version,
    cliArgs: options.cliArgs ?? [],
    signal: AbortSignal.any(signals),
    now,
    onTrace: (line) => onLog?.(`${id} ${line}`),
    onWarning: (line) => onLog?.(`${id} warning: ${line}`),
    onRunEnd: (state) => options.onRunEnd?.(state, id),
    tracing: c.get("requestTrace"),
    clock: options.clock,
    fetch: options.fetch,
  };
}

/** 503 `server_busy` with `Retry-After`: `maxInFlight` runs are in flight. */
function serverBusy(c: Context<AppEnv>, maxInFlight: number): Response {
  c.header("retry-after", String(BUSY_RETRY_AFTER_SECONDS));
  return sendError(
    c,
    new ApiError(
      503,
      `the server is busy: ${maxInFlight} team runs are in flight, its limit (--max-in-flight); retry in ${BUSY_RETRY_AFTER_SECONDS} s`,
      { code: "server_busy", retryable: true },
    ),
  );
}

/**
 * The team a request's `model` names, when the server has none of its own (400 if routing is off);
 * a `path:` or `@examples/` team loaded before and unchanged since comes from `cache`.
 */
async function routedTeam(
  options: AppOptions,
  model: string | undefined,
  cache: TeamCache<ServedTeam>,
): Promise<ServedTeam> {
  if (options.modelRouting === false) {
    throw new ApiError(
      400,
      "model routing is off on this server (--no-model-routing) and it has no team: start it with --config",
      { param: "model", code: "model_routing_disabled" },
    );
  }
  return teamForModel(model, {
    cwd: options.cwd,
    env: options.env,
    teamsDir: options.teamsDir,
    allowActing: options.allowActingTeams === true,
    cache,
  });
}
