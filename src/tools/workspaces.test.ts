/**
 * The run's workspaces (docs/tools.md "Workspaces"): a run folder per run (never shared), each
 * agent's workspace, snapshots into the snapshot store (MassGen's `snapshot_storage`) and the run
 * log, views of the others' latest snapshots under their anonymous ids (MassGen's
 * `agent_temporary_workspace`), removed at the end.
 */
import { execFileSync } from "node:child_process";
import {
  lstat,
  mkdir,
  mkdtemp,
  open,
  readdir,
  readFile,
  stat,
  symlink,
  truncate,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { ToolNotice } from "./tool.js";
import { copyTree } from "../copy-tree.js";
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

  test("a workspace with a FIFO and sparse files is snapshotted: FIFO and huge file skipped, holes kept", async () => {
    const dir = await cwd();
    const notices: ToolNotice[] = [];
    const run = await createRunWorkspaces({
      cwd: dir,
      runName: "run_s",
      agents: AGENTS,
      notify: (notice) => notices.push(notice),
    });
    run.attachLog(join(dir, "log"));
    const alice = run.workspaceOf("alice")!;
    await writeFile(join(alice, "a.md"), "answer");
    execFileSync("mkfifo", [join(alice, "ff")]);
    // 1 GB that takes no disk, and 10 MiB with a byte at each end and a hole between.
    await writeFile(join(alice, "big.bin"), "");
    await truncate(join(alice, "big.bin"), 2 ** 30);
    const holes = join(alice, "holes.bin");
    const handle = await open(holes, "w");
    await handle.write("x", 0);
    await handle.write("y", 10 * 1024 * 1024 - 1);
    await handle.close();
    await symlink("/dev/zero", join(alice, "zero"));

    const report = await run.hooksFor("alice").snapshot!("agent1.1");
    expect(report).toMatchObject({ workspace: alice, files: 3, bytes: 6 + 10 * 1024 * 1024 });
    expect(notices).toHaveLength(1);
    expect(notices[0]!.message).toBe(
      `snapshot agent1.1 of ${alice}: 2 files not copied: big.bin (larger than 104857600 bytes), ff (a FIFO (named pipe))`,
    );
    for (const copy of [
      join(run.root, ".snapshots", "alice"),
      join(dir, "log", "alice", "snapshots", "agent1.1"),
    ]) {
      expect((await readdir(copy)).sort()).toEqual(["a.md", "holes.bin", "zero"]);
      expect((await lstat(join(copy, "zero"))).isSymbolicLink()).toBe(true);
      const copied = await stat(join(copy, "holes.bin"));
      expect(copied.size).toBe(10 * 1024 * 1024);
      // The hole stays a hole: far less than the 10 MiB it spans is on disk.
      expect(copied.blocks * 512).toBeLessThan(1024 * 1024);
      const bytes = await readFile(join(copy, "holes.bin"));
      expect([
        bytes[0],
        bytes[bytes.length - 1],
        bytes.subarray(1, -1).some((b) => b !== 0),
      ]).toEqual([0x78, 0x79, false]);
    }
  });

  test("a copy stops reading at its byte budget: later files are skipped, not copied", async () => {
    const dir = await cwd();
    const source = join(dir, "src");
    await mkdir(source);
    await writeFile(join(source, "a.txt"), "a".repeat(600));
    await writeFile(join(source, "b.txt"), "b".repeat(600));
    const skipped = await copyTree(source, join(dir, "dest"), { maxTotalBytes: 1000 });
    expect(skipped).toEqual([{ path: "b.txt", reason: "past the copy's limit of 1000 bytes" }]);
    expect(await readdir(join(dir, "dest"))).toEqual(["a.txt"]);
  });
});
