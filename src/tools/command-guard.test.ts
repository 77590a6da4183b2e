/**
 * The always-refused commands: the bypasses of the old pattern list are
 * refused, and never run: `sudo` and `rm` are fakes on PATH that would leave a mark in the
 * workspace, and the tool runs in bubblewrap, so a miss could harm nothing (docs/tools.md
 * "Commands"). Ordinary commands that merely mention the words pass.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp } from "node:fs/promises";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { nativeRegexSteps, recordNativeExecs } from "../../test/support/native-regex.js";
import { alwaysRefused } from "./command-guard.js";
import { commandTool } from "./command-tool.js";

/** Whether the refusal is also tried through the tool (only ever inside the sandbox). */
const HAS_BWRAP = existsSync("/usr/bin/bwrap") && process.platform === "linux";

/** A workspace whose PATH starts with fake `sudo` and `rm` that write `ran-<name>` there. */
async function workspaceWithFakes(): Promise<{ cwd: string; path: string }> {
  const cwd = await mkdtemp(join(tmpdir(), "coord-guard-"));
  const bin = join(cwd, "bin");
  await mkdir(bin);
  for (const name of ["sudo", "rm", "doas"]) {
    await writeFile(join(bin, name), `#!/bin/sh\necho "$@" > "${cwd}/ran-${name}"\n`);
    await chmod(join(bin, name), 0o755);
  }
  return { cwd, path: `${bin}:${process.env.PATH}` };
}

describe("always refused", () => {
  test.each([
    ["rm -r -f ~", "removing / or ~ is not allowed"],
    ["rm -rf //", "removing / or ~ is not allowed"],
    ["rm --recursive --force /", "removing / or ~ is not allowed"],
    ["rm -rf $HOME", "removing / or ~ is not allowed"],
    ['rm -rf "${HOME}"/', "removing / or ~ is not allowed"],
    ["cd /tmp && rm -fR /*", "removing / or ~ is not allowed"],
    ["env sudo id", "sudo is not allowed"],
    ["s''udo id", "sudo is not allowed"],
    ["\\sudo id", "sudo is not allowed"],
    ["true; doas id", "sudo is not allowed"],
    ["mkfs.ext4 /dev/sda1", "formatting disks is not allowed"],
    [":(){ :|:& };:", "fork bombs are not allowed"],
    ["boom(){ boom | boom & }; boom", "fork bombs are not allowed"],
    ["function f { f|f & }; f", "fork bombs are not allowed"],
  ])("%s → refused, nothing ran", async (command, why) => {
    expect(alwaysRefused(command)).toBe(why);
    if (!HAS_BWRAP) return;
    const { cwd, path } = await workspaceWithFakes();
    const tool = commandTool({ cwd, env: { PATH: path } });
    const context = { agentId: "a", presenting: false, signal: new AbortController().signal };
    await expect(tool.execute({ command }, context)).rejects.toThrow(`Command refused: ${why}.`);
    for (const name of ["sudo", "rm", "doas"])
      expect(existsSync(join(cwd, `ran-${name}`))).toBe(false);
  });

  test.each([
    "rm -rf build",
    "rm -r /tmp/x",
    "echo pseudo-code",
    "ls / ~",
    "echo ${HOME}",
    "f() { echo one | tr o 0; }; f",
    "find . -name '*.o' -exec rm {} +",
  ])("%s passes", (command) => {
    expect(alwaysRefused(command)).toBeUndefined();
  });

  test.each([
    [
      "a brace after a long word and spaces",
      (n: number) => `${"a".repeat(2 * n)}{${" ".repeat(n)}`,
    ],
    ["many function openings", (n: number) => "f(){ ".repeat(n)],
    ["rm of a long run of slashes", (n: number) => `rm -rf ${"/".repeat(n)}x`],
    ["many quotes and backslashes", (n: number) => `echo ${"\\'\"".repeat(n)} sudo`],
    ["many spaces between words", (n: number) => `rm${" ".repeat(n)}-rf${" ".repeat(n)}~x`],
  ])("%s is judged in linear work", async (_what, make) => {
    // The work is counted, not timed: every native RegExp exec is replayed in a step-counting
    // backtracking matcher (test/support/native-regex.ts); the function-definition pattern is
    // re2js (linear by construction). Linear: 4× the command, at most 5× the steps (quadratic ~16×).
    const steps = async (n: number) => {
      const execs = await recordNativeExecs(() => alwaysRefused(make(n)));
      expect(execs.length).toBeGreaterThan(0);
      return nativeRegexSteps(execs);
    };
    const small = await steps(500);
    expect((await steps(2000)) / small).toBeLessThanOrEqual(5);
  });
});
