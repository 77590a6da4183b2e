/**
 * The workspace browser's file access: previews by kind, and confinement to the root (realpath:
 * `..`, absolute paths and symlinks out are refused, files outside are never read).
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { WebHostError } from "./web-host.js";
import { readImage, TEXT_PREVIEW_BYTES, viewPath } from "./workspace-files.js";
import { logWorkspaceRoots } from "./workspace-roots.js";

let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "coord-ws-"));
  root = join(base, "attempt", "workspaces", "alice");
  await mkdir(join(root, "docs"), { recursive: true });
  await writeFile(join(root, "docs", "plan.md"), "# Plan\n");
  await writeFile(join(root, "notes.txt"), "notes");
  await writeFile(join(root, "blob.bin"), Buffer.from([1, 2, 0, 3]));
  await writeFile(join(root, "big.txt"), "x".repeat(TEXT_PREVIEW_BYTES + 1));
  await writeFile(join(root, "pixel.png"), Buffer.from("89504e470d0a1a0a", "hex"));
  await writeFile(join(base, "secret.txt"), "outside");
  await symlink(join(base, "secret.txt"), join(root, "link-out.txt"));
  await symlink(join(root, "notes.txt"), join(root, "link-in.txt"));
});

async function refusal(promise: Promise<unknown>): Promise<number> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebHostError);
  return (error as WebHostError).status;
}

describe("viewPath", () => {
  test("lists directories first, then files, by name", async () => {
    const view = await viewPath(root, "");
    expect(view.kind).toBe("dir");
    if (view.kind !== "dir") return;
    expect(view.entries.map((entry) => `${entry.kind}:${entry.name}`)).toEqual([
      "dir:docs",
      "file:big.txt",
      "file:blob.bin",
      "file:link-in.txt",
      "file:link-out.txt",
      "file:notes.txt",
      "file:pixel.png",
    ]);
  });

  test("previews Markdown, text, images, binaries and large files by kind", async () => {
    expect(await viewPath(root, "docs/plan.md")).toEqual({
      kind: "file",
      path: "docs/plan.md",
      size: 7,
      preview: "markdown",
      text: "# Plan\n",
    });
    expect(await viewPath(root, "notes.txt")).toMatchObject({ preview: "text", text: "notes" });
    expect(await viewPath(root, "link-in.txt")).toMatchObject({ preview: "text", text: "notes" });
    expect(await viewPath(root, "blob.bin")).toMatchObject({ preview: "binary" });
    expect(await viewPath(root, "big.txt")).toMatchObject({ preview: "too-large" });
    expect(await viewPath(root, "pixel.png")).toMatchObject({ preview: "image" });
    expect((await viewPath(root, "big.txt")) as { text?: string }).not.toHaveProperty("text");
    const image = await readImage(root, "pixel.png");
    expect(image.type).toBe("image/png");
    expect(await refusal(readImage(root, "notes.txt"))).toBe(400);
  });

  test("refuses .., absolute paths and symlinks pointing out (403); unknown files are 404", async () => {
    for (const path of [
      "..",
      "../../secret.txt",
      "docs/../../x",
      "/etc/passwd",
      join(base, "secret.txt"),
    ]) {
      const status = await refusal(viewPath(root, path));
      expect([403, 404]).toContain(status);
    }
    expect(await refusal(viewPath(root, "../../../secret.txt"))).toBe(403);
    expect(await refusal(viewPath(root, "link-out.txt"))).toBe(403);
    expect(await refusal(readImage(root, "link-out.txt"))).toBe(403);
    expect(await refusal(viewPath(root, "/etc/passwd"))).toBe(403);
    expect(await refusal(viewPath(root, "missing.txt"))).toBe(404);
  });
});

describe("logWorkspaceRoots", () => {
  test("the final result, then each agent's snapshots newest first; none without snapshots", async () => {
    const attempt = join(base, "attempt");
    for (const path of [
      "bob/snapshots/agent2.1",
      "bob/snapshots/agent2.2",
      "bob/snapshots/agent2.10",
      "bob/snapshots/agent2.final",
      "alice/snapshots/agent1.1",
      "carol/snapshots-not",
      "dave/snapshots/agent4.1",
    ]) {
      await mkdir(join(attempt, path), { recursive: true });
    }
    // A stray file among the snapshots is not a root.
    await writeFile(join(attempt, "alice", "snapshots", "notes.txt"), "x");
    const root = (agentId: string, snapshot: string, latest: boolean) => ({
      id: `${agentId}/snapshots/${snapshot}`,
      label: snapshot.endsWith(".final") ? "Final result" : snapshot,
      path: join(attempt, agentId, "snapshots", snapshot),
      agentId,
      snapshot,
      final: snapshot.endsWith(".final"),
      live: false,
      latest,
    });
    // dave is not one of the run's agents: his folder is not looked at.
    expect(await logWorkspaceRoots(attempt, ["bob", "alice", "carol"])).toEqual([
      root("bob", "agent2.final", true),
      root("bob", "agent2.10", true),
      root("bob", "agent2.2", false),
      root("bob", "agent2.1", false),
      root("alice", "agent1.1", true),
    ]);
    expect(await logWorkspaceRoots(join(base, "nowhere"), ["alice"])).toEqual([]);
    expect(await logWorkspaceRoots(null, [])).toEqual([]);
  });

  test("live workspaces come before each agent's snapshots, only for the run's agents", async () => {
    const attempt = join(base, "attempt-live");
    await mkdir(join(attempt, "alice", "snapshots", "agent1.1"), { recursive: true });
    const live = (agentId: string, path: string) => ({
      id: `${agentId}/live`,
      label: "live",
      path,
      agentId,
      snapshot: "",
      final: false,
      live: true,
      latest: false,
    });
    const roots = await logWorkspaceRoots(attempt, ["alice", "bob"], {
      bob: "/ws/bob_ws",
      alice: "/ws/alice_ws",
      dave: "/ws/dave_ws",
    });
    expect(roots.map((root) => root.id)).toEqual([
      "alice/live",
      "alice/snapshots/agent1.1",
      "bob/live",
    ]);
    expect(roots[0]).toEqual(live("alice", "/ws/alice_ws"));
    expect(roots[2]).toEqual(live("bob", "/ws/bob_ws"));
    // Without a log (--no-logs) the live workspaces are still offered.
    expect(await logWorkspaceRoots(null, ["bob"], { bob: "/ws/bob_ws" })).toEqual([
      live("bob", "/ws/bob_ws"),
    ]);
  });
});

describe("special files in a workspace (FIFOs, devices, sockets: docs/security.md)", () => {
  test("a FIFO, directly or through a link inside the root, answers 400 at once; the root stays usable", async () => {
    const special = join(base, "special");
    await mkdir(special);
    execFileSync("mkfifo", [join(special, "ff")]);
    execFileSync("mkfifo", [join(special, "ff.png")]);
    await symlink(join(special, "ff"), join(special, "to-ff.md"));
    await writeFile(join(special, "ok.txt"), "fine");
    for (const path of ["ff", "to-ff.md"]) {
      const error = await viewPath(special, path).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(WebHostError);
      expect(error).toMatchObject({
        status: 400,
        message: `${path} is a FIFO (named pipe): only regular files are previewed`,
      });
    }
    expect(await refusal(readImage(special, "ff.png"))).toBe(400);
    // Nothing is left blocked: the listing and a regular file still answer.
    const listing = await viewPath(special, "");
    expect(listing.kind === "dir" && listing.entries.map((entry) => entry.name)).toEqual([
      "ff",
      "ff.png",
      "ok.txt",
      "to-ff.md",
    ]);
    expect(await viewPath(special, "ok.txt")).toMatchObject({ preview: "text", text: "fine" });
  });
});
