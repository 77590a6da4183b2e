/**
 * `coord eval` against a simulated truth (issue 20, "How it must be shown"): three agents behind
 * the fake OpenAI server answer right with a seeded probability p and vote for the answer that
 * holds their own number (test/support/eval-sim.ts). For several p the report must agree with
 *
 * - the theory: each method's expected accuracy lies inside its Wilson 95 % interval;
 * - the realized draws: each method's right-answer count equals the one the test derives from
 *   the simulated agents' own draws;
 * - the spend: the team's voting protocol costs 7 calls per item (3 answers, 3 votes, 1 final),
 *   so self-consistency gets k = 7 and the same 7 calls; an agent alone 1; the quick team 4.
 *
 * Runs in process (the eval over real sockets through the real runner and SDK clients).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { evaluate, type EvalReport, type MethodReport } from "../src/eval/index.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";
import {
  type Draw,
  simulatedAgents,
  simulatedDataset,
  simulatedTeamConfig,
} from "./support/eval-sim.js";

const AGENTS = ["sim-1", "sim-2", "sim-3"];
const ITEMS = 24;

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Scenario {
  p: Record<string, number>;
  seed: number;
  withQuick: boolean;
  concurrency: number;
}

async function simulate(scenario: Scenario) {
  const sim = simulatedAgents({ p: scenario.p, seed: scenario.seed });
  server = await startFakeOpenAIServer(sim.handler);
  const cwd = await mkdtemp(join(tmpdir(), "coord-eval-sim-"));
  await writeFile(join(cwd, "data.jsonl"), simulatedDataset(ITEMS));
  await writeFile(join(cwd, "team.yaml"), simulatedTeamConfig(server.url, AGENTS.length));
  let stderr = "";
  const result = await evaluate(
    {
      dataset: "data.jsonl",
      config: "team.yaml",
      fields: { question: "question", answer: "answer" },
      selection: { kind: "all" },
      scorer: "gsm8k",
      withQuick: scenario.withQuick,
      concurrency: scenario.concurrency,
      logs: false,
      yes: true,
    },
    {
      stderr: { write: (text: string) => ((stderr += text), true) },
      env: {},
      cwd,
      home: cwd,
      argv: [],
      version: "test",
      signal: new AbortController().signal,
      confirm: undefined,
      now: () => Date.now(),
    },
  );
  if (result.kind !== "report") throw new Error(`the eval ended ${result.kind}: ${stderr}`);
  return { report: result.report, sim };
}

// ---------------------------------------------------------------------------------------------
// The simulated truth, from the protocol's rules (not from coord's code).

/** P(at least two of three right) + P(only the first right): plurality with a tie to agent 1. */
function teamTheory(p: readonly number[]): number {
  let total = 0;
  for (let mask = 0; mask < 8; mask++) {
    const right = [0, 1, 2].map((bit) => (mask >> bit) & 1);
    const probability = right.reduce(
      (product, r, index) => product * (r ? p[index]! : 1 - p[index]!),
      1,
    );
    const count = right.reduce((sum, r) => sum + r, 0);
    if (count >= 2 || (count === 1 && right[0] === 1)) total += probability;
  }
  return total;
}

/** Majority of k samples with distinct wrong answers: ≥ 2 right, or only the first right. */
function selfConsistencyTheory(p: number, k: number): number {
  const atMostOne = (1 - p) ** k + k * p * (1 - p) ** (k - 1);
  return 1 - atMostOne + p * (1 - p) ** (k - 1);
}

/** Right answers per method, derived from the draws. */
function realizedTruth(draws: readonly Draw[], options: { withQuick: boolean }) {
  const of = (filter: (draw: Draw) => boolean) => draws.filter(filter);
  const plurality = (right: readonly boolean[]) => {
    const count = right.filter(Boolean).length;
    return count >= 2 || (count === 1 && right[0] === true);
  };
  let team = 0;
  let quick = 0;
  let selfConsistency = 0;
  const alone = new Map(AGENTS.map((agent) => [agent, 0]));
  for (let item = 1; item <= ITEMS; item++) {
    const teamDraws = AGENTS.map((agent) =>
      of((draw) => draw.team && draw.item === item && draw.agent === agent),
    );
    // One at a time, item by item: the team's run comes before the quick team's.
    if (plurality(teamDraws.map((list) => list[0]!.correct))) team++;
    if (options.withQuick && plurality(teamDraws.map((list) => list[1]!.correct))) quick++;
    for (const agent of AGENTS) {
      const first = of((draw) => !draw.team && draw.item === item && draw.agent === agent)[0]!;
      if (first.correct) alone.set(agent, alone.get(agent)! + 1);
    }
    const samples = of((draw) => !draw.team && draw.item === item && draw.agent === AGENTS[0]);
    if (plurality(samples.map((draw) => draw.correct))) selfConsistency++;
  }
  return { team, quick, alone, selfConsistency };
}

function method(report: EvalReport, id: string): MethodReport {
  const found = report.methods.find((entry) => entry.id === id);
  if (!found) throw new Error(`no method ${id} in the report`);
  return found;
}

function expectInside(row: MethodReport, expected: number): void {
  expect(row.n).toBe(ITEMS);
  const where = `${row.label} (${row.correct}/${row.n}): ${expected.toFixed(3)} inside ${row.ci95.low.toFixed(3)}–${row.ci95.high.toFixed(3)}`;
  expect(expected, where).toBeGreaterThanOrEqual(row.ci95.low);
  expect(expected, where).toBeLessThanOrEqual(row.ci95.high);
}

describe("coord eval on simulated agents", () => {
  const scenarios: Array<[string, Scenario]> = [
    [
      "p = 0.3 for every agent",
      {
        p: { "sim-1": 0.3, "sim-2": 0.3, "sim-3": 0.3 },
        seed: 11,
        withQuick: false,
        concurrency: 4,
      },
    ],
    [
      "p = 0.6, with the quick team, one run at a time",
      {
        p: { "sim-1": 0.6, "sim-2": 0.6, "sim-3": 0.6 },
        seed: 12,
        withQuick: true,
        concurrency: 1,
      },
    ],
    [
      "p = 0.5, 0.9, 0.4 (one strong agent)",
      {
        p: { "sim-1": 0.5, "sim-2": 0.9, "sim-3": 0.4 },
        seed: 13,
        withQuick: false,
        concurrency: 4,
      },
    ],
  ];

  test.each(scenarios)(
    "%s: accuracies match the simulated truth, calls match",
    async (_name, scenario) => {
      const { report, sim } = await simulate(scenario);
      const p = AGENTS.map((agent) => scenario.p[agent]!);

      // Spend: the protocol's 7 calls per item; k matched to it.
      expect(method(report, "team").calls_per_item).toBe(7);
      expect(report.self_consistency).toMatchObject({
        k: 7,
        k_source: "matched",
        team_calls_per_item: 7,
      });
      expect(method(report, "self-consistency").calls_per_item).toBe(7);
      for (const agent of AGENTS) expect(method(report, `agent:${agent}`).calls_per_item).toBe(1);
      if (scenario.withQuick) expect(method(report, "quick").calls_per_item).toBe(4);
      const teams = scenario.withQuick ? 2 : 1;
      expect(sim.calls.answer).toBe(ITEMS * (3 * teams + 3 + 6));
      expect(sim.calls.vote).toBe(ITEMS * 3);
      expect(sim.calls.present).toBe(ITEMS * teams);
      for (const row of report.methods) expect(row.failed_runs).toBe(0);

      // The realized truth, exactly.
      const truth = realizedTruth(sim.draws, { withQuick: scenario.withQuick });
      expect(method(report, "team").correct).toBe(truth.team);
      if (scenario.withQuick) expect(method(report, "quick").correct).toBe(truth.quick);
      for (const agent of AGENTS)
        expect(method(report, `agent:${agent}`).correct).toBe(truth.alone.get(agent));
      expect(method(report, "self-consistency").correct).toBe(truth.selfConsistency);
      expect(method(report, "best-agent-oracle").correct).toBe(Math.max(...truth.alone.values()));
      expect(report.coverage.n).toBe(ITEMS);

      // The theory, inside the 95 % intervals.
      expectInside(method(report, "team"), teamTheory(p));
      if (scenario.withQuick) expectInside(method(report, "quick"), teamTheory(p));
      for (const [index, agent] of AGENTS.entries())
        expectInside(method(report, `agent:${agent}`), p[index]!);
      expectInside(method(report, "self-consistency"), selfConsistencyTheory(p[0]!, 7));
      // The held-out choice is p_best in expectation, but when agents are about equally good the
      // choice flips between items with their outcomes, so its count varies more than a binomial
      // and its interval covers less than 95 %: checked only where one agent stands out.
      const ranked = [...p].sort((a, b) => b - a);
      if (ranked[0]! - ranked[1]! >= 0.3)
        expectInside(method(report, "best-agent-held-out"), ranked[0]!);

      // McNemar's counts pair the same items.
      const single = method(report, `agent:${AGENTS[0]}`);
      expect(single.vs_team!.team_only - single.vs_team!.method_only).toBe(
        truth.team - truth.alone.get(AGENTS[0]!)!,
      );
    },
    240_000,
  );
});
