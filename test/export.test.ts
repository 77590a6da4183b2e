/**
 * `coord export` end to end: the built CLI against a fake `gh` on PATH that
 * implements gh's command-line contract and records what it was given. Checks the files
 * uploaded (names, contents, manifest), that secrets are absent, the exact printed lines and
 * Share URL, the options, and each failure's one-line message; and, when Debian's real gh is
 * installed, that a logged-out gh is reported as such.
 */
import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, test } from "vitest";
import type { ShareManifest } from "../src/session/share-manifest.js";
import { makeSandbox, runCli } from "./support/cli.js";
import { installFakeGh } from "./support/fake-gh.js";

const RUNS = new URL("./fixtures/logs/runs/", import.meta.url).pathname;
const MULTI = "log_20261121_095547_multi_turn";
const DEFAULT_VIEWER = "https://coord-cli.github.io/share";

/** A sandbox whose agent_outputs/ holds a copy of the fixture runs. */
async function sandboxWithRuns(): Promise<{ cwd: string; home: string; root: string }> {
  const sandbox = await makeSandbox();
  const root = join(sandbox.cwd, "agent_outputs");
  await cp(RUNS, root, { recursive: true });
  return { ...sandbox, root };
}

/** Every file under `dir`, relative, `/`-separated, sorted. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split("\\").join("/"))
    .sort();
}

describe("coord export with a fake gh", () => {
  test("uploads every file of every turn and attempt, unchanged, with the manifest; prints the lines and the Share URL", async () => {
    const sandbox = await sandboxWithRuns();
    const gh = await installFakeGh();
    const result = await runCli(["export", MULTI, "--yes"], { ...sandbox, env: gh.env });
    expect(result.code).toBe(0);

    const [gist, ...others] = await gh.gists();
    expect(others).toEqual([]);
    expect(gist!.public).toBe(false);
    expect(gist!.description).toBe("coord session: Which database should our team app use?");
    const logDir = join(sandbox.root, MULTI);
    const expectedPaths = await filesUnder(logDir);
    expect(Object.keys(gist!.files).sort()).toEqual(
      ["coord_manifest.json", ...expectedPaths.map((path) => path.split("/").join("__"))].sort(),
    );
    for (const path of expectedPaths) {
      expect(gist!.files[path.split("/").join("__")], path).toBe(
        await readFile(join(logDir, path), "utf8"),
      );
    }
    const totalBytes = Object.values(gist!.files).reduce(
      (sum, content) => sum + Buffer.byteLength(content),
      0,
    );
    expect(result.stdout).toBe(`Share URL: ${DEFAULT_VIEWER}/?gist=${gist!.id}\n`);

    const manifest = JSON.parse(gist!.files["coord_manifest.json"]!) as ShareManifest;
    expect(manifest).toMatchObject({
      format: "coord-share",
      version: 1,
      log_name: MULTI,
      question: "Which database should our team app use?",
      redacted: true,
      skipped: [],
    });
    expect(manifest.turns.map((turn) => [turn.turn, turn.attempts.map((a) => a.status)])).toEqual([
      [1, ["completed"]],
      [2, ["timeout", "completed"]],
    ]);
    expect(manifest.turns[1]!.question).toBe("It is getting slow under load: what next?");
    expect(manifest.turns[1]!.attempts[0]!.files.final_answer).toBeNull();
    expect(manifest.turns[1]!.attempts[1]!.files).toEqual({
      events: "turn_2__attempt_2__events.jsonl",
      status: "turn_2__attempt_2__status.json",
      metrics: "turn_2__attempt_2__metrics.json",
      final_answer: "turn_2__attempt_2__final_answer.md",
      execution_metadata: "turn_2__attempt_2__execution_metadata.yaml",
    });
    expect(manifest.turns[0]!.attempts[0]!.winner).toEqual(expect.any(String));
    expect(manifest.files.map((file) => file.path).sort()).toEqual(expectedPaths);

    // What gh was asked: the login check, then one secret gist of files named as in the gist.
    const calls = await gh.calls();
    expect(calls[0]).toEqual(["auth", "status"]);
    expect(calls[1]!.slice(0, 4)).toEqual([
      "gist",
      "create",
      "--desc",
      "coord session: Which database should our team app use?",
    ]);
    expect(calls[1]).not.toContain("--public");
    expect(calls).toHaveLength(2);

    // The progress lines on stderr: the collected path, the number of files and total bytes.
    const files = expectedPaths.length + 1;
    const kb = `${(totalBytes / 1000).toFixed(1)} KB (${totalBytes.toLocaleString("en-US")} bytes)`;
    expect(result.stderr).toBe(
      [
        `Collected agent_outputs/${MULTI} (turns 1, 2): ${files} files, ${kb}, secrets redacted`,
        "Uploading a secret gist with gh…",
        "",
      ].join("\n"),
    );
  });

  test("secrets are absent from everything uploaded; binaries, oversized, empty and debug files are skipped with a note", async () => {
    const sandbox = await sandboxWithRuns();
    const attempt = join(sandbox.root, MULTI, "turn_1", "attempt_1");
    const envKey = "env-provider-key-value-0001";
    const dotenvKey = "dotenv-provider-key-value-0002";
    const configKey = "config-literal-key-value-0003";
    await mkdir(join(sandbox.home, ".config", "coord"), { recursive: true });
    await writeFile(join(sandbox.home, ".config", "coord", ".env"), `ZAI_API_KEY=${dotenvKey}\n`);
    await mkdir(join(sandbox.cwd, ".coord"));
    await writeFile(
      join(sandbox.cwd, ".coord", "config.yaml"),
      `agents:\n  - id: a\n    backend: { type: openai, model: gpt-4o, api_key: ${configKey} }\n`,
    );
    await writeFile(
      join(attempt, "final_answer.md"),
      `Use Postgres. (debug: OPENAI_API_KEY=sk-proj-AAAABBBBCCCCDDDD1234 and ${envKey})\n`,
    );
    await mkdir(join(attempt, "workspace", "src"), { recursive: true });
    await writeFile(
      join(attempt, "workspace", "src", "settings.py"),
      `API_TOKEN = "${dotenvKey}"\npassword = "${configKey}"\nDEBUG = True\n`,
    );
    await writeFile(
      join(attempt, "workspace", "logo.png"),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]),
    );
    await writeFile(join(attempt, "workspace", "big.txt"), "x".repeat(1_000_001));
    await writeFile(join(attempt, "workspace", "empty.txt"), "");
    const debugLog = `request with ${envKey}\n`;
    await writeFile(join(sandbox.root, MULTI, "coord_debug.log"), debugLog);
    const gh = await installFakeGh();
    const env = { ...gh.env, MY_SERVICE_API_KEY: envKey };
    const result = await runCli(["export", MULTI, "--yes"], { ...sandbox, env });
    expect(result.code).toBe(0);
    const [gist] = await gh.gists();
    const everything = JSON.stringify(gist);
    for (const secret of [envKey, dotenvKey, configKey, "sk-proj-AAAABBBBCCCCDDDD1234"]) {
      expect(everything).not.toContain(secret);
    }
    expect(gist!.files["turn_1__attempt_1__final_answer.md"]).toBe(
      "Use Postgres. (debug: OPENAI_API_KEY=<redacted> and <redacted>)\n",
    );
    expect(gist!.files["turn_1__attempt_1__workspace__src__settings.py"]).toBe(
      'API_TOKEN = "<redacted>"\npassword = "<redacted>"\nDEBUG = True\n',
    );
    const manifest = JSON.parse(gist!.files["coord_manifest.json"]!) as ShareManifest;
    expect(manifest.skipped).toEqual([
      { path: "coord_debug.log", bytes: debugLog.length, reason: "debug_log" },
      { path: "turn_1/attempt_1/workspace/big.txt", bytes: 1_000_001, reason: "too_large" },
      { path: "turn_1/attempt_1/workspace/empty.txt", bytes: 0, reason: "empty" },
      { path: "turn_1/attempt_1/workspace/logo.png", bytes: 7, reason: "binary" },
    ]);
    expect(result.stderr).toContain(
      "Skipped turn_1/attempt_1/workspace/logo.png: binary file, 7 bytes\n",
    );
    expect(result.stderr).toContain(
      `Skipped coord_debug.log: the debug log is not shared, ${debugLog.length} bytes\n`,
    );

    const noWorkspace = await runCli(["export", MULTI, "--yes", "--no-workspace"], {
      ...sandbox,
      env,
    });
    expect(noWorkspace.code).toBe(0);
    const [second] = await gh.gists();
    expect(Object.keys(second!.files).filter((name) => name.includes("workspace"))).toEqual([]);
    expect(noWorkspace.stderr).toContain(
      "Skipped turn_1/attempt_1/workspace/src/settings.py: workspace file (--no-workspace)",
    );
  });

  test("--dry-run lists what would go and calls no gh; --json prints one document", async () => {
    const sandbox = await sandboxWithRuns();
    const gh = await installFakeGh();
    const dry = await runCli(["export", MULTI, "--dry-run"], { ...sandbox, env: gh.env });
    expect(dry.code).toBe(0);
    expect(dry.stdout.split("\n")[0]).toBe("Would upload (nothing was uploaded: --dry-run):");
    expect(dry.stdout).toContain("  turn_2__attempt_2__events.jsonl  ");
    expect(dry.stdout).toContain("  coord_manifest.json  ");
    expect(await gh.calls()).toEqual([]);

    const json = await runCli(["export", MULTI, "--json", "--yes", "--turns", "2"], {
      ...sandbox,
      env: gh.env,
    });
    expect(json.code).toBe(0);
    expect(json.stderr).toBe("");
    const [gist] = await gh.gists();
    const document = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(document).toMatchObject({
      version: 1,
      dry_run: false,
      turns: [2],
      gist_id: gist!.id,
      gist_url: `https://gist.github.com/tester/${gist!.id}`,
      share_url: `${DEFAULT_VIEWER}/?gist=${gist!.id}`,
      skipped: [],
    });
    expect(Object.keys(gist!.files).every((name) => !name.startsWith("turn_1"))).toBe(true);
    expect(gist!.description).toBe("coord session: It is getting slow under load: what next?");
  });

  test("--turns latest, a turn or attempt path, and the most recent log by default", async () => {
    const sandbox = await sandboxWithRuns();
    const gh = await installFakeGh();
    const latest = await runCli(["export", MULTI, "--turns", "latest", "--dry-run", "--json"], {
      ...sandbox,
      env: gh.env,
    });
    expect((JSON.parse(latest.stdout) as { turns: number[] }).turns).toEqual([2]);
    const latestLines = await runCli(["export", MULTI, "--turns", "latest", "--dry-run"], {
      ...sandbox,
      env: gh.env,
    });
    expect(latestLines.stderr).toMatch(
      new RegExp(`^Collected agent_outputs/${MULTI} \\(turn 2\\): \\d+ files, `),
    );
    const byPath = await runCli(
      ["export", `agent_outputs/${MULTI}/turn_1`, "--dry-run", "--json"],
      { ...sandbox, env: gh.env },
    );
    expect((JSON.parse(byPath.stdout) as { turns: number[] }).turns).toEqual([1]);
    const newest = await runCli(["export", "--dry-run", "--json"], { ...sandbox, env: gh.env });
    expect((JSON.parse(newest.stdout) as { log_dir: string }).log_dir).toBe(
      join(sandbox.root, "log_20261121_095554_crashed"),
    );
  });

  test.each([
    [["--turns", "3"], `has no turn 3 (turns: 1, 2): pick --turns among them`],
    [["--turns", "2-1"], "--turns must be all, latest, N or N-M (1-based, N <= M)"],
    [["--turns", "first"], "--turns must be all, latest, N or N-M"],
  ])("bad selection %j → exit 1, one line", async (args, message) => {
    const sandbox = await sandboxWithRuns();
    const gh = await installFakeGh();
    const result = await runCli(["export", MULTI, ...args, "--yes"], { ...sandbox, env: gh.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(await gh.gists()).toEqual([]);
  });

  test("the viewer URL comes from COORD_VIEWER_URL, else sharing.viewer_url in the discovered config", async () => {
    const sandbox = await sandboxWithRuns();
    const gh = await installFakeGh();
    await mkdir(join(sandbox.cwd, ".coord"));
    await writeFile(
      join(sandbox.cwd, ".coord", "config.yaml"),
      'sharing:\n  viewer_url: https://team.example/coord-share/\nagents:\n  - id: a\n    backend: { type: openai, model: gpt-4o, api_key: "${UNSET_KEY}" }\n',
    );
    const fromConfig = await runCli(["export", MULTI, "--yes"], { ...sandbox, env: gh.env });
    const [first] = await gh.gists();
    expect(fromConfig.stdout).toBe(
      `Share URL: https://team.example/coord-share/?gist=${first!.id}\n`,
    );
    const fromEnv = await runCli(["export", MULTI, "--yes"], {
      ...sandbox,
      env: { ...gh.env, COORD_VIEWER_URL: "http://localhost:5173" },
    });
    const [second] = await gh.gists();
    expect(fromEnv.stdout).toBe(`Share URL: http://localhost:5173/?gist=${second!.id}\n`);
    const bad = await runCli(["export", MULTI, "--yes"], {
      ...sandbox,
      env: { ...gh.env, COORD_VIEWER_URL: "ftp://nope" },
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'coord: COORD_VIEWER_URL "ftp://nope" must be an http:// or https:// URL (e.g. https://you.github.io/coord-share)\n',
    );
  });
});

describe("coord export's failures, each one line", () => {
  test("gh not installed", async () => {
    const sandbox = await sandboxWithRuns();
    const empty = await makeSandbox();
    const result = await runCli(["export", MULTI, "--yes"], {
      ...sandbox,
      env: { PATH: empty.cwd },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").at(-2)).toBe(
      "coord: the GitHub CLI (gh) is not installed: install it (https://cli.github.com; on Debian or Ubuntu: apt-get install gh), then run gh auth login",
    );
  });

  test("gh not logged in (the fake)", async () => {
    const sandbox = await sandboxWithRuns();
    const gh = await installFakeGh({ loggedIn: false });
    const result = await runCli(["export", MULTI, "--yes"], { ...sandbox, env: gh.env });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").at(-2)).toBe(
      "coord: gh is not logged in to GitHub: run gh auth login (or set GH_TOKEN), then try again (gh said: You are not logged into any GitHub hosts. Run gh auth login to authenticate.)",
    );
    expect(await gh.calls()).toEqual([["auth", "status"]]);
  });

  test("no --yes and stdin not a terminal: refused, nothing uploaded", async () => {
    const sandbox = await sandboxWithRuns();
    const gh = await installFakeGh();
    const result = await runCli(["export", MULTI], { ...sandbox, env: gh.env });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").at(-2)).toBe(
      "coord: coord export uploads the run to a GitHub gist: add --yes to confirm (stdin is not a terminal)",
    );
    expect(await gh.gists()).toEqual([]);
  });

  const realGh = spawnSync("gh", ["--version"], { stdio: "ignore" }).status === 0;
  test.runIf(realGh)("Debian's real gh, logged out: reported as not logged in", async () => {
    const sandbox = await sandboxWithRuns();
    // A fresh HOME and no GH_TOKEN / GITHUB_TOKEN: gh knows no host and asks nothing online.
    const result = await runCli(["export", MULTI, "--yes"], {
      ...sandbox,
      env: { PATH: "/usr/bin:/bin", XDG_CONFIG_HOME: join(sandbox.home, ".config") },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n").at(-2)).toMatch(
      /^coord: gh is not logged in to GitHub: run gh auth login \(or set GH_TOKEN\), then try again \(gh said: .*gh auth login.*\)$/,
    );
  });
});
