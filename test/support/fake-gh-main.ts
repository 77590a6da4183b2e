/**
 * A fake GitHub CLI (`gh`) for tests, run as a program (test/support/fake-gh.ts puts a `gh`
 * script running it first on PATH). It implements the parts of gh's command-line contract coord
 * uses, with gh's exit codes and messages, against a local state directory instead of GitHub:
 *
 * - `gh --version`;
 * - `gh auth status`: exit 0 and "Logged in to github.com as tester" when `<state>/logged_in`
 *   exists, else exit 1 and gh's "You are not logged into any GitHub hosts" message;
 * - `gh gist create [--desc D] [--public] FILE…`: files keyed by base name, secret unless
 *   `--public`; refuses a missing, empty or binary file as gh/GitHub do; prints
 *   `https://gist.github.com/tester/<id>` on stdout;
 * - `gh gist list [--limit N] [--public|--secret]`: gh's non-terminal table, tab-separated:
 *   id, description, `N files`, `secret|public`, updated time (RFC 3339), newest first;
 * - `gh gist view ID --files`: the file names, sorted;
 * - `gh gist delete ID [--yes]`: like gh ≥ 2.61, `--yes` is required when not interactive;
 *   with `FAKE_GH_VERSION=old` (gh 2.23, Debian 12), `--yes` is an unknown flag.
 *
 * Any gist command when not logged in exits 4 with gh's "please run: gh auth login". Every call
 * is appended to `<state>/calls.jsonl` as `{"args": [...]}`; gists live in `<state>/gists.json`.
 * The state directory is `FAKE_GH_DIR`.
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

/** A stored gist. */
export interface FakeGist {
  id: string;
  description: string;
  public: boolean;
  files: Record<string, string>;
  updated_at: string;
}

const stateDir = process.env.FAKE_GH_DIR;
if (stateDir === undefined) {
  process.stderr.write("fake gh: FAKE_GH_DIR is not set\n");
  process.exit(2);
}
const old = process.env.FAKE_GH_VERSION === "old";
const args = process.argv.slice(2);
appendFileSync(join(stateDir, "calls.jsonl"), `${JSON.stringify({ args })}\n`);

const gistsPath = join(stateDir, "gists.json");
const readGists = (): FakeGist[] =>
  existsSync(gistsPath) ? (JSON.parse(readFileSync(gistsPath, "utf8")) as FakeGist[]) : [];
const writeGists = (gists: FakeGist[]) => writeFileSync(gistsPath, JSON.stringify(gists, null, 2));

function fail(message: string, code = 1): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

/** Splits flags (with their values) from positional arguments, as cobra does. */
function parse(
  rest: string[],
  spec: Record<string, "bool" | "value">,
): { flags: Record<string, string | true>; positional: string[] } {
  const flags: Record<string, string | true> = {};
  const positional: string[] = [];
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index]!;
    if (!arg.startsWith("-") || arg === "-") {
      positional.push(arg);
      continue;
    }
    const split = arg.indexOf("=");
    const name = split < 0 ? arg : arg.slice(0, split);
    const inline = split < 0 ? undefined : arg.slice(split + 1);
    const kind = spec[name];
    if (kind === undefined)
      fail(`unknown flag: ${name}\n\nUsage:  gh ${args.slice(0, 2).join(" ")} [flags]`);
    if (kind === "bool") flags[name] = true;
    else {
      const value = inline ?? rest[++index];
      if (value === undefined) fail(`flag needs an argument: ${name}`);
      flags[name] = value;
    }
  }
  return { flags, positional };
}

const loggedIn = existsSync(join(stateDir, "logged_in"));
const [command, sub, ...rest] = args;

if (command === "--version") {
  process.stdout.write(`gh version ${old ? "2.23.0" : "2.70.0"} (fake)\n`);
  process.exit(0);
}

if (command === "auth" && sub === "status") {
  if (!loggedIn)
    fail("You are not logged into any GitHub hosts. Run gh auth login to authenticate.");
  process.stderr.write("github.com\n  ✓ Logged in to github.com as tester (keyring)\n");
  process.exit(0);
}

if (command !== "gist") fail(`unknown command "${command ?? ""}" for "gh"`);
if (!loggedIn) {
  fail(
    "To get started with GitHub CLI, please run:  gh auth login\nAlternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.",
    4,
  );
}

const now = new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + readGists().length * 60_000).toISOString();

switch (sub) {
  case "create": {
    const { flags, positional } = parse(rest, {
      "-d": "value",
      "--desc": "value",
      "-p": "bool",
      "--public": "bool",
      "-f": "value",
      "--filename": "value",
      "-w": "bool",
      "--web": "bool",
    });
    if (positional.length === 0) fail("no filenames passed and nothing on STDIN");
    const files: Record<string, string> = {};
    for (const path of positional) {
      let content: Buffer;
      try {
        content = readFileSync(path);
      } catch {
        fail(
          `failed to collect files for posting: failed to read file ${path}: open ${path}: no such file or directory`,
        );
      }
      if (content.includes(0))
        fail(
          `failed to collect files for posting: failed to upload ${basename(path)}: binary file not supported`,
        );
      if (content.toString("utf8").trim() === "") {
        fail(
          "X Failed to create gist: HTTP 422: Validation Failed (https://api.github.com/gists)\nGist.files is missing",
        );
      }
      files[basename(path)] = content.toString("utf8");
    }
    const gists = readGists();
    const id = createHash("sha256")
      .update(`${gists.length}:${Object.keys(files).join(",")}`)
      .digest("hex")
      .slice(0, 32);
    const isPublic = flags["-p"] === true || flags["--public"] === true;
    const description = (flags["-d"] ?? flags["--desc"] ?? "") as string;
    gists.unshift({ id, description, public: isPublic, files, updated_at: now });
    writeGists(gists);
    const first = Object.keys(files).sort()[0];
    process.stderr.write(
      `- Creating gist ${positional.length > 1 ? "with multiple files" : first}\n✓ Created ${isPublic ? "public" : "secret"} gist ${first}\n`,
    );
    process.stdout.write(`https://gist.github.com/tester/${id}\n`);
    process.exit(0);
  }
  // falls through (never reached: process.exit)
  case "list": {
    const { flags, positional } = parse(rest, {
      "-L": "value",
      "--limit": "value",
      "--public": "bool",
      "--secret": "bool",
    });
    if (positional.length > 0) fail(`unknown argument "${positional[0]}" for "gh gist list"`);
    const limit = Number(flags["-L"] ?? flags["--limit"] ?? 10);
    if (!Number.isInteger(limit) || limit < 1) fail(`invalid limit: ${String(limit)}`);
    const lines = readGists()
      .filter((gist) => (flags["--public"] ? gist.public : flags["--secret"] ? !gist.public : true))
      .slice(0, limit)
      .map((gist) => {
        const count = Object.keys(gist.files).length;
        const description = gist.description || (Object.keys(gist.files)[0] ?? "");
        return [
          gist.id,
          description.replace(/\s+/g, " "),
          `${count} file${count === 1 ? "" : "s"}`,
          gist.public ? "public" : "secret",
          gist.updated_at.replace(/\.\d{3}Z$/, "Z"),
        ].join("\t");
      });
    process.stdout.write(lines.map((line) => `${line}\n`).join(""));
    process.exit(0);
  }
  // falls through (never reached)
  case "view": {
    const { flags, positional } = parse(rest, {
      "--files": "bool",
      "-r": "bool",
      "--raw": "bool",
      "-f": "value",
      "--filename": "value",
      "-w": "bool",
      "--web": "bool",
    });
    const gist = readGists().find((candidate) => candidate.id === positional[0]);
    if (gist === undefined)
      fail(`HTTP 404: Not Found (https://api.github.com/gists/${positional[0] ?? ""})`);
    if (flags["--files"] !== true) fail("fake gh: only gh gist view ID --files is implemented");
    process.stdout.write(
      Object.keys(gist.files)
        .sort()
        .map((name) => `${name}\n`)
        .join(""),
    );
    process.exit(0);
  }
  // falls through (never reached)
  case "delete": {
    const { flags, positional } = parse(rest, old ? {} : { "--yes": "bool" });
    if (positional.length !== 1) fail("cannot delete: gist argument required");
    if (!old && flags["--yes"] !== true) fail("--yes required when not running interactively");
    const gists = readGists();
    const id = positional[0]!.split("/").at(-1);
    if (!gists.some((gist) => gist.id === id)) {
      fail(`unable to delete gist ${id}: either the gist is not found or it is not owned by you`);
    }
    writeGists(gists.filter((gist) => gist.id !== id));
    process.exit(0);
  }
  // falls through (never reached)
  default:
    fail(`unknown command "${sub ?? ""}" for "gh gist"`);
}
