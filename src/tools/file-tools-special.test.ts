/**
 * The file tools against what an agent can put on disk: a FIFO, a device,
 * a 1 GB sparse file, and a pattern that backtracks exponentially in JavaScript's engine. Each call
 * answers (no hang, no sleep to wait for) with an error or at most its cap; nothing is timed: the
 * hostile pattern is proven to run in re2js only (native RegExp execs recorded,
 * test/support/native-regex.ts).
 */
import { execFileSync } from "node:child_process";
import { lstat, mkdir, mkdtemp, open, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RE2JS } from "re2js";
import { beforeEach, describe, expect, test } from "vitest";
import { recordNativeExecs } from "../../test/support/native-regex.js";
import { MAX_SEARCHED_BYTES } from "./file-search-tools.js";
import { fileTools, MAX_READ_BYTES, MAX_READ_CHARS } from "./file-tools.js";
import { createPathPolicy } from "./path-policy.js";
import type { LocalTool, ToolCallContext } from "./tool.js";

let workspace: string;
let tools: Map<string, LocalTool>;

const context: ToolCallContext = {
  agentId: "a",
  presenting: false,
  signal: new AbortController().signal,
};

async function call(
  name: string,
  input: Record<string, unknown>,
): Promise<{ ok: boolean; text: string }> {
  try {
    return { ok: true, text: await tools.get(name)!.execute(input, context) };
  } catch (error) {
    return { ok: false, text: (error as Error).message };
  }
}

beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), "coord-special-"));
  workspace = join(root, "ws");
  await mkdir(workspace);
  // /dev/zero given as a context path: the policy lets it be read; the tools still refuse it.
  const policy = await createPathPolicy({
    base: workspace,
    roots: [
      { path: workspace, access: "write", label: "your workspace" },
      { path: "/dev/zero", access: "read", label: "context path" },
    ],
  });
  tools = new Map(fileTools(policy).map((tool) => [tool.spec.name, tool]));
});

describe("special files are refused at once", () => {
  test("read_file, edit_file and write_file on a FIFO answer an error; the FIFO is untouched", async () => {
    execFileSync("mkfifo", [join(workspace, "ff")]);
    expect(await call("read_file", { path: "ff" })).toEqual({
      ok: false,
      text: "ff is a FIFO (named pipe), not a regular file; only regular files are read",
    });
    expect(await call("edit_file", { path: "ff", old_string: "a", new_string: "b" })).toEqual({
      ok: false,
      text: "ff is a FIFO (named pipe), not a regular file; only regular files are read",
    });
    const written = await call("write_file", { path: "ff", content: "x" });
    expect(written.ok).toBe(false);
    expect(written.text).toMatch(/FIFO \(named pipe\)|not a regular file/);
    expect((await lstat(join(workspace, "ff"))).isFIFO()).toBe(true);
    expect((await call("list_directory", {})).text).toBe(".:\nff (FIFO (named pipe))");
  });

  test("read_file of /dev/zero (a device the policy allows) is an error, not an endless read", async () => {
    expect(await call("read_file", { path: "/dev/zero" })).toEqual({
      ok: false,
      text: "/dev/zero is a character device, not a regular file; only regular files are read",
    });
  });

  test("search_files skips a FIFO and finds the matches in the regular files", async () => {
    execFileSync("mkfifo", [join(workspace, "ff")]);
    await writeFile(join(workspace, "notes.txt"), "one needle\ntwo\n");
    expect((await call("search_files", { pattern: "needle", path: "." })).text).toBe(
      "notes.txt:1: one needle",
    );
  });
});

describe("a huge sparse file costs at most the cap", () => {
  test("read_file of a 1 GB sparse file reads its first 10 MiB and says so", async () => {
    const path = join(workspace, "big.log");
    const lines = Array.from({ length: 1000 }, (_, index) => `line ${index + 1}`).join("\n");
    await writeFile(path, `${lines}\n`);
    await truncate(path, 2 ** 30);
    const note = `… (only the first ${MAX_READ_BYTES} of its ${2 ** 30} bytes were read)`;
    const range = await call("read_file", { path: "big.log", start_line: 2, end_line: 3 });
    expect(range.ok).toBe(true);
    expect(range.text).toMatch(/^\(lines 2–3 of \d+\)\nline 2\nline 3\n… \(only the first/);
    expect(range.text.endsWith(note)).toBe(true);
    const whole = await call("read_file", { path: "big.log" });
    expect(whole.text.length).toBeLessThan(MAX_READ_CHARS + 200);
    expect(whole.text.startsWith("line 1\nline 2\n")).toBe(true);
    expect(whole.text.endsWith(note)).toBe(true);
  });

  test("search_files does not read a sparse file over its limit", async () => {
    const path = join(workspace, "big.txt");
    await writeFile(path, "needle\n");
    await truncate(path, 2 ** 30);
    await writeFile(join(workspace, "small.txt"), "needle\n");
    expect(MAX_SEARCHED_BYTES).toBeLessThan(2 ** 30);
    expect((await call("search_files", { pattern: "needle", path: "." })).text).toBe(
      "small.txt:1: needle",
    );
  });
});

describe("search_files matches in linear time (RE2)", () => {
  test("(a+)+$ over 'aaaa…a!' is matched by re2js, never by a backtracking RegExp", async () => {
    await writeFile(join(workspace, "a.txt"), `${"a".repeat(26)}!\naaa\n`);
    // JavaScript's RegExp takes seconds here (doubling with each `a`); re2js is linear in the line.
    // RE2JS.compile is wrapped to see the patterns compiled (the original, with RE2JS as `this`).
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const re2Compile = RE2JS.compile;
    const compiled: string[] = [];
    RE2JS.compile = function (this: typeof RE2JS, ...args: Parameters<typeof RE2JS.compile>) {
      compiled.push(args[0]);
      return re2Compile.apply(this, args);
    };
    let result: unknown;
    let execs: Awaited<ReturnType<typeof recordNativeExecs>> = [];
    try {
      execs = await recordNativeExecs(async () => {
        result = await call("search_files", { pattern: "(a+)+$", path: "." });
      });
    } finally {
      RE2JS.compile = re2Compile;
    }
    expect(result).toEqual({ ok: true, text: "a.txt:2: aaa" });
    expect(compiled).toContain("(a+)+$");
    expect(execs.filter((exec) => exec.source.includes("(a+)+"))).toEqual([]);
  });

  test.each([
    ["a backreference", "(a)\\1"],
    ["a lookahead", "foo(?=bar)"],
    ["a lookbehind", "(?<=a)b"],
  ])("%s is refused with an error naming RE2 syntax", async (_what, pattern) => {
    await writeFile(join(workspace, "a.txt"), "aa foobar ab\n");
    const result = await call("search_files", { pattern, path: "." });
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(
      /^search_files: the pattern is not a regular expression in RE2 syntax \(error parsing regexp: .+\); search_files uses RE2/,
    );
  });

  test("the RE2 syntax still covers the usual patterns", async () => {
    const handle = await open(join(workspace, "code.ts"), "w");
    await handle.write("const x = 1;\n// TODO: fix\nfunction foo_bar() {}\n");
    await handle.close();
    expect(
      (await call("search_files", { pattern: "^function \\w+\\(\\)|TODO", path: "." })).text,
    ).toBe("code.ts:2: // TODO: fix\ncode.ts:3: function foo_bar() {}");
    expect((await call("search_files", { pattern: "(?i)const X", path: "." })).text).toBe(
      "code.ts:1: const x = 1;",
    );
  });
});
