/**
 * The team's tools for one run (docs/tools.md), as `startRun` sets them up: built only when the
 * config asks for them (context paths, a workspace, a command tool, MCP servers, or a
 * `claude_code` agent, which always works in a workspace of its own), so a plain run creates no
 * folder and never loads the MCP SDK.
 */
import type { Clock } from "../clock.js";
import type { Config } from "../config/index.js";
import { logDirName } from "../store/index.js";
import type { TeamTools } from "../tools/index.js";

/**
 * True when the agents taking part need tools: context paths exist, or one of them has a
 * workspace (`backend.cwd`), a command tool, MCP servers, or is a `claude_code` agent.
 */
export function runNeedsTools(config: Config, agentIndexes: readonly number[]): boolean {
  if (config.orchestrator.context_paths.length > 0) return true;
  return agentIndexes.some((index) => {
    const backend = config.agents[index]!.backend;
    const servers = backend.mcp_servers;
    const hasServers = Array.isArray(servers)
      ? servers.length > 0
      : servers !== undefined && Object.keys(servers).length > 0;
    return (
      backend.cwd !== undefined ||
      backend.enable_mcp_command_line === true ||
      backend.type === "claude_code" ||
      hasServers
    );
  });
}

/**
 * Builds the team's tools when the run needs them ({@link runNeedsTools}); their workspaces go
 * under `<cwd>/.coord/workspaces/run_<YYYYMMDD>_<HHMMSS>[_<n>]/` (local time of the start).
 * @returns undefined when no agent needs tools.
 * @throws ConfigError naming `orchestrator.context_paths[i].path` for a path that does not exist.
 */
export async function openTeamTools(options: {
  config: Config;
  agentIndexes: readonly number[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  clock: Clock;
  /** The run log's root, hidden from the agents (it names who wrote which answer). */
  logRoot?: string | undefined;
  /** Copied into every agent's workspace when it is created (a plan's result so far). */
  workspaceSeed?: string | undefined;
}): Promise<TeamTools | undefined> {
  if (!runNeedsTools(options.config, options.agentIndexes)) return undefined;
  const { createTeamTools } = await import("../tools/team-tools.js");
  return createTeamTools({
    config: options.config,
    agentIndexes: options.agentIndexes,
    cwd: options.cwd,
    env: options.env,
    runName: logDirName(new Date(options.clock.now())).replace(/^log_/, "run_"),
    ...(options.logRoot !== undefined ? { hidden: [options.logRoot] } : {}),
    ...(options.workspaceSeed !== undefined ? { workspaceSeed: options.workspaceSeed } : {}),
  });
}

/** True when a context path has write permission: only the presenter may write there. */
export function presenterWrites(config: Config): boolean {
  return config.orchestrator.context_paths.some((entry) => entry.permission === "write");
}
