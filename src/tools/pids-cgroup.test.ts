/**
 * The pids cgroup of a sandboxed command: the shell joins the cgroup before it becomes the
 * command, and where this machine lets root write the kernel's `pids` hierarchy (Linux CI), forks
 * past `pids.max` fail instead of filling the process table.
 */
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createPidsCgroup, inCgroup, PIDS_ROOT } from "./pids-cgroup.js";

const kernelCgroups = (() => {
  try {
    accessSync(PIDS_ROOT, constants.W_OK);
    return process.platform === "linux";
  } catch {
    return false;
  }
})();

describe("pids cgroup", () => {
  test("the command's shell joins the cgroup, then runs the command; a gone process's are removed", () => {
    const root = mkdtempSync(join(tmpdir(), "coord-pids-"));
    // Left by a coord process that is gone (pid 2^22 - 1 is above Linux's pid_max limit).
    mkdirSync(join(root, "coord-4194303-1"));
    mkdirSync(join(root, `coord-${process.ppid}-1`));
    const cgroup = createPidsCgroup(10, root)!;
    expect(readFileSync(join(cgroup.dir, "pids.max"), "utf8")).toBe("10");
    const [program, ...args] = inCgroup(cgroup.dir, ["/bin/sh", "-c", "echo ran"]);
    const result = spawnSync(program!, args, { encoding: "utf8" });
    expect(result.stdout).toBe("ran\n");
    expect(readFileSync(join(cgroup.dir, "cgroup.procs"), "utf8")).toMatch(/^\d+\n$/);
    expect(existsSync(join(root, "coord-4194303-1"))).toBe(false);
    expect(existsSync(join(root, `coord-${process.ppid}-1`))).toBe(true);
  });

  test.skipIf(!kernelCgroups)("forks past pids.max fail; the cgroup is removed after", async () => {
    const cgroup = createPidsCgroup(20)!;
    expect(cgroup).toBeDefined();
    const [program, ...args] = inCgroup(cgroup.dir, [
      "/bin/sh",
      "-c",
      // dash gives up at the first fork that fails: "Cannot fork".
      "i=0; while [ $i -lt 60 ]; do sleep 2 & i=$((i+1)); done; wait",
    ]);
    const result = spawnSync(program!, args, { encoding: "utf8", timeout: 30_000 });
    expect(result.stderr).toMatch(/fork|resource temporarily unavailable/i);
    const peak = join(cgroup.dir, "pids.peak");
    if (existsSync(peak)) expect(Number(readFileSync(peak, "utf8"))).toBeLessThanOrEqual(20);
    cgroup.release();
    await expect.poll(() => existsSync(cgroup.dir), { timeout: 10_000 }).toBe(false);
  });
});
