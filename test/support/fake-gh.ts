/**
 * Puts the fake GitHub CLI (fake-gh-main.ts, built into dist/) on a PATH for a test: a `gh`
 * script in a temp bin directory and a state directory, with helpers to read what gh was asked
 * and what it stored. Imports nothing from vitest.
 */
import { chmod, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FakeGist } from "./fake-gh-main.js";
import { REPO_ROOT } from "./cli.js";

export type { FakeGist };

/** A fake gh ready to use. */
export interface FakeGh {
  /** The environment to add: PATH with the fake first, FAKE_GH_DIR (and FAKE_GH_VERSION). */
  env: Record<string, string>;
  /** The state directory. */
  dir: string;
  /** Every call's arguments, in order. */
  calls(): Promise<string[][]>;
  /** The stored gists, newest first. */
  gists(): Promise<FakeGist[]>;
  /** Logs in or out (`gh auth status`). */
  setLoggedIn(loggedIn: boolean): Promise<void>;
}

/**
 * Installs a fake gh.
 * @param options.loggedIn default true.
 * @param options.version `new` (default: gh ≥ 2.61, `gist delete` needs `--yes`) or `old`
 *   (gh 2.23, Debian 12: no `--yes`).
 * @param options.path the rest of PATH (default: node's directory and /usr/bin:/bin, so no real
 *   gh is found).
 */
export async function installFakeGh(
  options: { loggedIn?: boolean; version?: "new" | "old"; path?: string } = {},
): Promise<FakeGh> {
  const root = await mkdtemp(join(tmpdir(), "coord-fake-gh-"));
  const bin = join(root, "bin");
  const dir = join(root, "state");
  await mkdir(bin);
  await mkdir(dir);
  const main = join(REPO_ROOT, "dist", "test", "support", "fake-gh-main.js");
  const script = join(bin, "gh");
  await writeFile(script, `#!/bin/sh\nexec "${process.execPath}" "${main}" "$@"\n`);
  await chmod(script, 0o755);
  const fake: FakeGh = {
    env: {
      PATH: `${bin}:${options.path ?? `${join(process.execPath, "..")}:/usr/bin:/bin`}`,
      FAKE_GH_DIR: dir,
      ...(options.version === "old" ? { FAKE_GH_VERSION: "old" } : {}),
    },
    dir,
    async calls() {
      const text = await readFile(join(dir, "calls.jsonl"), "utf8").catch(() => "");
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as { args: string[] }).args);
    },
    async gists() {
      const text = await readFile(join(dir, "gists.json"), "utf8").catch(() => "[]");
      return JSON.parse(text) as FakeGist[];
    },
    async setLoggedIn(loggedIn) {
      const { rm } = await import("node:fs/promises");
      if (loggedIn) await writeFile(join(dir, "logged_in"), "tester\n");
      else await rm(join(dir, "logged_in"), { force: true });
    },
  };
  await fake.setLoggedIn(options.loggedIn ?? true);
  return fake;
}
