/**
 * Agents that act, through the built CLI (docs/tools.md): a scripted team with workspaces and a
 * `write` context path. An agent writes in its workspace; the other reads that agent's snapshot
 * through its read-only view; a non-presenter's write to the context path is refused with an
 * error the model sees; the presenter writes there; the run log keeps every snapshot; `coord logs
 * tools` shows the file tools with real times. Also: a context path that does not exist is a
 * config error naming the key, and a run with a missing backend key leaves no workspace behind.
 */
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";

/** The team: alice drafts in her workspace and presents; bob reads her snapshot and votes. */
function teamYaml(project: string): string {
  return `
orchestrator:
  defer_voting_until_all_answered: true
  context_paths:
    - path: project
      permission: write
      protected_paths: [keep.txt]
agents:
  - id: alice
    backend:
      type: scripted
      cwd: ws_alice
      steps:
        - tool_calls: [{ name: write_file, input: { path: notes.md, content: "alice draft: the plan" } }]
        - answer: "The plan is in notes.md."
        - vote: agent1
          reason: "Mine has the file."
        - tool_calls:
            - { name: write_file, input: { path: ${project}/keep.txt, content: "overwritten" } }
            - { name: write_file, input: { path: ${project}/report.md, content: "final report" } }
        - text: "Final: report written."
          expect_prompt_contains: "is protected"
  - id: bob
    backend:
      type: scripted
      cwd: ws_bob
      steps:
        - answer: "I would write a plan."
        - tool_calls: [{ name: search_files, input: { pattern: "alice draft" } }]
        - tool_calls: [{ name: write_file, input: { path: ${project}/bob.md, content: "bob" } }]
          expect_prompt_contains: "agent1/notes.md:1: alice draft: the plan"
        - vote: agent1
          reason: "agent1 wrote the plan."
          expect_prompt_contains: "only the agent presenting the final answer may write"
`;
}

describe("a scripted team with workspaces and a write context path", () => {
  test(
    "snapshots are shared read-only, only the presenter writes to the context path, the log keeps every snapshot",
    { timeout: 60_000 },
    async () => {
      const sandbox = await makeSandbox();
      const project = join(sandbox.cwd, "project");
      await mkdir(project);
      await writeFile(join(project, "keep.txt"), "original");
      await writeFile(join(sandbox.cwd, "team.yaml"), teamYaml(project));

      const result = await runCli(["--config", "team.yaml", "--no-display", "Write the report"], {
        ...sandbox,
      });
      expect(result.stderr).toContain("[bob] Tool result: search_files");
      expect(result.stderr).toMatch(
        /\[system\] Workspace: \.coord\/workspaces\/run_\d{8}_\d{6}\/ws_alice \(alice's, the run's result\)\n/,
      );
      expect(result.stdout).toBe("Final: report written.\n");
      expect(result.code).toBe(0);

      // The context path: the presenter's file written, bob's refused, the protected one intact.
      expect((await readdir(project)).sort()).toEqual(["keep.txt", "report.md"]);
      expect(await readFile(join(project, "report.md"), "utf8")).toBe("final report");
      expect(await readFile(join(project, "keep.txt"), "utf8")).toBe("original");

      // The workspaces: one run folder, each agent's own; the views are gone after the run.
      const runs = await readdir(join(sandbox.cwd, ".coord", "workspaces"));
      expect(runs).toHaveLength(1);
      const run = join(sandbox.cwd, ".coord", "workspaces", runs[0]!);
      expect((await readdir(run)).sort()).toEqual([".snapshots", "ws_alice", "ws_bob"]);
      expect(await readFile(join(run, "ws_alice", "notes.md"), "utf8")).toBe(
        "alice draft: the plan",
      );

      // The run log keeps every snapshot under the agent's folder, the final one included.
      const attempt = await onlyAttemptDir(sandbox.cwd);
      expect((await readdir(join(attempt, "alice", "snapshots"))).sort()).toEqual([
        "agent1.1",
        "agent1.final",
      ]);
      expect(await readLog(attempt, "alice/snapshots/agent1.1/notes.md")).toBe(
        "alice draft: the plan",
      );
      expect(await readdir(join(attempt, "bob", "snapshots"))).toEqual(["agent2.1"]);
      const events = (await readLog(attempt, "events.jsonl"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const snapshots = events.filter((event) => event.type === "workspace-snapshot");
      expect(snapshots.map((event) => [event.agentId, event.label, event.files])).toEqual([
        ["bob", "agent2.1", 0],
        ["alice", "agent1.1", 1],
        ["alice", "agent1.final", 1],
      ]);
      expect(snapshots.at(-1)).toMatchObject({
        workspace: join(run, "ws_alice"),
        logPath: join("alice", "snapshots", "agent1.final"),
      });
      const results = events.filter(
        (event) =>
          event.type === "tool-result" && String(event.toolName).match(/^(write|search)_file/),
      );
      const refused = results.filter((event) => event.isError === true);
      expect(refused.map((event) => [event.agentId, event.toolName])).toEqual([
        ["bob", "write_file"],
        ["alice", "write_file"],
      ]);
      expect(results).toHaveLength(5);
      for (const event of results) expect(event.durationMs).toBeGreaterThan(0);

      // coord logs tools: the file tools with their real times.
      const tools = await runCli(["logs", "tools", "--json"], sandbox);
      expect(tools.code).toBe(0);
      const rows = (
        JSON.parse(tools.stdout) as { tools: { name: string; calls: number; total_ms: number }[] }
      ).tools;
      const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
      expect(byName.write_file).toMatchObject({ calls: 4 });
      expect(byName.search_files).toMatchObject({ calls: 1 });
      expect(byName.write_file!.total_ms).toBeGreaterThan(0);
      expect(byName.search_files!.total_ms).toBeGreaterThan(0);
    },
  );

  test("@examples/scripted_tools runs: the reviewer finds the writer's plan in its view", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["--config", "@examples/scripted_tools", "Plan the release"], {
      ...sandbox,
    });
    expect(result.stdout).toContain("Release plan: 1. Freeze the branch.");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/\[writer\] Workspace snapshot agent1\.final: 1 file, 77 bytes/);
    const attempt = await onlyAttemptDir(sandbox.cwd);
    expect(await readLog(attempt, "writer/snapshots/agent1.final/plan.md")).toContain(
      "3. Tag and publish.",
    );
  });

  test("a context path that does not exist is a config error naming the key; nothing is created", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      `
orchestrator:
  context_paths: [{ path: missing, permission: read }]
agents:
  - id: solo
    backend: { type: scripted, steps: [{ answer: "A" }] }
`,
    );
    const result = await runCli(["--config", "team.yaml", "--no-display", "Q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("orchestrator.context_paths[0].path");
    expect(result.stderr).toContain(join(sandbox.cwd, "missing"));
    expect(await readdir(sandbox.cwd)).toEqual(["team.yaml"]);
  });

  test("a backend that cannot start leaves no workspace behind", async () => {
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      `
agents:
  - id: solo
    backend: { type: openai, model: gpt-4o-mini, cwd: ws }
`,
    );
    const result = await runCli(["--config", "team.yaml", "--no-display", "Q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("OPENAI_API_KEY");
    expect(await readdir(join(sandbox.cwd, ".coord", "workspaces"))).toEqual([]);
  });
});
