/**
 * The conclusion groups in a run's logs, end to end: the built CLI runs a
 * scripted team where two agents reach 18 in different words and a third says 20, then
 * `coord logs summary` (text and `--json`) and the status.json written at the run's end show
 * each group's conclusion, its agents and answers, its votes, and which one won.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { LogsSummaryJson } from "../src/logs/run-summary.js";
import type { StatusJson } from "../src/session/index.js";
import { makeSandbox, onlyAttemptDir, runCli } from "./support/cli.js";
import { CONCLUSION_QUESTION, CONCLUSION_TEAM_YAML } from "./support/conclusion-team.js";

let box: { cwd: string; home: string };

beforeAll(async () => {
  box = await makeSandbox();
  await writeFile(join(box.cwd, "team.yaml"), CONCLUSION_TEAM_YAML);
  const run = await runCli(["--config", "team.yaml", "--no-display", CONCLUSION_QUESTION], box);
  expect(run.code).toBe(0);
  // The plain trace (stderr) has the same groups on one line.
  expect(run.stderr).toContain(
    "[orchestrator] Answers by conclusion: 18: 2 votes, 2 agents · 20: 1 vote, 1 agent",
  );
  expect(run.stdout).toContain("Final answer: 18");
});

const groups = [
  {
    conclusion: "18",
    labels: ["agent1.1", "agent2.1"],
    agent_ids: ["alice", "bob"],
    votes: 2,
    agents: 2,
    first_answers: 2,
    won: true,
  },
  {
    conclusion: "20",
    labels: ["agent3.1"],
    agent_ids: ["carol"],
    votes: 1,
    agents: 1,
    first_answers: 1,
    won: false,
  },
];

describe("coord logs summary of a run whose votes split between equal numbers", () => {
  test("text: the winner, then one line per conclusion group, the winner's starred", async () => {
    const result = await runCli(["logs", "summary"], box);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    const at = lines.findIndex((line) => line.startsWith("Winner:"));
    expect(lines.slice(at, at + 4)).toEqual([
      "Winner:   alice (agent1.1, 2 votes)",
      "Groups:   ★ 18: 2 votes; alice, bob (agent1.1, agent2.1)",
      "            20: 1 vote; carol (agent3.1)",
      "Final:    agent1.final (presentation, 36 characters)",
    ]);
  });

  test("--json: the winner's conclusion and the groups as structured fields", async () => {
    const result = await runCli(["logs", "summary", "--json"], box);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as LogsSummaryJson;
    expect(summary.winner).toEqual({
      agent_id: "alice",
      anon_id: "agent1",
      label: "agent1.1",
      votes: 2,
      tie_broken: false,
      basis: "votes",
      tie_basis: null,
      conclusion: "18",
      groups,
    });
  });

  test("status.json, written at the run's end, carries the same groups", async () => {
    const attempt = await onlyAttemptDir(box.cwd);
    const status = JSON.parse(await readFile(join(attempt, "status.json"), "utf8")) as StatusJson;
    expect(status.winner).toMatchObject({ conclusion: "18", tie_basis: null, groups });
  });
});
