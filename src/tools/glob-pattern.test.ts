/**
 * Glob patterns matched in linear time: the same answers as tinyglobby given the
 * pattern (what find_files did before) on ordinary patterns, and no stall on the patterns that
 * make picomatch's RegExp backtrack for seconds to minutes.
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { glob } from "tinyglobby";
import { beforeAll, describe, expect, test } from "vitest";
import { fileTools } from "./file-tools.js";
import { compileGlob } from "./glob-pattern.js";
import { createPathPolicy } from "./path-policy.js";

/** Files made in a folder; their folders come with them. */
const FILES = [
  "a.ts",
  "a.md",
  ".hidden",
  "src/a.ts",
  "src/b.tsx",
  "src/lib/c.ts",
  "src/lib/deep/d.ts",
  "lib/x.md",
  "docs/guide.md",
  "docs/a b.md",
  "weird/[x].txt",
  "weird/a+b.txt",
  "x1.txt",
  "x2.txt",
  "xa.txt",
];

const PATTERNS = [
  "**/*",
  "**",
  "*",
  "*.ts",
  "**/*.ts",
  "src/*.ts",
  "src/**",
  "src/**/*.ts",
  "src",
  "src/lib",
  "./src/*.ts",
  "{src,lib}/*.{ts,md}",
  "src/*.ts?",
  "x[0-9].txt",
  "x[^0-9].txt",
  "**/deep/**",
  "docs/a b.md",
  "weird/a+b.txt",
  "src/@(a|b).ts",
  "src/+(a|b).ts*",
  "src/*(a).ts",
  "src/?(a).ts",
  "**/lib/*",
  "*.{md,ts}",
];

let folder: string;
/** Every file and folder in {@link folder}, relative, without a trailing `/`. */
let PATHS: string[];

const walk = async (pattern: string) =>
  (await glob(pattern, { cwd: folder, dot: true, followSymbolicLinks: false, onlyFiles: false }))
    .map((path) => path.replace(/\/$/, ""))
    .sort();

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "coord-glob-"));
  for (const file of FILES) {
    await mkdir(dirname(join(folder, file)), { recursive: true });
    await writeFile(join(folder, file), "x");
  }
  PATHS = await walk("**");
});

describe("compileGlob", () => {
  test.each(PATTERNS)("%s matches what tinyglobby matches", async (pattern) => {
    const ours = compileGlob("find_files", pattern);
    expect(PATHS.filter((path) => ours(path))).toEqual(await walk(pattern));
  });

  test("[!…] negates, as in the shell (tinyglobby's picomatch reads the ! as a member)", () => {
    const negated = compileGlob("find_files", "x[!0-9].txt");
    expect(PATHS.filter((path) => negated(path))).toEqual(["xa.txt"]);
  });

  test("the literal prefix is the leading segments without glob syntax", () => {
    expect(compileGlob("t", "src/lib/**/*.ts").prefix).toBe("src/lib");
    expect(compileGlob("t", "src/*.ts").prefix).toBe("src");
    expect(compileGlob("t", "**/*.ts").prefix).toBe("");
    expect(compileGlob("t", "a.ts").prefix).toBe("");
  });

  test("patterns that backtrack in picomatch's RegExp are matched in milliseconds", () => {
    const name = `${"a".repeat(200)}!`;
    for (const pattern of [
      "*a*a*a*a*a*a*a*a*b",
      "@(a*)+(a*)*(a*)b",
      "+(+(a))b",
      "**/*a*a*a*a*a*b",
    ]) {
      const started = performance.now();
      expect(compileGlob("find_files", pattern)(name)).toBe(false);
      expect(performance.now() - started).toBeLessThan(200);
    }
  });

  test("a negated extglob, an unclosed one and an over-long pattern are refused", () => {
    expect(() => compileGlob("find_files", "!(a).ts")).toThrow(
      "find_files: negated extglobs !(…) are not supported in glob patterns",
    );
    expect(() => compileGlob("find_files", "@(a|b")).toThrow("unclosed (");
    expect(() => compileGlob("find_files", "*".repeat(1001))).toThrow("longer than 1000");
  });
});

describe("find_files and search_files with a catastrophic glob", () => {
  test("answer promptly over a file whose name would stall picomatch", async () => {
    const workspace = await mkdtemp(join(tmpdir(), "coord-glob-"));
    await mkdir(join(workspace, "sub"));
    await writeFile(join(workspace, "sub", `${"a".repeat(200)}!`), "needle\n");
    await writeFile(join(workspace, "sub", "aab"), "needle\n");
    const policy = await createPathPolicy({
      base: workspace,
      roots: [{ path: workspace, access: "write", label: "your workspace" }],
    });
    const tools = new Map(fileTools(policy).map((tool) => [tool.spec.name, tool]));
    const context = { agentId: "a", presenting: false, signal: new AbortController().signal };
    const started = performance.now();
    expect(
      await tools.get("find_files")!.execute({ pattern: "**/*a*a*a*a*a*a*a*a*b" }, context),
    ).toBe("No files match **/*a*a*a*a*a*a*a*a*b in .");
    expect(
      await tools
        .get("search_files")!
        .execute({ pattern: "needle", glob: "sub/*a*a*a*a*a*a*a*b" }, context),
    ).toBe("No line matches /needle/ in .");
    expect(
      await tools.get("search_files")!.execute({ pattern: "needle", glob: "sub/*a*b" }, context),
    ).toBe("sub/aab:1: needle");
    // picomatch takes minutes on the 200-character name; RE2 milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
