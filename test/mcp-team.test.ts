/**
 * MCP servers and the command tool in a real run, through the built CLI: two agents driven by
 * the fake OpenAI server (Chat Completions over a real socket) call the tools of a real MCP server
 * written with the SDK (test/support/mcp-test-server.ts), one over stdio and one over streamable
 * HTTP, and the tool results reach their next prompt; a server that crashes at start is a warning
 * and the run completes; the command tool runs in the agent's workspace without the provider key;
 * `coord logs tools` lists the MCP tools with their times.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, onlyAttemptDir, readLog, REPO_ROOT, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  summarizeRequest,
  type FakeOpenAIServer,
  type FakeReply,
  type FakeRequest,
} from "./support/fake-openai-server.js";
import { startMcpHttpServer, type McpHttpServer } from "./support/mcp-test-server.js";

const SERVER_JS = join(REPO_ROOT, "dist", "test", "support", "mcp-test-server.js");
const API_KEY = "sk-test-secret-4242";

/**
 * In the answer round (only `new_answer` offered): first the agent's tools, one per call, then an
 * answer quoting what they returned; afterwards a well-behaved coordinating agent.
 */
function toolUsingHandler(request: FakeRequest): FakeReply | Promise<FakeReply> {
  const summary = summarizeRequest(request);
  const answering = summary.toolNames.includes("new_answer") && !summary.toolNames.includes("vote");
  if (answering) {
    const steps: [string, Record<string, unknown>, string][] = [
      ["mcp__geo__lookup_capital", { country: "France" }, "The capital of France is Paris."],
      ["mcp__remote__lookup_capital", { country: "Japan" }, "The capital of Japan is Tokyo."],
      ["execute_command", { command: "echo CMD-OK > made.txt; cat made.txt; env" }, "CMD-OK"],
    ];
    for (const [name, args, result] of steps) {
      if (summary.toolNames.includes(name) && !summary.text.includes(result))
        return { toolCalls: [{ name, arguments: args }] };
    }
  }
  // What the agent's own tool results said (Chat Completions `tool` messages).
  const results = (Array.isArray(request.body.messages) ? request.body.messages : [])
    .filter((message: { role?: unknown }) => message.role === "tool")
    .map((message: { content?: unknown }) => String(message.content))
    .join("\n");
  return coordinationHandler({
    answer: () =>
      ["Paris", "Tokyo", "CMD-OK", API_KEY]
        .filter((word) => results.includes(word))
        .map((word) => `saw ${word}`)
        .join(", ") || "saw nothing",
    finalAnswer: "Final: the tools answered.",
  })(request);
}

let server: FakeOpenAIServer | undefined;
let http: McpHttpServer | undefined;
afterEach(async () => {
  await server?.close();
  await http?.close();
  server = undefined;
  http = undefined;
});

describe("MCP servers and the command tool in a run", () => {
  test(
    "stdio and streamable-HTTP MCP tools and a command reach the next prompt; a crashed server is a warning",
    { timeout: 90_000 },
    async () => {
      server = await startFakeOpenAIServer(toolUsingHandler);
      http = await startMcpHttpServer();
      const sandbox = await makeSandbox();
      await writeFile(
        join(sandbox.cwd, "team.yaml"),
        `
agents:
  - id: local_geo
    backend:
      type: chatcompletion
      model: geo-model
      base_url: "${server.url}"
      api_key: ${API_KEY}
      cwd: ws_geo
      enable_mcp_command_line: true
      command_line_blocked_commands: ["^rm "]
      command_env: [GREETING]
      mcp_servers:
        - { name: geo, type: stdio, command: "${process.execPath}", args: ["${SERVER_JS}"] }
        - { name: broken, type: stdio, command: "${process.execPath}", args: ["${SERVER_JS}", "--crash-at-start"] }
  - id: remote_geo
    backend:
      type: chatcompletion
      model: geo-model
      base_url: "${server.url}"
      api_key: ${API_KEY}
      mcp_servers:
        remote:
          type: streamable-http
          url: "${http.url}"
          headers: { Authorization: "Bearer \${REMOTE_TOKEN}" }
`,
      );
      const result = await runCli(["--config", "team.yaml", "--no-display", "Capitals?"], {
        ...sandbox,
        env: {
          REMOTE_TOKEN: "token-77",
          OPENAI_API_KEY: "sk-env-secret-99",
          GREETING: "hello-env",
        },
        timeoutMs: 80_000,
      });
      expect(result.stderr).toContain("Warning from mcp/broken: MCP server broken");
      expect(result.stdout).toBe("Final: the tools answered.\n");
      expect(result.code).toBe(0);

      const attempt = await onlyAttemptDir(sandbox.cwd);
      const events = (await readLog(attempt, "events.jsonl"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const answers: Record<string, unknown> = Object.fromEntries(
        events
          .filter((event) => event.type === "answer")
          .map((event) => [String(event.agentId), event.content]),
      );
      // Each agent's tool results reached its next prompt; the command saw no provider key.
      expect(answers).toEqual({ local_geo: "saw Paris, saw CMD-OK", remote_geo: "saw Tokyo" });
      const command = events.find(
        (event) => event.type === "tool-result" && event.toolName === "execute_command",
      );
      expect(command).toMatchObject({ agentId: "local_geo", isError: false });
      expect(String(command!.output)).toContain("CMD-OK");
      expect(String(command!.output)).toContain("GREETING=hello-env");
      expect(String(command!.output)).not.toContain("token-77");
      expect(String(command!.output)).not.toContain(API_KEY);
      expect(String(command!.output)).not.toContain("sk-env-secret-99");
      expect(http.headers.some((headers) => headers.authorization === "Bearer token-77")).toBe(
        true,
      );
      // The crashed server: one warning for its agent, before any answer.
      const warnings = events.filter((event) => event.type === "warning");
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ agentId: "local_geo", source: "mcp/broken" });

      const tools = await runCli(["logs", "tools", "--json"], sandbox);
      const rows = (
        JSON.parse(tools.stdout) as { tools: { name: string; calls: number; total_ms: number }[] }
      ).tools;
      const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
      for (const name of [
        "mcp__geo__lookup_capital",
        "mcp__remote__lookup_capital",
        "execute_command",
      ]) {
        expect(byName[name]).toMatchObject({ calls: 1 });
        expect(byName[name]!.total_ms).toBeGreaterThan(0);
      }
    },
  );
});
