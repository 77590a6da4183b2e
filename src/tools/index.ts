/**
 * Tools that run inside rounds (docs/architecture.md "Layers"; docs/tools.md): the interfaces the
 * engine sees. The builders (file tools, commands, MCP servers, workspaces) load lazily with
 * `import("./team-tools.js")`, so `coord --help` never loads the MCP SDK.
 */
export type {
  LocalTool,
  NoticeSource,
  SnapshotReport,
  ToolCallContext,
  ToolNotice,
  WorkspaceHooks,
} from "./tool.js";
export type { AgentTools, TeamTools, TeamToolsOptions } from "./team-tools.js";
