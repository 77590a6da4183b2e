/**
 * The run's workspaces (docs/tools.md "Workspaces"): a run folder per run (never shared), each
 * agent's workspace, snapshots into the snapshot store (MassGen's `snapshot_storage`) and the run
 * log, views of the others' latest snapshots under their anonymous ids (MassGen's
 * `agent_temporary_workspace`), removed at the end.
 */
import { mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { ToolNotice } from "./tool.js";
import { createRunWorkspaces, workspaceFolderName } from "./workspaces.js";

const AGENTS = [
  { id: "alice", anonId: "agent1", workspaceName: "ws_a" },
  { id: "bob", anonId: "agent2", workspaceName: "./ws_b/" },
  { id: "carol", anonId: "agent3" },
];

async function cwd(): Promise<string> {
  return mkdtemp(join(tmpdir(), "coord-ws-"));
}

describe("createRunWorkspaces", () => {
  test("two runs with the same name get their own folders", async () => {
    const dir = await cwd();
    const notify = () => undefined;
    const first = await createRunWorkspaces({ cwd: dir, runName: "run_x", agents: AGENTS, notify });
    const second = await createRunWorkspaces({
      cwd: dir,
      runName: "run_x",
      agents: AGENTS,
      notify,
    });
    expect(first.root).toBe(join(dir, ".coord", "workspaces", "run_x"));
    expect(second.root).toBe(join(dir, ".coord", "workspaces", "run_x_2"));
    expect(first.workspaceOf("alice")).toBe(join(first.root, "ws_a"));
    expect(first.workspaceOf("bob")).toBe(join(first.root, "ws_b"));
    expect(first.workspaceOf("carol")).toBeUndefined();
    expect(workspaceFolderName(" ./ws/ ")).toBe("ws");
  });

  test("snapshots go to the store and the log; views hold the others' latest, by anonymous id", async () => {
    const dir = await cwd();
    const notices: ToolNotice[] = [];
    const run = await createRunWorkspaces({
      cwd: dir,
      runName: "run_y",
      agents: AGENTS,
      snapshotStorage: "store",
      temporaryWorkspace: "tmp_views",
      notify: (notice) => notices.push(notice),
    });
    const log = join(dir, "log");
    run.attachLog(log);
    const alice = run.workspaceOf("alice")!;
    await writeFile(join(alice, "a.md"), "first");
    await symlink("/etc/passwd", join(alice, "link"));
    expect(await run.hooksFor("alice").snapshot!("agent1.1")).toEqual({
      workspace: alice,
      files: 2,
      bytes: 5,
      logPath: join("alice", "snapshots", "agent1.1"),
    });
    await writeFile(join(alice, "a.md"), "second");
    await run.hooksFor("alice").snapshot!("agent1.2");

    // The store keeps the latest; the log every one; links are copied as links.
    expect(await readFile(join(dir, "store", "run_y", "alice", "a.md"), "utf8")).toBe("second");
    expect(await readFile(join(log, "alice", "snapshots", "agent1.1", "a.md"), "utf8")).toBe(
      "first",
    );
    expect(await readFile(join(log, "alice", "snapshots", "agent1.2", "a.md"), "utf8")).toBe(
      "second",
    );

    // Carol has no workspace but sees the others; nobody sees itself.
    expect(run.hooksFor("carol").snapshot).toBeUndefined();
    await run.hooksFor("carol").refreshView();
    await run.hooksFor("alice").refreshView();
    const carolView = run.viewOf("carol");
    expect(carolView).toBe(join(dir, "tmp_views", "run_y", "carol"));
    expect(await readdir(carolView)).toEqual(["agent1"]);
    expect(await readFile(join(carolView, "agent1", "a.md"), "utf8")).toBe("second");
    expect(await readdir(run.viewOf("alice"))).toEqual([]);
    expect(run.hiddenRoots()).toEqual([
      join(dir, "store", "run_y"),
      join(dir, "tmp_views", "run_y"),
    ]);

    await run.close();
    await expect(readdir(join(dir, "tmp_views", "run_y"))).rejects.toThrow(/ENOENT/);
    expect(await readdir(alice)).toEqual(["a.md", "link"]);
    expect(notices).toEqual([]);
  });

  test("a snapshot that cannot be copied is a notice, not a failure", async () => {
    const dir = await cwd();
    const notices: ToolNotice[] = [];
    const run = await createRunWorkspaces({
      cwd: dir,
      runName: "run_z",
      agents: AGENTS,
      notify: (notice) => notices.push(notice),
    });
    run.attachLog(join(dir, "log-file"));
    await writeFile(join(dir, "log-file"), "not a folder");
    await writeFile(join(run.workspaceOf("bob")!, "b.md"), "b");
    expect(await run.hooksFor("bob").snapshot!("agent2.1")).toBeUndefined();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ agentId: "bob", source: "workspace" });
    expect(notices[0]!.message).toMatch(/^snapshot agent2\.1 of .*ws_b failed: /);
    await run.remove();
    expect(await readdir(join(dir, ".coord", "workspaces"))).toEqual([]);
  });
});
