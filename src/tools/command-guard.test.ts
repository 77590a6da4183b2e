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

  test("a long command is judged in linear time", () => {
    const started = performance.now();
    alwaysRefused(`${"a".repeat(200_000)}{${" ".repeat(100_000)}`);
    alwaysRefused("f(){ ".repeat(40_000));
    alwaysRefused(`rm -rf ${"/".repeat(100_000)}x`);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
