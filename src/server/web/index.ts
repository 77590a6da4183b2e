// The browser UI's server (`coord --web`, docs/web.md): reached through src/server/index.ts.
export { feedRun, type RunSource } from "./run-feed.js";
export { createWebApp, type WebApp, type WebAppOptions } from "./web-app.js";
export { type ClientMessage, parseClientMessage, type ServerMessage } from "./web-protocol.js";
export {
  type RunEventListener,
  type RunKey,
  type SessionSummary,
  type SessionView,
  type TurnView,
  type WebHost,
  WebHostError,
  type WorkspaceRoot,
} from "./web-host.js";
export { FINAL_SNAPSHOT_SUFFIX, logWorkspaceRoots, SNAPSHOTS_DIR } from "./workspace-roots.js";
