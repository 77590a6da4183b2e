/**
 * coord's MCP client against a real MCP server written with the SDK (test/support/mcp-test-server.ts):
 * over stdio (the built server as a child process) and over streamable HTTP on 127.0.0.1. Tools
 * are named `mcp__<server>__<tool>`, filtered, called, and a server that fails to start or dies
 * is a notice, never a crash.
 */
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { McpServerConfig } from "../src/config/index.js";
import { startMcpServers, type McpTools } from "../src/tools/mcp-servers.js";
import { ToolError } from "../src/tools/path-policy.js";
import type { ToolCallContext, ToolNotice } from "../src/tools/tool.js";
import { REPO_ROOT } from "./support/cli.js";
import { startMcpHttpServer, type McpHttpServer } from "./support/mcp-test-server.js";

const SERVER_JS = join(REPO_ROOT, "dist", "test", "support", "mcp-test-server.js");
const context: ToolCallContext = {
  agentId: "alice",
  presenting: false,
  signal: new AbortController().signal,
};

function stdio(name: string, extra: Partial<McpServerConfig> = {}): McpServerConfig {
  return {
    name,
    type: "stdio",
    command: process.execPath,
    args: [SERVER_JS],
    env: {},
    headers: {},
    ...extra,
  };
}

let opened: McpTools[] = [];
let http: McpHttpServer | undefined;
afterEach(async () => {
  await Promise.all(opened.map((tools) => tools.close()));
  opened = [];
  await http?.close();
  http = undefined;
});

async function start(
  servers: McpServerConfig[],
  extra: { allowed?: string[]; exclude?: string[]; env?: Record<string, string> } = {},
): Promise<{ tools: McpTools; notices: ToolNotice[] }> {
  const notices: ToolNotice[] = [];
  const tools = await startMcpServers({
    servers: servers.map((server, index) => ({
      server,
      path: ["agents", 0, "backend", "mcp_servers", index],
    })),
    allowedTools: extra.allowed,
    excludeTools: extra.exclude,
    env: { PATH: process.env.PATH, ...extra.env },
    workspace: "/tmp",
    cwd: "/tmp",
    agentId: "alice",
    notify: (notice) => notices.push(notice),
  });
  opened.push(tools);
  return { tools, notices };
}

function tool(tools: McpTools, name: string) {
  const found = tools.tools.find((entry) => entry.spec.name === name);
  if (!found)
    throw new Error(`no tool ${name} in ${tools.tools.map((t) => t.spec.name).join(", ")}`);
  return found;
}

describe("MCP servers as tools", () => {
  test("stdio: tools named mcp__<server>__<tool>, called with their input; errors are tool errors", async () => {
    const { tools, notices } = await start([stdio("geo")]);
    expect(notices).toEqual([]);
    expect(tools.tools.map((entry) => entry.spec.name).sort()).toEqual([
      "mcp__geo__add",
      "mcp__geo__env",
      "mcp__geo__exit",
      "mcp__geo__fail",
      "mcp__geo__hang",
      "mcp__geo__lookup_capital",
    ]);
    expect(tool(tools, "mcp__geo__lookup_capital").spec.inputSchema).toMatchObject({
      type: "object",
      properties: { country: { type: "string" } },
    });
    expect(
      await tool(tools, "mcp__geo__lookup_capital").execute({ country: "Japan" }, context),
    ).toBe("The capital of Japan is Tokyo.");
    expect(await tool(tools, "mcp__geo__add").execute({ a: 2, b: 40 }, context)).toBe("42");
    await expect(tool(tools, "mcp__geo__fail").execute({}, context)).rejects.toThrow(
      "this tool always fails",
    );
  });

  test("streamable HTTP, with headers from ${VAR} expanded at start", async () => {
    http = await startMcpHttpServer();
    const { tools, notices } = await start(
      [
        {
          name: "remote",
          type: "streamable-http",
          url: http.url,
          args: [],
          env: {},
          headers: { Authorization: "Bearer ${REMOTE_TOKEN}" },
        },
      ],
      { env: { REMOTE_TOKEN: "t-123" } },
    );
    expect(notices).toEqual([]);
    expect(
      await tool(tools, "mcp__remote__lookup_capital").execute({ country: "Kenya" }, context),
    ).toBe("The capital of Kenya is Nairobi.");
    expect(http.headers.some((headers) => headers.authorization === "Bearer t-123")).toBe(true);
  });

  test("a tool call that hangs ends at tool_timeout_seconds as a tool error; the server still serves", async () => {
    http = await startMcpHttpServer();
    const remote: McpServerConfig = {
      name: "remote",
      type: "streamable-http",
      url: http.url,
      args: [],
      env: {},
      headers: {},
      tool_timeout_seconds: 0.3,
    };
    const [{ tools: overHttp }, { tools: overStdio }] = await Promise.all([
      start([remote]),
      start([stdio("geo", { tool_timeout_seconds: 0.3 })]),
    ]);
    for (const [tools, name, server] of [
      [overHttp, "mcp__remote__hang", "remote"],
      [overStdio, "mcp__geo__hang", "geo"],
    ] as const) {
      // The server never answers: only the cancellation at tool_timeout_seconds settles the call.
      const error = await tool(tools, name)
        .execute({}, context)
        .then(
          () => undefined,
          (reason: unknown) => reason,
        );
      expect(error).toBeInstanceOf(ToolError);
      expect((error as Error).message).toBe(
        `hang (MCP server ${server}) did not answer within 0.3 s (tool_timeout_seconds); the call was cancelled. Try other input, or another way.`,
      );
      expect(await tool(tools, name.replace("hang", "add")).execute({ a: 1, b: 2 }, context)).toBe(
        "3",
      );
    }
  });

  test("allowed_tools and exclude_tools, on the server and on the backend", async () => {
    const { tools } = await start(
      [stdio("geo", { allowed_tools: ["lookup_capital", "mcp__geo__add", "fail"] })],
      { exclude: ["mcp__geo__fail"] },
    );
    expect(tools.tools.map((entry) => entry.spec.name).sort()).toEqual([
      "mcp__geo__add",
      "mcp__geo__lookup_capital",
    ]);
    const backendOnly = await start([stdio("geo")], { allowed: ["Read", "mcp__geo__env"] });
    expect(backendOnly.tools.tools.map((entry) => entry.spec.name)).toEqual(["mcp__geo__env"]);
  });

  test("a server that crashes at start, or misses a variable, is a notice; the others run", async () => {
    const { tools, notices } = await start([
      stdio("broken", { args: [SERVER_JS, "--crash-at-start"] }),
      stdio("keyed", { env: { API: "${MISSING_VAR}" } }),
      stdio("geo"),
    ]);
    expect(tools.started).toEqual(["geo"]);
    expect(notices).toHaveLength(2);
    const broken = notices.find((notice) => notice.source === "mcp/broken");
    const keyed = notices.find((notice) => notice.source === "mcp/keyed");
    expect(broken).toMatchObject({ agentId: "alice" });
    expect(broken!.message).toMatch(
      /^MCP server broken \(agents\[0\]\.backend\.mcp_servers\[0\], agent alice\) did not start: .*cannot start \(asked to crash\).*the run goes on without its tools$/,
    );
    expect(keyed!.message).toBe(
      "MCP server keyed (agents[0].backend.mcp_servers[1], agent alice) did not start: environment variable MISSING_VAR is not set (set it in the environment or ~/.config/coord/.env); the run goes on without its tools",
    );
  });

  test("${VAR} and ${cwd} reach a stdio server's environment; a server that dies is reported once", async () => {
    const { tools, notices } = await start(
      [stdio("geo", { env: { GREETING: "${HELLO} from ${cwd}" } })],
      { env: { HELLO: "hi" } },
    );
    expect(await tool(tools, "mcp__geo__env").execute({ name: "GREETING" }, context)).toBe(
      "hi from /tmp",
    );
    expect(await tool(tools, "mcp__geo__env").execute({ name: "PATH" }, context)).not.toBe(
      "(unset)",
    );
    await tool(tools, "mcp__geo__exit").execute({}, context);
    const deadline = Date.now() + 10_000;
    while (notices.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(notices.map((notice) => notice.message)).toEqual([
      "MCP server geo (agents[0].backend.mcp_servers[0], agent alice) stopped during the run; its tools now fail",
    ]);
    await expect(tool(tools, "mcp__geo__add").execute({ a: 1, b: 1 }, context)).rejects.toThrow(
      "MCP server geo is not running: it stopped.",
    );
  });
});
