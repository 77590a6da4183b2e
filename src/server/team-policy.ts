/**
 * Which teams `coord serve` may run (docs/security.md): a team that acts — runs
 * commands, has file tools (a workspace or context paths), MCP servers, or is a `claude_code`
 * agent — is served only with the operator's `--allow-acting-teams`; and nothing a run writes
 * (run logs, `.coord/` workspaces and sessions, snapshot folders) can be loaded as a config.
 */
import { realpathSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import type { Config } from "../config/index.js";

/**
 * What makes the team act, one short phrase per cause (empty: it only talks to its models).
 * Mirrors `runNeedsTools` (src/runner/run-tools.ts): exactly the teams that get tools act.
 * @param agentIndexes the agents taking part (indexes into `config.agents`).
 */
export function actingReasons(config: Config, agentIndexes: readonly number[]): string[] {
  const reasons: string[] = [];
  if (config.orchestrator.context_paths.length > 0) {
    const writes = config.orchestrator.context_paths.some((path) => path.permission === "write");
    reasons.push(
      `orchestrator.context_paths gives the agents files on the server to read${writes ? " and write" : ""}`,
    );
  }
  for (const index of agentIndexes) {
    const agent = config.agents[index]!;
    const backend = agent.backend;
    const servers = backend.mcp_servers;
    const hasServers = Array.isArray(servers)
      ? servers.length > 0
      : servers !== undefined && Object.keys(servers).length > 0;
    if (backend.enable_mcp_command_line === true)
      reasons.push(`agent ${agent.id} runs commands (enable_mcp_command_line)`);
    if (backend.type === "claude_code")
      reasons.push(`agent ${agent.id} is a claude_code agent (file tools)`);
    if (hasServers) reasons.push(`agent ${agent.id} starts MCP servers (mcp_servers)`);
    if (backend.cwd !== undefined)
      reasons.push(`agent ${agent.id} writes files in a workspace (backend.cwd)`);
  }
  return reasons;
}

/**
 * The folders a run writes on this server, resolved to real paths where they exist: the run log
 * root (`agent_outputs/` or `COORD_LOG_DIR`, also when `--no-logs`), `<cwd>/.coord/`
 * (workspaces, sessions, plans) and the served team's own snapshot folders.
 * @param config the `--config` team's config, when there is one.
 */
export function runOutputRoots(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  config?: Config,
): string[] {
  const roots = [join(cwd, "agent_outputs"), join(cwd, ".coord")];
  if (env.COORD_LOG_DIR) roots.push(resolve(cwd, env.COORD_LOG_DIR));
  const { snapshot_storage: snapshots, agent_temporary_workspace: views } =
    config?.orchestrator ?? {};
  if (snapshots !== undefined) roots.push(resolve(cwd, snapshots));
  if (views !== undefined) roots.push(resolve(cwd, views));
  return [...new Set(roots.flatMap((root) => [root, realOrSelf(root)]))];
}

/** Folder names that always hold run output, wherever they are. */
const OUTPUT_FOLDER_NAMES = new Set(["agent_outputs", ".coord"]);

/**
 * The output folder `path` lies in, or undefined: a path inside one of `roots` (or equal to
 * it), or with an `agent_outputs` or `.coord` segment below `base`.
 * @param path an absolute path (real, or as given: both forms should be checked by callers).
 */
export function insideRunOutput(
  path: string,
  roots: readonly string[],
  base: string,
): string | undefined {
  for (const root of roots) {
    const inside = relative(root, path);
    if (inside === "" || (inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)))
      return root;
  }
  const below = relative(base, path);
  if (below === ".." || below.startsWith(`..${sep}`) || isAbsolute(below)) return undefined;
  const segments = below.split(sep);
  const index = segments.findIndex((segment) => OUTPUT_FOLDER_NAMES.has(segment));
  return index < 0 ? undefined : join(base, ...segments.slice(0, index + 1));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
