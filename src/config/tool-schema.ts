/**
 * The config keys of agents that act (docs/tools.md): a private workspace (`backend.cwd`), MCP
 * servers, command execution and tool filters on `agents[].backend`; context paths and the
 * snapshot folders on `orchestrator`. Keys and shapes are MassGen's, so its configs load.
 */
import { z } from "zod";
import { MAX_TIMER_SECONDS } from "../clock.js";

/** Tool-name filters shared by a backend and each of its MCP servers. */
const toolFilters = {
  allowed_tools: z
    .union([z.array(z.string()), z.string()])
    .optional()
    .describe(
      "Only these tools: MCP tools as `mcp__<server>__<tool>` (or the plain tool name inside a server entry); for `claude_code`, its own tools too (a list or a comma-separated string).",
    ),
  exclude_tools: z
    .array(z.string())
    .optional()
    .describe("Never these tools (`mcp__<server>__<tool>`, or the plain name inside a server)."),
};

/** The fields of one MCP server, without its name (the map form's value). */
const McpServerFields = z.object({
  type: z
    .enum(["stdio", "streamable-http"])
    .describe("`stdio` (a command coord starts) or `streamable-http` (a URL)."),
  command: z.string().optional().describe("`stdio`: the program to start."),
  args: z.array(z.string()).default([]).describe("`stdio`: its arguments."),
  env: z
    .record(z.string(), z.string())
    .default({})
    .describe(
      "`stdio`: extra environment variables (`${VAR}` and `${cwd}` expand when the server starts).",
    ),
  cwd: z
    .string()
    .optional()
    .describe("`stdio`: its working directory (default: the agent's workspace, else coord's)."),
  url: z.string().optional().describe("`streamable-http`: the server's URL."),
  headers: z
    .record(z.string(), z.string())
    .default({})
    .describe("`streamable-http`: HTTP headers (`${VAR}` expands when the server starts)."),
  tool_timeout_seconds: z
    .number()
    .positive()
    .max(MAX_TIMER_SECONDS)
    .optional()
    .describe(
      "Longest one call of a tool of this server may take (s), progress or not; then the call is cancelled and the model gets a tool error. Default 120.",
    ),
  ...toolFilters,
});

/** One entry of the list form: `{name, type, …}`. */
export const McpServerConfig = McpServerFields.extend({
  name: z.string().min(1).describe("Server name; its tools are offered as `mcp__<name>__<tool>`."),
});
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** Keys spread into `agents[].backend`. */
export const backendToolKeys = {
  cwd: z
    .string()
    .optional()
    .describe(
      "A private workspace for the agent, named so: a fresh folder per run under `.coord/workspaces/<run>/`; snapshotted at each answer (docs/tools.md). Agents with `enable_mcp_command_line` or of type `claude_code` always get one (named by their id).",
    ),
  mcp_servers: z
    .union([z.array(McpServerConfig), z.record(z.string(), McpServerFields)])
    .optional()
    .describe(
      "MCP servers whose tools the agent may call: a list of `{name, type, …}` or a map name → `{type, …}`.",
    ),
  ...toolFilters,
  enable_mcp_command_line: z
    .boolean()
    .optional()
    .describe(
      "Give the agent `execute_command`: shell commands in its workspace, in a sandbox (a timeout, a process limit, an output cap, an allow-listed environment).",
    ),
  command_line_allowed_commands: z
    .array(z.string())
    .optional()
    .describe("Only commands matching one of these regular expressions (matched at the start)."),
  command_line_blocked_commands: z
    .array(z.string())
    .optional()
    .describe("Refuse commands matching any of these regular expressions (matched at the start)."),
  command_line_execution_mode: z
    .enum(["local", "docker"])
    .optional()
    .describe(
      "`local` (default): commands run on this machine, in the command sandbox; `docker` (MassGen's) runs them in the same sandbox, with a warning: no container image, the host's filesystem read-only.",
    ),
  command_sandbox: z
    .enum(["bubblewrap", "none"])
    .optional()
    .describe(
      "`bubblewrap` (default): commands run in a bubblewrap sandbox (writes only in the workspace and writable context paths, no network, no secrets), and are refused where bubblewrap is missing; `none`: commands run without isolation (the operator's explicit choice).",
    ),
  command_network: z
    .boolean()
    .optional()
    .describe("Let sandboxed commands use the network (default false: no network)."),
  command_env: z
    .array(z.string())
    .optional()
    .describe(
      "Names of more environment variables commands get (besides PATH, LANG, LC_*, TERM, TZ, USER, LOGNAME, SHELL): their values from coord's environment.",
    ),
};

/** `orchestrator.context_paths[]`. */
export const ContextPath = z.object({
  path: z.string().describe("Directory (absolute, or relative to the working directory)."),
  permission: z
    .enum(["read", "write"])
    .default("read")
    .describe(
      "`read`: every agent may read it; `write`: the agent presenting the final answer may also write there.",
    ),
  protected_paths: z
    .array(z.string())
    .default([])
    .describe("Files or folders inside it (relative to it) that are never writable."),
});
export type ContextPath = z.infer<typeof ContextPath>;

/** Keys spread into `orchestrator`. */
export const orchestratorToolKeys = {
  context_paths: z
    .array(ContextPath)
    .default([])
    .describe("Directories the agents may read, or the presenter write (docs/tools.md)."),
  snapshot_storage: z
    .string()
    .optional()
    .describe(
      "Folder for each agent's latest workspace snapshot (default under `.coord/workspaces/<run>/`).",
    ),
  agent_temporary_workspace: z
    .string()
    .optional()
    .describe(
      "Folder where each agent gets read-only copies of the others' snapshots (default under `.coord/workspaces/<run>/`).",
    ),
};
