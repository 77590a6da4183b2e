/**
 * The GitHub CLI `gh`, as `coord export` and `coord shares` use it (spec §5.3 "The sharing
 * commands use the code-hosting client's own login"; Debian's gh is old: no --json on
 * `gist list`). Only these parts of gh's command-line contract are
 * used, all present since gh 2.0: `gh auth status` (exit 0 when logged in), `gh gist create
 * FILE… --desc TEXT` (secret by default; prints the gist's URL on stdout), `gh gist list
 * --limit N` (tab-separated lines when stdout is not a terminal: id, description, `N files`,
 * `secret|public`, updated time RFC 3339), `gh gist view ID --files` (one file name a line) and
 * `gh gist delete ID` (newer gh asks first unless given `--yes`, which older gh does not know).
 *
 * gh runs with the caller's environment (its own login: `gh auth login`, or `GH_TOKEN`).
 */
import { spawn } from "node:child_process";
import { ConfigError, ExecutionError } from "../errors.js";

/** What a finished gh process left. */
export interface GhResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs gh with arguments. */
export type GhRunner = (args: readonly string[]) => Promise<GhResult>;

/** One gist of `gh gist list`. */
export interface GistListing {
  id: string;
  description: string;
  files: number;
  visibility: "secret" | "public";
  /** RFC 3339, as gh prints it. */
  updated: string;
}

const INSTALL_HINT =
  "install it (https://cli.github.com; on Debian or Ubuntu: apt-get install gh), then run gh auth login";

/**
 * A runner that spawns `gh` found on PATH.
 * @throws ConfigError (through the promise) when gh is not installed.
 */
export function ghRunner(env: Readonly<Record<string, string | undefined>>): GhRunner {
  return (args) =>
    new Promise((resolve, reject) => {
      const child = spawn("gh", [...args], {
        env: { ...env, GH_PROMPT_DISABLED: "1", NO_COLOR: "1" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.on("error", (error: NodeJS.ErrnoException) => {
        reject(
          error.code === "ENOENT"
            ? new ConfigError(`the GitHub CLI (gh) is not installed: ${INSTALL_HINT}`)
            : error,
        );
      });
      child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
}

/**
 * Checks that gh is installed and logged in.
 * @throws ConfigError (exit 1): `the GitHub CLI (gh) is not installed: …` or `gh is not logged
 *   in to GitHub: run gh auth login …`.
 */
export async function requireGhLogin(gh: GhRunner): Promise<void> {
  const status = await gh(["auth", "status"]);
  if (status.code !== 0) {
    throw new ConfigError(
      `gh is not logged in to GitHub: run gh auth login (or set GH_TOKEN), then try again (gh said: ${lastLine(status)})`,
    );
  }
}

/**
 * Creates a secret gist from files.
 * @param paths the files; each keeps its base name in the gist.
 * @returns the gist's id and URL.
 * @throws ExecutionError with gh's message when the upload fails.
 */
export async function createSecretGist(
  gh: GhRunner,
  paths: readonly string[],
  description: string,
): Promise<{ id: string; url: string }> {
  const result = await gh(["gist", "create", "--desc", description, ...paths]);
  const url = result.stdout
    .split("\n")
    .map((line) => line.trim())
    .findLast((line) => /^https?:\/\//.test(line));
  const id = url === undefined ? undefined : gistIdOf(url);
  if (result.code !== 0 || url === undefined || id === undefined) {
    throw new ExecutionError(`gh gist create failed: ${lastLine(result)}`);
  }
  return { id, url };
}

/**
 * The user's most recent gists, newest first.
 * @throws ExecutionError with gh's message when gh fails.
 */
export async function listGists(gh: GhRunner, limit: number): Promise<GistListing[]> {
  const result = await gh(["gist", "list", "--limit", String(limit)]);
  if (result.code !== 0) throw new ExecutionError(`gh gist list failed: ${lastLine(result)}`);
  const gists: GistListing[] = [];
  for (const line of result.stdout.split("\n")) {
    const fields = line.split("\t");
    if (fields.length < 5) continue;
    const [id, description, files, visibility, updated] = fields as [
      string,
      string,
      string,
      string,
      string,
    ];
    gists.push({
      id: id.trim(),
      description: description.trim(),
      files: Number.parseInt(files, 10) || 0,
      visibility: visibility.trim() === "public" ? "public" : "secret",
      updated: updated.trim(),
    });
  }
  return gists;
}

/**
 * The file names of a gist.
 * @throws ConfigError when gh cannot find it (names the id); ExecutionError for other failures.
 */
export async function gistFileNames(gh: GhRunner, id: string): Promise<string[]> {
  const result = await gh(["gist", "view", id, "--files"]);
  if (result.code !== 0) {
    if (/not found|404/i.test(result.stderr)) {
      throw new ConfigError(`gist ${id} not found (coord shares list shows your shares)`);
    }
    throw new ExecutionError(`gh gist view failed: ${lastLine(result)}`);
  }
  return result.stdout
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/**
 * Deletes a gist (with `--yes` for gh versions that ask first, without it for older ones).
 * @throws ExecutionError with gh's message when gh fails.
 */
export async function deleteGist(gh: GhRunner, id: string): Promise<void> {
  let result = await gh(["gist", "delete", id, "--yes"]);
  if (result.code !== 0 && /unknown flag: --yes/.test(result.stderr)) {
    result = await gh(["gist", "delete", id]);
  }
  if (result.code !== 0) throw new ExecutionError(`gh gist delete failed: ${lastLine(result)}`);
}

/**
 * The gist id in a gist URL (`https://gist.github.com/you/<id>`), a share URL (`…/?gist=<id>`)
 * or an id itself; undefined when there is none.
 */
export function gistIdOf(text: string): string | undefined {
  const value = text.trim();
  const query = /[?&]gist=([A-Za-z0-9]+)/.exec(value);
  if (query) return query[1];
  const match = /^(?:https?:\/\/[^/]+\/(?:[^/?#]+\/)?)?([A-Za-z0-9]+)\/?$/.exec(value);
  return match?.[1];
}

/** gh's last non-empty output line (its error message), or its exit code. */
function lastLine(result: GhResult): string {
  const line = `${result.stderr}\n${result.stdout}`
    .split("\n")
    .map((text) => text.trim())
    .filter((text) => text !== "")
    .at(-1);
  return line ?? `exit code ${result.code}`;
}
