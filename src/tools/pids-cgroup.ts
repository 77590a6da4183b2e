/**
 * A kernel limit on a sandboxed command's process count (docs/tools.md
 * "Commands"): where the cgroup v1 `pids` controller is writable (root on Linux, as on coord's CI
 * machines), each sandboxed command runs in a cgroup of its own whose `pids.max` is twice the
 * process limit, so a fork bomb's forks fail there instead of filling the machine's process table
 * before the watchdog of `./command-run.ts` (which kills the sandbox past the limit itself) has
 * counted them. Where no such cgroup can be made, the watchdog alone holds.
 */
import { mkdirSync, readdirSync, rmdirSync, writeFileSync } from "node:fs";

/** The cgroup v1 `pids` hierarchy. */
export const PIDS_ROOT = "/sys/fs/cgroup/pids";

/** A command's cgroup: the folder, and `release` to remove it once its processes are gone. */
export interface PidsCgroup {
  dir: string;
  release(): void;
}

let available: boolean | undefined;
let made = 0;

/**
 * Makes a cgroup whose tasks may number at most `maxTasks`; undefined where that is not possible
 * (not Linux, no writable `pids` hierarchy: then never tried again in this process).
 */
export function createPidsCgroup(maxTasks: number, root = PIDS_ROOT): PidsCgroup | undefined {
  if (available === false || process.platform !== "linux") return undefined;
  if (made === 0) removeStale(root);
  const dir = `${root}/coord-${process.pid}-${++made}`;
  try {
    mkdirSync(dir);
    writeFileSync(`${dir}/pids.max`, String(maxTasks));
  } catch {
    if (root === PIDS_ROOT) available = false;
    removeDir(dir);
    return undefined;
  }
  available = true;
  return { dir, release: () => releaseLater(dir, 50) };
}

/**
 * `argv` run by a shell that first moves itself into the cgroup `dir` (so every process the
 * command starts is counted there), then becomes `argv` (file descriptors kept).
 */
export function inCgroup(dir: string, argv: readonly string[]): string[] {
  return ["/bin/sh", "-c", 'echo $$ > "$0/cgroup.procs" && exec "$@"', dir, ...argv];
}

/** Removes the cgroup once its last task is gone (a killed sandbox takes a moment). */
function releaseLater(dir: string, triesLeft: number): void {
  if (removeDir(dir) || triesLeft <= 0) return;
  setTimeout(() => releaseLater(dir, triesLeft - 1), 200).unref();
}

/**
 * Removes the cgroups left by coord processes that are gone (one that exited before its last
 * cgroup emptied): `coord-<pid>-<n>` whose process no longer exists. A cgroup that still holds
 * tasks refuses removal and stays.
 */
function removeStale(root: string): void {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(/^coord-(\d+)-\d+$/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    removeDir(`${root}/${name}`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function removeDir(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT";
  }
}
