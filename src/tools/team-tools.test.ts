/**
 * The team's tools built from a config (docs/tools.md "Who gets which tools"): which agent gets
 * which tools and folders, what its system note says, what `claude_code` is confined to, and the
 * context-path checks that fail the config before anything starts.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseConfigText } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { createTeamTools, type TeamTools } from "./team-tools.js";

const context = { presenting: false, signal: new AbortController().signal };

async function build(yaml: string, cwd: string): Promise<TeamTools> {
  const { config } = parseConfigText(yaml, { env: {} });
  return createTeamTools({
    config,
    agentIndexes: config.agents.map((_, index) => index),
    cwd,
    env: { PATH: process.env.PATH, OPENAI_API_KEY: "sk-hidden" },
    runName: "run_t",
  });
}

async function project(): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), "coord-team-"));
  await mkdir(join(cwd, "docs"));
  await writeFile(join(cwd, "docs", "guide.md"), "the guide");
  return cwd;
}

describe("createTeamTools", () => {
  test("tools and folders per agent, and the note each agent gets", async () => {
    const cwd = await project();
    const team = await build(
      `
orchestrator:
  context_paths: [{ path: docs, permission: read }]
agents:
  - id: maker
    backend: { type: scripted, cwd: ws_maker, enable_mcp_command_line: true }
  - id: reader
    backend: { type: scripted }
  - id: coder
    backend: { type: claude_code, model: claude-sonnet-4-5 }
`,
      cwd,
    );
    const [maker, reader, coder] = team.agents;
    const names = (index: number) => team.agents[index]!.tools.map((tool) => tool.spec.name);
    expect(names(0)).toEqual([
      "read_file",
      "write_file",
      "edit_file",
      "list_directory",
      "find_files",
      "search_files",
      "delete_file",
      "execute_command",
    ]);
    // Only a read context path: the reading tools alone.
    expect(names(1)).toEqual(["read_file", "list_directory", "find_files", "search_files"]);
    // claude_code always has a workspace (named by its id) and is confined to its folders.
    const root = join(cwd, ".coord", "workspaces", "run_t");
    expect(coder!.files?.workspace).toBe(join(root, "coder"));
    expect(coder!.files?.readRoots).toEqual([join(root, ".views", "coder"), join(cwd, "docs")]);
    expect(await coder!.files!.refusal(join(cwd, "docs", "guide.md"), "read")).toBeUndefined();
    expect(await coder!.files!.refusal(join(root, "ws_maker", "x"), "read")).toContain(
      "outside the folders you may use",
    );
    expect(await coder!.files!.refusal(join(cwd, "docs", "new.md"), "write")).toContain(
      "read-only",
    );

    expect(maker!.systemNote).toContain(`- Your workspace (read and write;`);
    expect(maker!.systemNote).toContain(join(root, "ws_maker"));
    expect(maker!.systemNote).toContain(`${join(root, ".views", "maker")}/agent3`);
    expect(maker!.systemNote).toContain(`- ${join(cwd, "docs")}: context path, read-only`);
    expect(maker!.systemNote).toContain("execute_command runs shell commands in your workspace.");
    expect(reader!.systemNote).not.toContain("Your workspace");
    expect(reader!.workspace?.snapshot).toBeUndefined();
    expect(maker!.workspace?.snapshot).toBeDefined();

    // Relative paths start in the workspace; the reader's in the first context path.
    const read = (index: number) =>
      team.agents[index]!.tools.find((tool) => tool.spec.name === "read_file")!;
    expect(await read(1).execute({ path: "guide.md" }, { agentId: "reader", ...context })).toBe(
      "the guide",
    );
    // The command tool runs in the workspace without provider keys.
    const command = maker!.tools.find((tool) => tool.spec.name === "execute_command")!;
    const output = await command.execute({ command: "pwd; env" }, { agentId: "maker", ...context });
    expect(output).toContain(join(root, "ws_maker"));
    expect(output).not.toContain("sk-hidden");
    await team.close();
  });

  test("the run logs stay hidden inside a context path", async () => {
    const cwd = await project();
    await mkdir(join(cwd, "agent_outputs"));
    await writeFile(join(cwd, "agent_outputs", "events.jsonl"), "who wrote what");
    const { config } = parseConfigText(
      `
orchestrator:
  context_paths: [{ path: ".", permission: read }]
agents: [{ id: a, backend: { type: scripted } }]
`,
      { env: {} },
    );
    const team = await createTeamTools({
      config,
      agentIndexes: [0],
      cwd,
      env: {},
      runName: "run_h",
      hidden: [join(cwd, "agent_outputs")],
    });
    const tool = (name: string) => team.agents[0]!.tools.find((entry) => entry.spec.name === name)!;
    const call = { agentId: "a", ...context };
    await expect(
      tool("read_file").execute({ path: "agent_outputs/events.jsonl" }, call),
    ).rejects.toThrow("outside the folders you may use");
    expect(await tool("search_files").execute({ pattern: "who wrote" }, call)).toMatch(
      /^No line matches/,
    );
    expect(await tool("read_file").execute({ path: "docs/guide.md" }, call)).toBe("the guide");
    await team.close();
  });

  test("a plain team gets no folders", async () => {
    const cwd = await project();
    const team = await build("agents: [{ id: a, backend: { type: scripted } }]", cwd);
    expect(team.workspaces).toBeUndefined();
    expect(team.agents[0]!.tools).toEqual([]);
    expect(team.agents[0]!.systemNote).toBeUndefined();
  });

  test("a missing context path, or a protected path outside it, is a config error naming the key", async () => {
    const cwd = await project();
    const missing = build(
      `
orchestrator:
  context_paths: [{ path: docs }, { path: nowhere, permission: write }]
agents: [{ id: a, backend: { type: scripted } }]
`,
      cwd,
    );
    await expect(missing).rejects.toThrow(ConfigError);
    await expect(missing).rejects.toThrow(
      `orchestrator.context_paths[1].path: ${join(cwd, "nowhere")} does not exist`,
    );
    await expect(
      build(
        `
orchestrator:
  context_paths: [{ path: docs, protected_paths: [../secrets] }]
agents: [{ id: a, backend: { type: scripted } }]
`,
        cwd,
      ),
    ).rejects.toThrow("orchestrator.context_paths[0].protected_paths[0]: ../secrets is not inside");
  });
});
