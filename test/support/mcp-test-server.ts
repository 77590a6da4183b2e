/**
 * A real MCP server written with the official SDK, for tests of coord's MCP client: tools
 * `lookup_capital {country}` (a small table), `add {a, b}`, `fail {}` (an error result), `env {name}`
 * (reads an environment variable), `hang {}` (never answers) and `exit {}` (the process dies
 * mid-run).
 *
 * - `node dist/test/support/mcp-test-server.js` serves over stdio; `--crash-at-start` exits at
 *   once with a message on stderr (a server that fails to start).
 * - {@link startMcpHttpServer} serves the same tools over streamable HTTP on 127.0.0.1 (stateless:
 *   one server and transport per request, as the SDK's examples do).
 *
 * Imports nothing from vitest: it is built into dist/ and run as a child process.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const CAPITALS: Record<string, string> = {
  france: "Paris",
  japan: "Tokyo",
  kenya: "Nairobi",
};

/** The test server with its tools. */
export function createTestMcpServer(): McpServer {
  const server = new McpServer({ name: "coord-test", version: "1.0.0" });
  server.registerTool(
    "lookup_capital",
    {
      description: "The capital city of a country.",
      inputSchema: { country: z.string().describe("Country name, e.g. France.") },
    },
    ({ country }) => {
      const capital = CAPITALS[country.trim().toLowerCase()];
      return capital === undefined
        ? { content: [{ type: "text", text: `No capital known for ${country}.` }], isError: true }
        : { content: [{ type: "text", text: `The capital of ${country} is ${capital}.` }] };
    },
  );
  server.registerTool(
    "add",
    { description: "Add two numbers.", inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  );
  server.registerTool("fail", { description: "Always fails." }, () => ({
    content: [{ type: "text", text: "this tool always fails" }],
    isError: true,
  }));
  server.registerTool(
    "env",
    { description: "An environment variable's value.", inputSchema: { name: z.string() } },
    ({ name }) => ({ content: [{ type: "text", text: process.env[name] ?? "(unset)" }] }),
  );
  server.registerTool(
    "hang",
    { description: "Never answers (a tool call that hangs)." },
    () => new Promise<never>(() => undefined),
  );
  server.registerTool("exit", { description: "Stops the server process." }, () => {
    setTimeout(() => process.exit(7), 10);
    return { content: [{ type: "text", text: "exiting" }] };
  });
  return server;
}

/** A running HTTP MCP server. */
export interface McpHttpServer {
  /** The MCP endpoint, e.g. `http://127.0.0.1:40123/mcp`. */
  url: string;
  /** Headers of every request received, in order. */
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

/** Serves the test tools over streamable HTTP at `/mcp` on 127.0.0.1 (a free port). */
export async function startMcpHttpServer(): Promise<McpHttpServer> {
  const headers: McpHttpServer["headers"] = [];
  const http: Server = createServer((request, response) => {
    headers.push(request.headers);
    if (request.url !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    const server = createTestMcpServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    void server
      .connect(transport)
      .then(() => transport.handleRequest(request, response))
      .catch(() => response.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    headers,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

async function main(): Promise<void> {
  if (process.argv.includes("--crash-at-start")) {
    process.stderr.write("coord-test MCP server: cannot start (asked to crash)\n");
    process.exit(3);
  }
  await createTestMcpServer().connect(new StdioServerTransport());
}

if (process.argv[1]?.endsWith("mcp-test-server.js")) void main();
