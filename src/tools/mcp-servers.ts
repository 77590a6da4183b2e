/**
 * MCP servers as tools (docs/tools.md "MCP servers"), through the official
 * `@modelcontextprotocol/sdk` client: MassGen's `mcp_servers` entries (`stdio` with
 * command/args/env/cwd, `streamable-http` with url/headers), their tools offered to the model as
 * `mcp__<server>__<tool>` after the `allowed_tools` / `exclude_tools` filters.
 *
 * `${VAR}` (and MassGen's `${cwd}`, the agent's workspace) inside an entry expands when the server
 * starts: a missing variable fails that server only. A server that fails to start, or dies later,
 * is reported as a notice (a `warning` event) and the run goes on without it. Each tool call is
 * bounded by the server's `tool_timeout_seconds` (default {@link MCP_CALL_TIMEOUT_MS}): a call
 * that hangs is cancelled and becomes a tool error the model sees. {@link McpTools.close}
 * closes every server (at run end).
 */
import { isAbsolute, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { expandEnv, formatKeyPath, type KeyPath, type McpServerConfig } from "../config/index.js";
import { ToolError } from "./path-policy.js";
import type { LocalTool, ToolNotice } from "./tool.js";

/** How long a server may take to start and list its tools (ms). */
export const MCP_START_TIMEOUT_MS = 30_000;
/**
 * How long one tool call may take (ms), progress or not, unless the server's
 * `tool_timeout_seconds` says otherwise: then it is cancelled and the model gets a tool error.
 */
export const MCP_CALL_TIMEOUT_MS = 120_000;
/** Longest tool name the providers accept. */
const MAX_TOOL_NAME = 64;

/** Options of {@link startMcpServers}. */
export interface StartMcpOptions {
  /** The agent's servers with their config paths (`agents[0].backend.mcp_servers[1]`). */
  servers: readonly { server: McpServerConfig; path: KeyPath }[];
  /** `backend.allowed_tools` / `backend.exclude_tools` (only `mcp__…` names apply here). */
  allowedTools?: readonly string[] | undefined;
  excludeTools?: readonly string[] | undefined;
  /** Variables for `${VAR}` (coord's environment with ~/.config/coord/.env). */
  env: Readonly<Record<string, string | undefined>>;
  /** `${cwd}` and a server's default working directory: the agent's workspace, else coord's. */
  workspace: string;
  /** What relative `cwd:` entries resolve against (coord's working directory). */
  cwd: string;
  agentId: string;
  notify: (notice: ToolNotice) => void;
  /** Default {@link MCP_START_TIMEOUT_MS}. */
  startTimeoutMs?: number;
}

/** The started servers' tools. */
export interface McpTools {
  tools: LocalTool[];
  /** Names of the servers that started. */
  started: string[];
  close: () => Promise<void>;
}

/** `mcp__<server>__<tool>`, with characters the providers refuse replaced by `_`. */
export function mcpToolName(server: string, tool: string): string {
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]/g, "_");
  return `mcp__${safe(server)}__${safe(tool)}`.slice(0, MAX_TOOL_NAME);
}

/**
 * Starts every server at once; never throws for a server that fails (a notice says why).
 */
export async function startMcpServers(options: StartMcpOptions): Promise<McpTools> {
  const started = await Promise.all(
    options.servers.map(({ server, path }) => startOne(server, path, options)),
  );
  const running = started.filter((entry) => entry !== undefined);
  const taken = new Set<string>();
  const tools: LocalTool[] = [];
  for (const entry of running) {
    for (const tool of entry.tools) {
      if (taken.has(tool.spec.name)) continue;
      taken.add(tool.spec.name);
      tools.push(tool);
    }
  }
  return {
    tools,
    started: running.map((entry) => entry.name),
    close: async () => {
      await Promise.allSettled(running.map((entry) => entry.close()));
    },
  };
}

interface Started {
  name: string;
  tools: LocalTool[];
  close(): Promise<void>;
}

/** `${VAR}` / `${cwd}` in every string of the entry. @throws Error naming the missing variable. */
function expandServer(server: McpServerConfig, options: StartMcpOptions): McpServerConfig {
  const variables = { ...options.env, cwd: options.workspace };
  return expandEnv(server, variables, (_path, variable) => {
    throw new Error(
      `environment variable ${variable} is not set (set it in the environment or ~/.config/coord/.env)`,
    );
  }) as McpServerConfig;
}

async function startOne(
  raw: McpServerConfig,
  path: KeyPath,
  options: StartMcpOptions,
): Promise<Started | undefined> {
  const name = raw.name;
  const where = `${formatKeyPath(path)}, agent ${options.agentId}`;
  const fail = (why: string) => {
    options.notify({
      agentId: options.agentId,
      source: `mcp/${name}`,
      message: `MCP server ${name} (${where}) did not start: ${why}; the run goes on without its tools`,
    });
    return undefined;
  };
  let server: McpServerConfig;
  try {
    server = expandServer(raw, options);
  } catch (error) {
    return fail((error as Error).message);
  }
  let stderr = "";
  let transport: Transport;
  if (server.type === "stdio") {
    const stdio = new StdioClientTransport({
      command: server.command!,
      args: server.args,
      env: { ...getDefaultEnvironment(), ...server.env },
      cwd: server.cwd
        ? isAbsolute(server.cwd)
          ? server.cwd
          : resolve(options.cwd, server.cwd)
        : options.workspace,
      stderr: "pipe",
    });
    stdio.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-2000);
    });
    transport = stdio;
  } else {
    let url: URL;
    try {
      url = new URL(server.url!);
    } catch {
      return fail(`${server.url} is not a URL`);
    }
    transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: server.headers },
    });
  }
  const lastWords = () => {
    const text = stderr.trim().split("\n").at(-1)?.trim();
    return text ? ` (its last words: ${text})` : "";
  };

  const client = new Client({ name: "coord", version: "1" });
  let connected = false;
  let closing = false;
  let stopped: string | undefined;
  client.onclose = () => {
    if (!connected || closing || stopped !== undefined) return;
    stopped = `it stopped${lastWords()}`;
    options.notify({
      agentId: options.agentId,
      source: `mcp/${name}`,
      message: `MCP server ${name} (${where}) stopped during the run${lastWords()}; its tools now fail`,
    });
  };
  const timeout = options.startTimeoutMs ?? MCP_START_TIMEOUT_MS;
  let listed;
  try {
    await client.connect(transport, { timeout });
    listed = await listAllTools(client, timeout);
    connected = true;
  } catch (error) {
    closing = true;
    await client.close().catch(() => undefined);
    return fail(`${(error as Error).message}${lastWords()}`);
  }

  const callTimeoutMs =
    raw.tool_timeout_seconds === undefined
      ? MCP_CALL_TIMEOUT_MS
      : Math.round(raw.tool_timeout_seconds * 1000);
  const tools = listed
    .filter((tool) => keepTool(name, tool.name, raw, options))
    .map((tool): LocalTool => ({
      spec: {
        name: mcpToolName(name, tool.name),
        description: tool.description ?? `${tool.name} (MCP server ${name})`,
        inputSchema: tool.inputSchema,
      },
      async execute(input, context) {
        if (stopped !== undefined) {
          throw new ToolError(`MCP server ${name} is not running: ${stopped}.`);
        }
        const result = await client
          .callTool(
            {
              name: tool.name,
              arguments: (input ?? {}) as Record<string, unknown>,
            },
            undefined,
            { signal: context.signal, timeout: callTimeoutMs, maxTotalTimeout: callTimeoutMs },
          )
          .catch((error: unknown) => {
            if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) {
              throw new ToolError(
                `${tool.name} (MCP server ${name}) did not answer within ${callTimeoutMs / 1000} s (tool_timeout_seconds); the call was cancelled. Try other input, or another way.`,
              );
            }
            throw error;
          });
        const text = resultText(result);
        if (result.isError === true) throw new ToolError(text || `${tool.name} failed`);
        return text;
      },
    }));
  return {
    name,
    tools,
    close: async () => {
      closing = true;
      await client.close();
    },
  };
}

async function listAllTools(client: Client, timeout: number) {
  const tools = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** Whether a server's tool passes the server's and the backend's filters. */
function keepTool(
  server: string,
  tool: string,
  config: McpServerConfig,
  options: StartMcpOptions,
): boolean {
  const full = mcpToolName(server, tool);
  const names = (list: string | readonly string[] | undefined) =>
    list === undefined
      ? undefined
      : typeof list === "string"
        ? list.split(",").map((entry) => entry.trim())
        : list;
  const matches = (list: readonly string[]) => list.includes(tool) || list.includes(full);
  const serverAllowed = names(config.allowed_tools);
  if (serverAllowed !== undefined && !matches(serverAllowed)) return false;
  if (config.exclude_tools !== undefined && matches(config.exclude_tools)) return false;
  // Backend-level lists name tools fully; for claude_code they also hold its own tools (Read, …).
  const backendAllowed = options.allowedTools?.filter((entry) => entry.startsWith("mcp__"));
  if (backendAllowed !== undefined && backendAllowed.length > 0 && !backendAllowed.includes(full))
    return false;
  return !(options.excludeTools ?? []).includes(full);
}

/** The text of a tool result: text parts joined; other parts described. */
function resultText(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const parts = content.map((part) => {
    if (typeof part !== "object" || part === null) return "";
    const item = part as {
      type?: string;
      text?: string;
      mimeType?: string;
      resource?: { uri?: string; text?: string };
    };
    switch (item.type) {
      case "text":
        return item.text ?? "";
      case "resource":
        return item.resource?.text ?? `[resource ${item.resource?.uri ?? ""}]`;
      default:
        return `[${item.type ?? "content"}${item.mimeType ? ` ${item.mimeType}` : ""}]`;
    }
  });
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.filter((part) => part !== "").join("\n");
}
