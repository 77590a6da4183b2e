/**
 * Checks of the tool keys (docs/tools.md) that the schema cannot express: regular expressions
 * that do not compile, MCP servers without their command or URL or with a repeated name, two
 * agents naming the same workspace. (`command_line_execution_mode: docker` is accepted: its
 * commands run in coord's sandbox, with a warning at run time.)
 */
import type { ConfigProblem } from "./config-problem.js";
import type { KeyPath } from "./key-path.js";
import type { Config } from "./schema.js";
import type { McpServerConfig } from "./tool-schema.js";

/** The servers of an `mcp_servers` value (list or map), each with its key path. */
export function mcpServerEntries(
  servers: Config["agents"][number]["backend"]["mcp_servers"],
  base: KeyPath,
): { server: McpServerConfig; path: KeyPath }[] {
  if (servers === undefined) return [];
  if (Array.isArray(servers)) {
    return servers.map((server, index) => ({ server, path: [...base, index] }));
  }
  return Object.entries(servers).map(([name, server]) => ({
    server: { ...server, name },
    path: [...base, name],
  }));
}

/** Problems of the tool keys of a schema-valid config (empty when none). */
export function checkToolConfig(config: Config): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const workspaces = new Map<string, number>();
  for (const [index, agent] of config.agents.entries()) {
    const backend = agent.backend;
    const at = (...keys: (string | number)[]): KeyPath => ["agents", index, "backend", ...keys];
    for (const key of ["command_line_allowed_commands", "command_line_blocked_commands"] as const) {
      for (const [position, pattern] of (backend[key] ?? []).entries()) {
        const error = regexError(pattern);
        if (error !== undefined) {
          problems.push({ path: at(key, position), text: `not a regular expression: ${error}` });
        }
      }
    }
    if (backend.cwd !== undefined) {
      const name = backend.cwd.trim();
      const earlier = workspaces.get(name);
      if (name === "" || name === "." || name === "..") {
        problems.push({ path: at("cwd"), text: "expected a folder name such as `workspace1`" });
      } else if (earlier !== undefined) {
        problems.push({
          path: at("cwd"),
          text: `the workspace ${JSON.stringify(name)} is also agents[${earlier}]'s: give each agent its own`,
        });
      } else workspaces.set(name, index);
    }
    const names = new Set<string>();
    for (const { server, path } of mcpServerEntries(backend.mcp_servers, at("mcp_servers"))) {
      if (names.has(server.name)) {
        problems.push({
          path,
          text: `a second MCP server named ${JSON.stringify(server.name)}: give each its own name`,
        });
      }
      names.add(server.name);
      if (server.type === "stdio" && (server.command ?? "").trim() === "") {
        problems.push({
          path: [...path, "command"],
          text: "a `stdio` MCP server needs `command:` (the program to start)",
        });
      }
      if (server.type === "streamable-http" && (server.url ?? "").trim() === "") {
        problems.push({
          path: [...path, "url"],
          text: "a `streamable-http` MCP server needs `url:`",
        });
      }
    }
  }
  return problems;
}

function regexError(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
