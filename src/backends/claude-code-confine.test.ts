/**
 * Which of Claude Code's own tool calls a confined `claude_code` agent may make (docs/tools.md
 * "Backends"): paths are judged by the agent's {@link FileAccess} (coord's path policy, faked
 * here), the shell is refused, other tools are left alone.
 */
import { describe, expect, test } from "vitest";
import type { FileAccess } from "./backend.js";
import { confinedRefusal, confineHook } from "./claude-code-confine.js";

/** Reads under /ws and /project, writes under /ws only. */
const files: FileAccess = {
  workspace: "/ws",
  readRoots: ["/project"],
  refusal: (path, mode) => {
    const inside = (root: string) => path === root || path.startsWith(`${root}/`);
    if (inside("/ws")) return Promise.resolve(undefined);
    if (inside("/project") && mode === "read") return Promise.resolve(undefined);
    if (inside("/project")) return Promise.resolve(`${path}: /project is read-only`);
    return Promise.resolve(`${path}: outside the folders you may use`);
  },
};

describe("confinedRefusal", () => {
  test("file tools by path, absolute globs by their folder, the shell never", async () => {
    expect(await confinedRefusal(files, "Read", { file_path: "/ws/a.md" })).toBeUndefined();
    expect(await confinedRefusal(files, "Read", { file_path: "/etc/passwd" })).toContain("outside");
    expect(await confinedRefusal(files, "Grep", { pattern: "x" })).toBeUndefined();
    expect(await confinedRefusal(files, "Grep", { pattern: "x", path: "/etc" })).toContain(
      "outside",
    );
    expect(await confinedRefusal(files, "Glob", { pattern: "/etc/**/*.conf" })).toBe(
      "/etc: outside the folders you may use",
    );
    expect(await confinedRefusal(files, "Glob", { pattern: "/project/*.md" })).toBeUndefined();
    expect(await confinedRefusal(files, "Write", { file_path: "/ws/b.md" })).toBeUndefined();
    expect(await confinedRefusal(files, "Edit", { file_path: "/project/a.md" })).toBe(
      "/project/a.md: /project is read-only",
    );
    expect(
      await confinedRefusal(files, "NotebookEdit", { notebook_path: "/tmp/n.ipynb" }),
    ).toContain("outside");
    expect(await confinedRefusal(files, "Write", {})).toBe("Write: give the file's path");
    expect(await confinedRefusal(files, "Bash", { command: "ls" })).toContain(
      "Bash is not available in coord",
    );
    expect(await confinedRefusal(files, "WebSearch", { query: "x" })).toBeUndefined();
    expect(await confinedRefusal(files, "mcp__coord__write_file", { path: "/x" })).toBeUndefined();
  });

  test("a refusal only the presenter escapes points at coord's own file tools", async () => {
    const presenterOnly: FileAccess = {
      ...files,
      refusal: (path) =>
        Promise.resolve(`${path}: only the agent presenting the final answer may write to /out`),
    };
    expect(await confinedRefusal(presenterOnly, "Write", { file_path: "/out/r.md" })).toBe(
      "/out/r.md: only the agent presenting the final answer may write to /out; when you present the final answer, write there with coord's write_file or edit_file tools",
    );
  });
});

describe("confineHook", () => {
  const call = (tool_name: string, tool_input: unknown) =>
    ({
      hook_event_name: "PreToolUse",
      tool_name,
      tool_input,
      tool_use_id: "t1",
      session_id: "s",
      transcript_path: "/t",
      cwd: "/ws",
    }) as Parameters<ReturnType<typeof confineHook>>[0];
  const signal = { signal: new AbortController().signal };

  test("denies refused calls, allows file tools inside, leaves other tools alone", async () => {
    const hook = confineHook(files);
    expect(await hook(call("Read", { file_path: "/etc/passwd" }), "t1", signal)).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "/etc/passwd: outside the folders you may use",
      },
    });
    expect(await hook(call("Write", { file_path: "/ws/a" }), "t1", signal)).toMatchObject({
      hookSpecificOutput: { permissionDecision: "allow" },
    });
    expect(await hook(call("WebSearch", { query: "x" }), "t1", signal)).toEqual({ continue: true });
  });

  test("in plan mode, calls inside are left to Claude Code", async () => {
    const hook = confineHook(files, { askOnAllowed: true });
    expect(await hook(call("Write", { file_path: "/ws/a" }), "t1", signal)).toEqual({
      continue: true,
    });
  });
});
