import { cp, mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { collectShareBundle, parseTurnSpec, SHARE_LIMITS } from "./share-bundle.js";

const THREE = new URL(
  "../../test/fixtures/logs/runs/log_20261121_095544_three_agents/",
  import.meta.url,
).pathname;

async function copyOfThreeAgents(): Promise<string> {
  const logDir = join(await mkdtemp(join(tmpdir(), "coord-bundle-")), "log_20261121_095544_x");
  await cp(THREE, logDir, { recursive: true });
  return logDir;
}

const collect = (logDir: string, workspace = true) =>
  collectShareBundle({
    logDir,
    turns: { kind: "all" },
    workspace,
    redact: (text) => text,
    coordVersion: "test",
    now: new Date(Date.UTC(2026, 0, 1)),
  });

describe("parseTurnSpec", () => {
  test.each([
    ["all", { kind: "all" }],
    ["latest", { kind: "latest" }],
    ["3", { kind: "range", from: 3, to: 3 }],
    ["2-4", { kind: "range", from: 2, to: 4 }],
  ])("%s", (text, spec) => expect(parseTurnSpec(text)).toEqual(spec));

  test.each(["0", "4-2", "1-", "x", "", "-1"])("%j is refused", (text) => {
    expect(() => parseTurnSpec(text)).toThrow("--turns must be all, latest, N or N-M");
  });
});

describe("collectShareBundle limits", () => {
  test("workspace files past the file count and total size limits are skipped, never the run files", async () => {
    const logDir = await copyOfThreeAgents();
    const workspace = join(logDir, "turn_1", "attempt_1", "workspace");
    await mkdir(workspace);
    const size = 25_000; // 300 files of 25 KB: the 5 MB total stops them at 200
    for (let index = 0; index < 300; index++) {
      await writeFile(join(workspace, `f${String(index).padStart(3, "0")}.txt`), "a".repeat(size));
    }
    const bundle = await collect(logDir);
    const runFiles = bundle.files.filter((file) => file.kind !== "workspace");
    expect(runFiles.map((file) => file.kind)).toEqual([
      "events",
      "status",
      "metrics",
      "final_answer",
      "execution_metadata",
    ]);
    const kept = bundle.files.filter((file) => file.kind === "workspace").length;
    expect(kept).toBe(SHARE_LIMITS.maxWorkspaceTotalBytes / size);
    expect(bundle.skipped.every((file) => file.reason === "total_limit")).toBe(true);
    expect(bundle.skipped).toHaveLength(300 - kept);
    expect(bundle.files.length + 1).toBeLessThanOrEqual(SHARE_LIMITS.maxFiles);
  });

  test("at most maxFiles files in the gist, the manifest included", async () => {
    const logDir = await copyOfThreeAgents();
    const workspace = join(logDir, "turn_1", "attempt_1", "workspace");
    await mkdir(workspace);
    for (let index = 0; index < 300; index++) {
      await writeFile(join(workspace, `f${String(index).padStart(3, "0")}.txt`), "x\n");
    }
    const bundle = await collect(logDir);
    expect(bundle.files.length + 1).toBe(SHARE_LIMITS.maxFiles);
    expect(bundle.skipped.map((file) => file.reason)).toEqual(
      Array(305 - SHARE_LIMITS.maxFiles + 1).fill("file_limit"),
    );
  });

  test("a symbolic link is never followed", async () => {
    const logDir = await copyOfThreeAgents();
    const workspace = join(logDir, "turn_1", "attempt_1", "workspace");
    await mkdir(workspace);
    const outside = join(await mkdtemp(join(tmpdir(), "coord-outside-")), "private.txt");
    await writeFile(outside, "private\n");
    await symlink(outside, join(workspace, "link.txt"));
    await symlink(join(outside, ".."), join(workspace, "dir-link"));
    const bundle = await collect(logDir);
    expect(bundle.files.some((file) => file.content.includes("private"))).toBe(false);
    expect(bundle.skipped).toEqual([
      {
        path: "turn_1/attempt_1/workspace/dir-link",
        bytes: expect.any(Number) as number,
        reason: "symlink",
      },
      {
        path: "turn_1/attempt_1/workspace/link.txt",
        bytes: expect.any(Number) as number,
        reason: "symlink",
      },
    ]);
  });
});
