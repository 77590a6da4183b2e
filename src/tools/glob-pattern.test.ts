/**
 * Glob patterns matched in linear time: the same answers as tinyglobby given the
 * pattern (what find_files did before) on ordinary patterns, and no stall on the patterns that
 * make picomatch's RegExp backtrack for seconds to minutes. No clock: the hostile file name is
 * proven to be matched by re2js (linear by construction) and never by a native, backtracking
 * RegExp (every native exec is recorded, test/support/native-regex.ts).
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { RE2JS } from "re2js";
import { glob } from "tinyglobby";
import { beforeAll, describe, expect, test } from "vitest";
import { recordNativeExecs } from "../../test/support/native-regex.js";
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

// The original, called with its RE2JS as `this`.
// eslint-disable-next-line @typescript-eslint/unbound-method
const re2TestExact = RE2JS.prototype.testExact;

/** Runs `run` and returns the inputs re2js matched whole (`testExact`) meanwhile. */
async function re2Inputs(run: () => unknown): Promise<string[]> {
  const inputs: string[] = [];
  RE2JS.prototype.testExact = function (this: RE2JS, input: string) {
    inputs.push(String(input));
    return re2TestExact.call(this, input);
  };
  try {
    await run();
  } finally {
    RE2JS.prototype.testExact = re2TestExact;
  }
  return inputs;
}

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

  test("patterns that backtrack in picomatch's RegExp are matched by re2js, never a RegExp", async () => {
    const name = `${"a".repeat(200)}!`;
    for (const pattern of [
      "*a*a*a*a*a*a*a*a*b",
      "@(a*)+(a*)*(a*)b",
      "+(+(a))b",
      "**/*a*a*a*a*a*b",
    ]) {
      let matched: boolean | undefined;
      let execs: Awaited<ReturnType<typeof recordNativeExecs>> = [];
      const viaRe2 = await re2Inputs(async () => {
        execs = await recordNativeExecs(() => {
          matched = compileGlob("find_files", pattern)(name);
        });
      });
      expect(matched, pattern).toBe(false);
      expect(viaRe2, pattern).toEqual([name]);
      expect(
        execs.filter((call) => call.input.includes(name)),
        pattern,
      ).toEqual([]);
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
  test("answer over a file whose name would stall picomatch, matching it by re2js only", async () => {
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
    const find = tools.get("find_files")!;
    const search = tools.get("search_files")!;
    const long = "a".repeat(200);
    /** The native regexes that ran on the long name (their sources) while `run` ran. */
    const nativeOnLong = async (run: () => Promise<unknown>) =>
      new Set(
        (await recordNativeExecs(run))
          .filter((call) => call.input.includes(long))
          .map((call) => `/${call.source}/${call.flags}`),
      );
    // The folder walk's own regexes (tinyglobby walks with the fixed pattern `**`).
    const walkOnly = await nativeOnLong(async () => {
      await find.execute({ pattern: "**/zzz" }, context);
      await search.execute({ pattern: "needle", glob: "sub/zzz" }, context);
    });
    const answers: unknown[] = [];
    let hostileNative = new Set<string>();
    const viaRe2 = await re2Inputs(async () => {
      hostileNative = await nativeOnLong(async () => {
        answers.push(await find.execute({ pattern: "**/*a*a*a*a*a*a*a*a*b" }, context));
        answers.push(
          await search.execute({ pattern: "needle", glob: "sub/*a*a*a*a*a*a*a*b" }, context),
        );
        answers.push(await search.execute({ pattern: "needle", glob: "sub/*a*b" }, context));
      });
    });
    expect(answers).toEqual([
      "No files match **/*a*a*a*a*a*a*a*a*b in .",
      "No line matches /needle/ in .",
      "sub/aab:1: needle",
    ]);
    // picomatch's RegExp of the caller's glob takes minutes on the 200-character name; here the
    // glob is matched by re2js (linear) and no native regex but the walk's own sees the name.
    expect(viaRe2.filter((input) => input === `sub/${long}!`)).toHaveLength(3);
    expect([...hostileNative].filter((source) => !walkOnly.has(source))).toEqual([]);
  });
});
