/**
 * An MCP tool call that hangs does not hang the run, through the
 * built CLI: a scripted agent calls `hang` of a real MCP server (test/support/mcp-test-server.ts
 * over stdio), which never answers; after the server's `tool_timeout_seconds` the call is
 * cancelled, the agent's next prompt holds the tool error, and the run completes (exit 0).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, onlyAttemptDir, readLog, REPO_ROOT, runCli } from "./support/cli.js";

const SERVER_JS = join(REPO_ROOT, "dist", "test", "support", "mcp-test-server.js");

describe("an MCP tool call that hangs", () => {
  test("ends at tool_timeout_seconds as a tool error the model sees; the run completes", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      `agents:
  - id: solo
    backend:
      type: scripted
      mcp_servers:
        - name: slow
          type: stdio
          command: ${JSON.stringify(process.execPath)}
          args: [${JSON.stringify(SERVER_JS)}]
          tool_timeout_seconds: 0.5
      steps:
        - tool_calls:
            - name: mcp__slow__hang
              input: {}
        - expect_prompt_contains: "hang (MCP server slow) did not answer within 0.5 s (tool_timeout_seconds)"
          answer: "The slow tool did not answer."
        - vote: agent1
          reason: ok
        - text: "The slow tool did not answer."
ui:
  display_type: simple
`,
    );
    const result = await runCli(["--config", "team.yaml", "--no-display", "Use the slow tool"], {
      ...sandbox,
      timeoutMs: 60_000,
    });
    expect(result.code, result.stderr).toBe(0);
    // The call never answers: only the cancellation at tool_timeout_seconds lets the run complete
    // (the scripted agent checked its prompt holds that tool error).
    expect(result.stdout).toContain("The slow tool did not answer.");
    const events = (await readLog(await onlyAttemptDir(sandbox.cwd), "events.jsonl"))
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            type: string;
            toolName?: string;
            isError?: boolean;
            output?: string;
          },
      );
    const hung = events.find(
      (event) => event.type === "tool-result" && event.toolName === "mcp__slow__hang",
    );
    expect(hung).toMatchObject({
      isError: true,
      output:
        "hang (MCP server slow) did not answer within 0.5 s (tool_timeout_seconds); the call was cancelled. Try other input, or another way.",
    });
  });
});
