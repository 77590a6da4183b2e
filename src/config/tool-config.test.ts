import { describe, expect, it } from "vitest";
import { ConfigError } from "../errors.js";
import { mcpServerEntries } from "./check-tool-config.js";
import { parseConfigText } from "./load.js";

function parse(text: string, env: Record<string, string> = {}) {
  return parseConfigText(text, { source: "c.yaml", env });
}

function configError(text: string): string {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("tool keys (MassGen's)", () => {
  it("reads a workspace, MCP servers as a list or a map, filters and command settings", () => {
    const { config, warnings } = parse(`
agents:
  - id: a
    backend:
      type: scripted
      cwd: workspace1
      enable_mcp_command_line: true
      command_line_allowed_commands: ["python .*", "ls"]
      command_line_blocked_commands: ["rm .*"]
      exclude_tools: [mcp__weather__set_location]
      mcp_servers:
        - name: weather
          type: stdio
          command: node
          args: [server.js]
          env: { KEY: "\${WEATHER_KEY}" }
          allowed_tools: [get_forecast]
  - id: b
    backend:
      type: scripted
      cwd: workspace2
      mcp_servers:
        search: { type: streamable-http, url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer \${TOKEN}" } }
orchestrator:
  snapshot_storage: snapshots
  agent_temporary_workspace: temp_workspaces
  context_paths:
    - { path: /data, permission: write, protected_paths: [secrets] }
`);
    expect(warnings).toEqual([]);
    const [a, b] = config.agents;
    expect(a!.backend.cwd).toBe("workspace1");
    // ${VAR} inside mcp_servers is kept for the server's start: an unset variable is no error here.
    const [weather] = mcpServerEntries(a!.backend.mcp_servers, ["x"]);
    expect(weather!.server).toMatchObject({
      name: "weather",
      env: { KEY: "${WEATHER_KEY}" },
      allowed_tools: ["get_forecast"],
    });
    const [search] = mcpServerEntries(b!.backend.mcp_servers, ["agents", 1, "mcp_servers"]);
    expect(search).toMatchObject({
      server: {
        name: "search",
        type: "streamable-http",
        headers: { Authorization: "Bearer ${TOKEN}" },
      },
      path: ["agents", 1, "mcp_servers", "search"],
    });
    expect(config.orchestrator).toMatchObject({
      snapshot_storage: "snapshots",
      agent_temporary_workspace: "temp_workspaces",
      context_paths: [{ path: "/data", permission: "write", protected_paths: ["secrets"] }],
    });
  });

  it("still expands ${VAR} everywhere else", () => {
    const { config } = parse(
      "agents:\n  - id: a\n    backend: { type: scripted, cwd: '${WS}' }\n",
      { WS: "ws9" },
    );
    expect(config.agents[0]!.backend.cwd).toBe("ws9");
  });

  it("refuses bad regular expressions, incomplete or repeated servers and shared workspaces (docker is accepted)", () => {
    const message = configError(`
agents:
  - id: a
    backend:
      type: scripted
      cwd: ws
      command_line_execution_mode: docker
      command_line_blocked_commands: ["rm (" ]
      mcp_servers:
        - { name: one, type: stdio }
        - { name: one, type: streamable-http }
  - id: b
    backend: { type: scripted, cwd: ws }
`);
    expect(message).not.toContain("command_line_execution_mode");
    expect(message).toContain(
      "agents[0].backend.command_line_blocked_commands[0]: not a regular expression",
    );
    expect(message).toContain(
      "agents[0].backend.mcp_servers[0].command: a `stdio` MCP server needs `command:`",
    );
    expect(message).toContain('agents[0].backend.mcp_servers[1]: a second MCP server named "one"');
    expect(message).toContain(
      "agents[0].backend.mcp_servers[1].url: a `streamable-http` MCP server needs `url:`",
    );
    expect(message).toContain(`agents[1].backend.cwd: the workspace "ws" is also agents[0]'s`);
    expect(message).toMatch(/^c\.yaml:8:\d+: /);
  });

  it("warns once about MassGen's custom_tools, naming the key and its line", () => {
    const { warnings } = parse(
      "agents:\n  - id: a\n    backend:\n      type: scripted\n      custom_tools:\n        - name: calc\n          path: tools.py\n",
    );
    expect(warnings.map((warning) => warning.message)).toEqual([
      "c.yaml:5:7: agents[0].backend.custom_tools: not supported in coord: MassGen's Python custom tools (offer tools through mcp_servers) (ignored)",
    ]);
  });

  it("warns about unknown keys inside a server entry", () => {
    const { warnings } = parse(
      "agents:\n  - id: a\n    backend:\n      type: scripted\n      mcp_servers:\n        - { name: s, type: stdio, command: x, security: { level: high } }\n",
    );
    expect(warnings.map((warning) => warning.path)).toEqual([
      "agents[0].backend.mcp_servers[0].security",
    ]);
  });
});
