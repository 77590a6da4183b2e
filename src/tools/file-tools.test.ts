import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import { fileTools } from "./file-tools.js";
import { createPathPolicy, type PathPolicy } from "./path-policy.js";
import type { LocalTool, ToolCallContext } from "./tool.js";

let root: string;
let workspace: string;
let project: string;
let docs: string;
let outside: string;
let peers: string;
let policy: PathPolicy;
let tools: Map<string, LocalTool>;

const coordinate: ToolCallContext = {
  agentId: "a",
  presenting: false,
  signal: new AbortController().signal,
};
const presenting: ToolCallContext = { ...coordinate, presenting: true };

async function call(
  name: string,
  input: Record<string, unknown>,
  context = coordinate,
): Promise<{ ok: boolean; text: string }> {
  try {
    return { ok: true, text: await tools.get(name)!.execute(input, context) };
  } catch (error) {
    return { ok: false, text: (error as Error).message };
  }
}

/** Every file under `dir` with its content, to prove a refused call changed nothing. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      out[path.slice(dir.length)] = await readFile(path, "utf8");
    }
  }
  return out;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "coord-files-"));
  workspace = join(root, "ws");
  project = join(root, "project");
  docs = join(root, "docs");
  outside = join(root, "outside");
  peers = join(root, "peers");
  for (const dir of [
    workspace,
    project,
    docs,
    outside,
    join(peers, "agent2"),
    join(docs, "locked"),
  ])
    await mkdir(dir, { recursive: true });
  await writeFile(join(outside, "secret.txt"), "top secret\n");
  await writeFile(join(project, "readme.md"), "# Project\nline two\nline three\n");
  await writeFile(join(docs, "guide.md"), "guide v1\n");
  await writeFile(join(docs, "locked", "keep.txt"), "keep me\n");
  await writeFile(join(peers, "agent2", "notes.txt"), "from agent2\n");
  await symlink(join(outside, "secret.txt"), join(workspace, "escape.txt"));
  await symlink(outside, join(workspace, "escape-dir"));
  policy = await createPathPolicy({
    base: workspace,
    roots: [
      { path: workspace, access: "write", label: "your workspace" },
      { path: peers, access: "read", label: "other agents' work" },
      { path: project, access: "read", label: "context path" },
      { path: docs, access: "present-write", label: "context path" },
      { path: join(docs, "locked"), access: "protected", label: "protected" },
    ],
  });
  tools = new Map(fileTools(policy).map((tool) => [tool.spec.name, tool]));
});

describe("file tools inside the allowed folders", () => {
  test("write, read with a line range, edit, list, find, search, delete in the workspace", async () => {
    expect(
      await call("write_file", { path: "src/a.txt", content: "alpha\nbeta\ngamma\n" }),
    ).toEqual({ ok: true, text: "Wrote 17 bytes to src/a.txt." });
    expect((await call("read_file", { path: "src/a.txt", start_line: 2, end_line: 3 })).text).toBe(
      "(lines 2–3 of 4)\nbeta\ngamma",
    );
    expect(
      await call("edit_file", { path: "src/a.txt", old_string: "beta", new_string: "BETA" }),
    ).toEqual({ ok: true, text: "Replaced 1 occurrence in src/a.txt." });
    expect(await readFile(join(workspace, "src", "a.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
    expect(
      (await call("edit_file", { path: "src/a.txt", old_string: "a", new_string: "" })).text,
    ).toMatch(/occurs 4 times/);
    expect((await call("list_directory", {})).text).toBe(
      ".:\nescape-dir (symbolic link)\nescape.txt (symbolic link)\nsrc/",
    );
    expect((await call("find_files", { pattern: "**/*.txt", path: "." })).text).toBe("src/a.txt");
    // Without a folder, searches cover every folder the agent may read.
    expect((await call("find_files", { pattern: "**/*.txt" })).text).toBe(
      [join(docs, "locked", "keep.txt"), join(peers, "agent2", "notes.txt"), "src/a.txt"].join(
        "\n",
      ),
    );
    expect((await call("search_files", { pattern: "agent2" })).text).toBe(
      `${join(peers, "agent2", "notes.txt")}:1: from agent2`,
    );
    expect((await call("search_files", { pattern: "^line", path: project })).text).toBe(
      `${join(project, "readme.md")}:2: line two\n${join(project, "readme.md")}:3: line three`,
    );
    expect((await call("read_file", { path: join(peers, "agent2", "notes.txt") })).text).toBe(
      "from agent2\n",
    );
    expect((await call("delete_file", { path: "src" })).text).toMatch(/not empty: pass recursive/);
    expect(await call("delete_file", { path: "src", recursive: true })).toEqual({
      ok: true,
      text: "Deleted src.",
    });
  });

  test("the presenter may write to a write context path, never to a protected path inside it", async () => {
    expect(
      await call("write_file", { path: join(docs, "guide.md"), content: "v2\n" }, presenting),
    ).toEqual({
      ok: true,
      text: `Wrote 3 bytes to ${join(docs, "guide.md")}.`,
    });
    expect(await readFile(join(docs, "guide.md"), "utf8")).toBe("v2\n");
    const locked = await call(
      "write_file",
      { path: join(docs, "locked", "keep.txt"), content: "x" },
      presenting,
    );
    expect(locked).toEqual({
      ok: false,
      text: `${join(docs, "locked", "keep.txt")}: ${join(docs, "locked")} is protected: it is never writable`,
    });
  });
});

describe("escapes are refused and the files stay unchanged", () => {
  const cases: [string, string, () => Record<string, unknown>, RegExp][] = [
    [
      "`..`",
      "write_file",
      () => ({ path: "../outside/secret.txt", content: "owned" }),
      /`\.\.` is not allowed/,
    ],
    [
      "an absolute path outside",
      "write_file",
      () => ({ path: join(outside, "new.txt"), content: "x" }),
      /outside the folders you may use/,
    ],
    [
      "an absolute path outside (read)",
      "read_file",
      () => ({ path: join(outside, "secret.txt") }),
      /outside the folders you may use/,
    ],
    [
      "a symlink in the workspace pointing outside",
      "read_file",
      () => ({ path: "escape.txt" }),
      /symbolic link that leads outside/,
    ],
    [
      "writing through that symlink",
      "write_file",
      () => ({ path: "escape.txt", content: "owned" }),
      /symbolic link that leads outside/,
    ],
    [
      "a file under a linked folder",
      "write_file",
      () => ({ path: "escape-dir/new.txt", content: "owned" }),
      /symbolic link that leads outside/,
    ],
    [
      "a protected path",
      "delete_file",
      () => ({ path: join(docs, "locked", "keep.txt") }),
      /is protected/,
    ],
    [
      "a write to a read context path",
      "write_file",
      () => ({ path: join(project, "readme.md"), content: "x" }),
      /is read-only/,
    ],
    [
      "an edit of a peer's snapshot",
      "edit_file",
      () => ({ path: join(peers, "agent2", "notes.txt"), old_string: "from", new_string: "by" }),
      /is read-only/,
    ],
    [
      "a write context path outside the presentation",
      "write_file",
      () => ({ path: join(docs, "guide.md"), content: "x" }),
      /only the agent presenting the final answer may write/,
    ],
    ["a glob climbing out", "find_files", () => ({ pattern: "../**" }), /without `\.\.`/],
  ];
  test.each(cases)("%s", async (_what, tool, input, message) => {
    const before = await tree(root);
    const result = await call(tool, input());
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(message);
    expect(await tree(root)).toEqual(before);
  });

  test("a dangling symlink is not written through", async () => {
    await symlink(join(outside, "planted.txt"), join(workspace, "dangling.txt"));
    const result = await call("write_file", { path: "dangling.txt", content: "x" });
    expect(result.ok).toBe(false);
    await expect(readFile(join(outside, "planted.txt"), "utf8")).rejects.toThrow();
  });

  test("searches do not follow links out of the folder", async () => {
    const found = await call("search_files", { pattern: "secret" });
    expect(found.text).toBe(`No line matches /secret/ in ., ${peers}, ${project}, ${docs}`);
    expect((await call("find_files", { pattern: "**/*" })).text).not.toContain("secret");
  });
});
