/**
 * A `claude_code` agent in a run with tools (docs/tools.md "Backends"), through the built CLI and
 * the real Claude Code CLI against the fake Anthropic server: it works in its own workspace, its
 * own file tools reach the workspace and a read context path and nothing else (a PreToolUse hook
 * judges every call with coord's path policy), the shell is not offered, and coord's file tools
 * are offered next to its own as `mcp__coord__…`.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import {
  startFakeAnthropicServer,
  summarizeRequest,
  type FakeAnthropicServer,
  type FakeReply,
  type FakeRequest,
} from "./support/fake-anthropic-server.js";

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The agent's workspace, as its system prompt names it. */
function workspaceOf(system: string): string {
  const match = /Your workspace \([^)]*\): (\S+)/.exec(system);
  if (!match) throw new Error(`no workspace in the system prompt:\n${system}`);
  return match[1]!;
}

describe("claude_code with a workspace and context paths", () => {
  test(
    "its own tools are confined to its folders; outside reads and writes to read paths are refused",
    { timeout: 90_000 },
    async () => {
      const sandbox = await makeSandbox();
      const outside = join(dirname(sandbox.cwd), "secret.txt");
      await writeFile(outside, "TOP-SECRET-VALUE");
      const project = join(sandbox.cwd, "project");
      await mkdir(project);
      await writeFile(join(project, "readme.txt"), "PROJECT-README-TEXT");

      const steps: ((workspace: string) => FakeReply)[] = [
        () => ({ toolCalls: [{ name: "Read", arguments: { file_path: outside } }] }),
        () => ({
          toolCalls: [{ name: "Read", arguments: { file_path: join(project, "readme.txt") } }],
        }),
        (workspace) => ({
          toolCalls: [
            {
              name: "Write",
              arguments: { file_path: join(workspace, "out.md"), content: "written by claude" },
            },
          ],
        }),
        () => ({
          toolCalls: [
            {
              name: "Write",
              arguments: { file_path: join(project, "readme.txt"), content: "overwritten" },
            },
          ],
        }),
        () => ({
          toolCalls: [{ name: "mcp__coord__new_answer", arguments: { content: "All done." } }],
        }),
      ];
      const answering: FakeRequest[] = [];
      server = await startFakeAnthropicServer((request) => {
        const summary = summarizeRequest(request);
        if (!summary.toolNames.includes("mcp__coord__new_answer")) return { text: "ok" };
        answering.push(request);
        const step = steps[answering.length - 1];
        if (step === undefined) return { text: "no step left" };
        // Each call its own id: Claude Code keeps one conversation across them.
        const reply = step(workspaceOf(summary.system));
        return {
          ...reply,
          toolCalls: reply.toolCalls?.map((call) => ({
            ...call,
            id: `toolu_step${answering.length}`,
          })),
        };
      });
      await writeFile(
        join(sandbox.cwd, "team.yaml"),
        `
orchestrator:
  context_paths: [{ path: project, permission: read }]
agents:
  - id: coder
    backend: { type: claude_code, model: claude-sonnet-4-5, cwd: code_ws }
`,
      );
      const result = await runCli(["--config", "team.yaml", "--no-display", "Do the task"], {
        ...sandbox,
        env: {
          ANTHROPIC_API_KEY: "sk-ant-test-123",
          ANTHROPIC_BASE_URL: server.origin,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_ERROR_REPORTING: "1",
        },
        timeoutMs: 85_000,
      });
      expect(result.stdout).toBe("All done.\n");
      expect(result.code).toBe(0);

      const summaries = answering.map(summarizeRequest);
      expect(summaries).toHaveLength(5);
      const workspace = workspaceOf(summaries[0]!.system);
      expect(workspace).toBe(
        join(
          sandbox.cwd,
          ".coord",
          "workspaces",
          (await readdir(join(sandbox.cwd, ".coord", "workspaces")))[0]!,
          "code_ws",
        ),
      );
      // Claude Code runs in the workspace; no shell; coord's file tools are offered too.
      expect(summaries[0]!.toolNames).not.toContain("Bash");
      expect(summaries[0]!.toolNames).toContain("Read");
      expect(summaries[0]!.toolNames).toContain("mcp__coord__read_file");
      // The outside read was refused and its content never reached the model.
      expect(summaries[1]!.text).toContain("outside the folders you may use");
      for (const summary of summaries) expect(summary.text).not.toContain("TOP-SECRET-VALUE");
      // The read context path is readable.
      expect(summaries[2]!.text).toContain("PROJECT-README-TEXT");
      // The workspace is writable without asking; the read context path is not.
      expect(await readFile(join(workspace, "out.md"), "utf8")).toBe("written by claude");
      expect(summaries[4]!.text).toContain("is read-only");
      expect(await readFile(join(project, "readme.txt"), "utf8")).toBe("PROJECT-README-TEXT");
    },
  );
});
