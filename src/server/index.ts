// The HTTP server's public API (docs/architecture.md "Layers"): the Hono app of `coord serve`, the
// served team, and the listening server with graceful shutdown.
export { ApiError, type ApiErrorBody, type ApiErrorType } from "./api-error.js";
export {
  createApp,
  BUSY_RETRY_AFTER_SECONDS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_IN_FLIGHT,
  redactBody,
  type AppActivity,
  type AppOptions,
} from "./app.js";
export { type ChatCompletion, type CompletionUsage, usageOf } from "./chat-completion.js";
export { type ChatRequest, parseJsonBody, readChatRequest } from "./chat-request.js";
export { loadServedTeam, PATH_PREFIX, teamForModel, type ServedTeam } from "./served-team.js";
export { actingReasons, insideRunOutput, runOutputRoots } from "./team-policy.js";
export { isJsonContentType } from "./http-guards.js";
export {
  createTerminalWebApp,
  type TerminalWebApp,
  type TerminalWebOptions,
} from "./terminal-web.js";
export {
  DEFAULT_TIMEOUTS,
  isLoopbackHost,
  serverTimeoutsFromEnv,
  startServer,
  type ServerTimeouts,
  type RunningServer,
  type StartServerOptions,
} from "./start-server.js";
export { confinedFile, MAX_ROUTED_CONFIG_BYTES } from "./confined-file.js";
export { RunStopped } from "../engine/index.js";
export {
  createWebApp,
  feedRun,
  FINAL_SNAPSHOT_SUFFIX,
  logWorkspaceRoots,
  type RunEventListener,
  type RunKey,
  type RunSource,
  SNAPSHOTS_DIR,
  type SessionSummary,
  type SessionView,
  type TurnView,
  type WebApp,
  type WebAppOptions,
  type WebHost,
  WebHostError,
  type WorkspaceRoot,
} from "./web/index.js";
