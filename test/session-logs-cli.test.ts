/**
 * Where a continued session logs (spec §2 "Log directory"), on the built CLI: a turn
 * run by a later coord process (`-c/--continue`, `--session-id`) is a new run, logged in a new
 * `log_<YYYYMMDD>_<HHMMSS>[_<n>]/turn_<n>/attempt_1/` under the log root of the directory it runs
 * in, never in the first run's directory; `coord logs` there finds it.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";

/** One scripted agent answering `answer`. */
function scriptedConfig(answer: string): string {
  return [
    "agents:",
    "  - id: solo",
    "    backend:",
    "      type: scripted",
    "      steps:",
    `        - answer: ${JSON.stringify(answer)}`,
  ].join("\n");
}

interface RunJson {
  session_id: string;
  log_dir: string;
}

/** The `log_…` directories under `<cwd>/agent_outputs`, each with its `turn_<n>` entries. */
async function logTree(cwd: string): Promise<Record<string, string[]>> {
  const root = join(cwd, "agent_outputs");
  const tree: Record<string, string[]> = {};
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (name.startsWith("log_")) tree[name] = (await readdir(join(root, name))).sort();
  }
  return tree;
}

describe("a continued session's logs", () => {
  test("-c logs each later turn in a new log directory of this directory", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), scriptedConfig("Paris."));
    const first = await runCli(["--config", "team.yaml", "--json", "Capital of France?"], box);
    expect(first.code).toBe(0);
    const firstRun = JSON.parse(first.stdout) as RunJson;
    const second = await runCli(["--config", "team.yaml", "-c", "--json", "And Italy?"], box);
    expect(second.code).toBe(0);
    const third = await runCli(["--config", "team.yaml", "--continue", "--json", "Spain?"], box);
    expect(third.code).toBe(0);
    const secondRun = JSON.parse(second.stdout) as RunJson;
    const thirdRun = JSON.parse(third.stdout) as RunJson;
    expect(secondRun.session_id).toBe(firstRun.session_id);
    expect(thirdRun.session_id).toBe(firstRun.session_id);

    // Three runs, three log directories (a `_2` suffix when two start in the same second), each
    // with the session's turn number of its run.
    const tree = await logTree(box.cwd);
    expect(Object.values(tree).sort()).toEqual([["turn_1"], ["turn_2"], ["turn_3"]]);
    expect(secondRun.log_dir).toMatch(/agent_outputs\/log_\d{8}_\d{6}(_\d+)?\/turn_2\/attempt_1$/);
    expect(thirdRun.log_dir).toMatch(/\/turn_3\/attempt_1$/);

    // coord logs finds the latest turn's run, and lists the three.
    const summary = await runCli(["logs", "--json"], box);
    expect(summary.code).toBe(0);
    expect(JSON.parse(summary.stdout)).toMatchObject({
      attempt_dir: thirdRun.log_dir,
      turn: 3,
      question: "Spain?",
    });
    const list = await runCli(["logs", "list", "--json"], box);
    const runs = (JSON.parse(list.stdout) as { runs: { question: string; status: string }[] }).runs;
    expect(runs.map((run) => [run.question, run.status])).toEqual([
      ["Spain?", "completed"],
      ["And Italy?", "completed"],
      ["Capital of France?", "completed"],
    ]);
    // The session names its latest run's directory.
    const [session] = JSON.parse((await runCli(["--list-sessions", "--json"], box)).stdout) as {
      log_dir: string;
      turns: number;
    }[];
    expect(session).toMatchObject({ turns: 3 });
    expect(join(session!.log_dir, "turn_3", "attempt_1")).toBe(thirdRun.log_dir);
  });

  test("--session-id from another directory logs there, not in the first run's directory", async () => {
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), scriptedConfig("Paris."));
    const first = await runCli(["--config", "team.yaml", "--json", "Capital of France?"], box);
    expect(first.code).toBe(0);
    const { session_id: id } = JSON.parse(first.stdout) as RunJson;
    const elsewhere = join(box.cwd, "..", "elsewhere");
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, "team.yaml"), scriptedConfig("Rome."));
    const later = await runCli(["--config", "team.yaml", "--session-id", id, "--json", "Italy?"], {
      ...box,
      cwd: elsewhere,
    });
    expect(later.code).toBe(0);
    const laterRun = JSON.parse(later.stdout) as RunJson;
    expect(laterRun.log_dir.startsWith(join(elsewhere, "agent_outputs", "log_"))).toBe(true);
    expect(Object.values(await logTree(box.cwd))).toEqual([["turn_1"]]);
    expect(Object.values(await logTree(elsewhere))).toEqual([["turn_2"]]);
    const summary = await runCli(["logs", "--json"], { ...box, cwd: elsewhere });
    expect(JSON.parse(summary.stdout)).toMatchObject({ turn: 2, question: "Italy?" });
  });
});
