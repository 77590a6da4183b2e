/**
 * `coord shares list|delete` end to end against the fake gh: only gists
 * carrying coord's description and manifest are listed or deleted; delete asks (`--yes` skips
 * it; without a terminal `--yes` is required); old gh without `--yes` on `gist delete` works; the
 * confirmation answered in a real terminal (tmux).
 */
import { cp, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { CLI, makeSandbox, runCli } from "./support/cli.js";
import { type FakeGh, installFakeGh } from "./support/fake-gh.js";
import { hasTmux, TmuxPane } from "./support/tmux.js";

const RUNS = new URL("./fixtures/logs/runs/", import.meta.url).pathname;
const VIEWER = "https://coord-cli.github.io/share";

/** A sandbox with the fixture runs, two of them shared, and one unrelated gist. */
async function withShares(version: "new" | "old" = "new") {
  const sandbox = await makeSandbox();
  await cp(RUNS, join(sandbox.cwd, "agent_outputs"), { recursive: true });
  const gh = await installFakeGh({ version });
  for (const log of ["log_20261121_095544_three_agents", "log_20261121_095547_multi_turn"]) {
    const result = await runCli(["export", log, "--yes"], { ...sandbox, env: gh.env });
    expect(result.code).toBe(0);
  }
  // Someone's own gist, made with gh directly.
  const notes = join(sandbox.cwd, "notes.md");
  await writeFile(notes, "my notes\n");
  await runGh(gh, sandbox, ["gist", "create", "--desc", "my notes", notes]);
  return { sandbox, gh };
}

async function runGh(gh: FakeGh, sandbox: { cwd: string; home: string }, args: string[]) {
  const { spawnSync } = await import("node:child_process");
  const result = spawnSync("gh", args, {
    cwd: sandbox.cwd,
    env: { ...process.env, ...gh.env },
    encoding: "utf8",
  });
  expect(result.status).toBe(0);
}

describe("coord shares", () => {
  test("list: the coord shares only, newest first, with id, date, question and URL; --json", async () => {
    const { sandbox, gh } = await withShares();
    const [, multi, three] = await gh.gists(); // newest first: notes, multi_turn, three_agents
    const result = await runCli(["shares", "list"], { ...sandbox, env: gh.env });
    expect(result.code).toBe(0);
    const date = (gist: typeof multi) =>
      gist!.updated_at.replace(/^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}).*$/, "$1 $2");
    const rows = [
      ["ID", "DATE", "QUESTION", "URL"],
      [
        multi!.id,
        date(multi),
        "Which database should our team app use?",
        `${VIEWER}/?gist=${multi!.id}`,
      ],
      [three!.id, date(three), "What is the capital of France?", `${VIEWER}/?gist=${three!.id}`],
    ];
    const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
    expect(result.stdout).toBe(
      rows
        .map((row) =>
          row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join("  "),
        )
        .join("\n") + "\n",
    );
    expect((await gh.calls()).slice(-2)).toEqual([
      ["auth", "status"],
      ["gist", "list", "--limit", "100"],
    ]);

    const json = await runCli(["shares", "list", "--json", "--limit", "2"], {
      ...sandbox,
      env: gh.env,
    });
    expect(JSON.parse(json.stdout)).toEqual([
      {
        id: multi!.id,
        date: multi!.updated_at.replace(/\.\d{3}Z$/, "Z"),
        question: "Which database should our team app use?",
        url: `${VIEWER}/?gist=${multi!.id}`,
        gist_url: `https://gist.github.com/${multi!.id}`,
      },
    ]);
  });

  test("delete: refused without --yes off a terminal; with --yes the gist is gone; a share URL works too", async () => {
    const { sandbox, gh } = await withShares();
    const [, multi, three] = await gh.gists();
    const refused = await runCli(["shares", "delete", multi!.id], { ...sandbox, env: gh.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `coord: coord shares delete removes the gist ${multi!.id}: add --yes to confirm (stdin is not a terminal)\n`,
    );
    expect((await gh.gists()).map((gist) => gist.id)).toContain(multi!.id);

    const deleted = await runCli(["shares", "delete", multi!.id, "--yes"], {
      ...sandbox,
      env: gh.env,
    });
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toBe(`Deleted ${multi!.id}\n`);
    expect((await gh.gists()).map((gist) => gist.id)).not.toContain(multi!.id);
    expect((await gh.calls()).at(-1)).toEqual(["gist", "delete", multi!.id, "--yes"]);

    const byUrl = await runCli(["shares", "delete", `${VIEWER}/?gist=${three!.id}`, "--yes"], {
      ...sandbox,
      env: gh.env,
    });
    expect(byUrl.code).toBe(0);
    expect((await gh.gists()).map((gist) => gist.description)).toEqual(["my notes"]);
  });

  test("delete refuses a gist that is not a coord share, and an unknown id", async () => {
    const { sandbox, gh } = await withShares();
    const [notes] = await gh.gists();
    const result = await runCli(["shares", "delete", notes!.id, "--yes"], {
      ...sandbox,
      env: gh.env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `coord: gist ${notes!.id} is not a coord share (it has no coord_manifest.json): coord deletes only its own shares; use gh gist delete ${notes!.id} if you mean it\n`,
    );
    const unknown = await runCli(["shares", "delete", "0123456789abcdef", "--yes"], {
      ...sandbox,
      env: gh.env,
    });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      "coord: gist 0123456789abcdef not found (coord shares list shows your shares)\n",
    );
    expect(await gh.gists()).toHaveLength(3);
  });

  test("old gh (no --yes on gist delete, as Debian 12's 2.23): delete still works", async () => {
    const { sandbox, gh } = await withShares("old");
    const [, multi] = await gh.gists();
    const result = await runCli(["shares", "delete", multi!.id, "--yes"], {
      ...sandbox,
      env: gh.env,
    });
    expect(result.code).toBe(0);
    expect((await gh.calls()).slice(-2)).toEqual([
      ["gist", "delete", multi!.id, "--yes"],
      ["gist", "delete", multi!.id],
    ]);
    expect((await gh.gists()).map((gist) => gist.id)).not.toContain(multi!.id);
  });

  test("not logged in: one line saying what to run", async () => {
    const sandbox = await makeSandbox();
    const gh = await installFakeGh({ loggedIn: false });
    const result = await runCli(["shares", "list"], { ...sandbox, env: gh.env });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^coord: gh is not logged in to GitHub: run gh auth login/);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  test.runIf(hasTmux())("delete asks in a terminal: n keeps the gist, y deletes it", async () => {
    const { sandbox, gh } = await withShares();
    const [, multi] = await gh.gists();
    const env = Object.entries({ HOME: sandbox.home, ...gh.env })
      .map(([name, value]) => `${name}='${value}'`)
      .join(" ");
    const command = `cd '${sandbox.cwd}' && env ${env} '${process.execPath}' '${CLI}' shares delete ${multi!.id}; echo EXIT=$?; sleep 30`;
    const no = new TmuxPane(command, { columns: 120, rows: 20 });
    try {
      await no.waitFor("Delete the shared run");
      expect(no.screen()).toContain("Which database should our team app use?");
      no.keys("n");
      no.keys("Enter");
      await no.waitFor("EXIT=1");
      expect(no.screen()).toContain("cancelled: nothing was changed");
    } finally {
      no.close();
    }
    expect((await gh.gists()).map((gist) => gist.id)).toContain(multi!.id);
    const yes = new TmuxPane(command, { columns: 120, rows: 20 });
    try {
      await yes.waitFor("Delete the shared run");
      yes.keys("y");
      yes.keys("Enter");
      await yes.waitFor("EXIT=0");
      expect(yes.screen()).toContain(`Deleted ${multi!.id}`);
    } finally {
      yes.close();
    }
    expect((await gh.gists()).map((gist) => gist.id)).not.toContain(multi!.id);
  });
});
