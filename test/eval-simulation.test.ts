/**
 * `coord eval` against a simulated truth: three agents behind
 * the fake OpenAI server answer right with a seeded probability p and vote for the answer that
 * holds their own number (test/support/eval-sim.ts). For several p the report must agree with
 *
 * - the theory: each method's expected accuracy lies inside its Wilson 95 % interval;
 * - the realized draws: each method's right-answer count equals the one the test derives from
 *   the simulated agents' own draws (the team's within bounds: when one agent alone is right,
 *   the 1–1–1 tie goes to the earliest answer, which the draws do not fix);
 * - the spend: the team's voting protocol costs 7 calls per item (3 answers, 3 votes, 1 final),
 *   so self-consistency gets k = 7 and the same 7 calls; an agent alone 1; the quick team 4;
 *   self-consistency samples the best agent alone, also at k matched on tokens;
 * - the selection loss: measured on every item, and zero in the vote (the simulated agents vote
 *   for the answer with their own number, so two right agents always agree).
 *
 * The three first scenarios run without the tie round (`orchestrator.tie_break: none`), so the
 * protocol's spend is fixed; the fourth with the default `fresh_answers`: a 1–1–1 tie (at most
 * one right first answer: every agent votes for its own number) costs 6 more calls (3 fresh
 * answers, 3 votes), and the team's right answers follow from the fresh draws too.
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
  tieBreak: "none" | "fresh_answers";
}

async function simulate(scenario: Scenario) {
  const sim = simulatedAgents({ p: scenario.p, seed: scenario.seed });
  server = await startFakeOpenAIServer(sim.handler);
  const cwd = await mkdtemp(join(tmpdir(), "coord-eval-sim-"));
  await writeFile(join(cwd, "data.jsonl"), simulatedDataset(ITEMS));
  await writeFile(
    join(cwd, "team.yaml"),
    `${simulatedTeamConfig(server.url, AGENTS.length)}orchestrator:\n  tie_break: ${scenario.tieBreak}\n`,
  );
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

/**
 * The team's accuracy bounds: at least two of three right wins the vote (their votes meet on one
 * conclusion); exactly one right wins only when its answer came first (the tie rule): between
 * P(≥ 2 right) and P(≥ 1 right).
 */
function teamTheory(p: readonly number[]): { low: number; high: number } {
  let low = 0;
  let high = 0;
  for (let mask = 0; mask < 8; mask++) {
    const right = [0, 1, 2].map((bit) => (mask >> bit) & 1);
    const probability = right.reduce(
      (product, r, index) => product * (r ? p[index]! : 1 - p[index]!),
      1,
    );
    const count = right.reduce((sum, r) => sum + r, 0);
    if (count >= 2) low += probability;
    if (count >= 1) high += probability;
  }
  return { low, high };
}

/** The quick team: at least two right, or only the first right (its presenter's majority, a tie to its own). */
function quickTheory(p: readonly number[]): number {
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

/** Right answers per method, derived from the draws (the team's as bounds). */
function realizedTruth(draws: readonly Draw[], options: { withQuick: boolean; samples: number }) {
  const of = (filter: (draw: Draw) => boolean) => draws.filter(filter);
  const plurality = (right: readonly boolean[]) => {
    const count = right.filter(Boolean).length;
    return count >= 2 || (count === 1 && right[0] === true);
  };
  const team = { low: 0, high: 0 };
  let quick = 0;
  const alone = new Map(AGENTS.map((agent) => [agent, 0]));
  for (let item = 1; item <= ITEMS; item++) {
    const teamDraws = AGENTS.map((agent) =>
      of((draw) => draw.team && draw.item === item && draw.agent === agent),
    );
    // One at a time, item by item: the team's run comes before the quick team's.
    const right = teamDraws.filter((list) => list[0]!.correct).length;
    if (right >= 2) team.low++;
    if (right >= 1) team.high++;
    if (options.withQuick && plurality(teamDraws.map((list) => list[1]!.correct))) quick++;
    for (const agent of AGENTS) {
      const first = of((draw) => !draw.team && draw.item === item && draw.agent === agent)[0]!;
      if (first.correct) alone.set(agent, alone.get(agent)! + 1);
    }
  }
  // Self-consistency samples the agent with the most right answers alone (ties: config order).
  const best = AGENTS.reduce((top, agent) => (alone.get(agent)! > alone.get(top)! ? agent : top));
  let selfConsistency = 0;
  for (let item = 1; item <= ITEMS; item++) {
    const samples = of((draw) => !draw.team && draw.item === item && draw.agent === best);
    if (plurality(samples.slice(0, 7).map((draw) => draw.correct))) selfConsistency++;
  }
  expect(options.samples).toBeGreaterThanOrEqual(7);
  return { team, quick, alone, selfConsistency, best };
}

/**
 * The team with the `fresh_answers` tie round, from the draws: items whose first answers hold at
 * most one right one are tied (each agent votes for its own number) and get fresh answers, then a
 * vote. Then ≥ 2 right fresh answers win the vote; one right fresh answer wins on evidence when a
 * right first answer exists (its group counts one more agent or one more first answer), else it
 * ties with the wrong ones (the earliest answer: bounds); none right: the right group, if any,
 * holds no current answer and cannot win.
 */
function tieRoundTruth(draws: readonly Draw[]) {
  const team = { low: 0, high: 0 };
  let tied = 0;
  let hadRight = 0;
  for (let item = 1; item <= ITEMS; item++) {
    const lists = AGENTS.map((agent) =>
      draws.filter((draw) => draw.team && draw.item === item && draw.agent === agent),
    );
    const first = lists.filter((list) => list[0]!.correct).length;
    if (first >= 2) {
      team.low++;
      team.high++;
      hadRight++;
      continue;
    }
    tied++;
    const fresh = lists.filter((list) => list[1]!.correct).length;
    if (first + fresh > 0) hadRight++;
    if (fresh >= 2 || (fresh === 1 && first === 1)) team.low++;
    if (fresh >= 1) team.high++;
  }
  return { team, tied, hadRight };
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
        tieBreak: "none",
      },
    ],
    [
      "p = 0.6, with the quick team, one run at a time",
      {
        p: { "sim-1": 0.6, "sim-2": 0.6, "sim-3": 0.6 },
        seed: 12,
        withQuick: true,
        concurrency: 1,
        tieBreak: "none",
      },
    ],
    [
      "p = 0.5, 0.9, 0.4 (one strong agent)",
      {
        p: { "sim-1": 0.5, "sim-2": 0.9, "sim-3": 0.4 },
        seed: 13,
        withQuick: false,
        concurrency: 4,
        tieBreak: "none",
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
      const samples = Math.max(7, report.self_consistency.k_tokens ?? 0);
      expect(sim.calls.answer).toBe(ITEMS * (3 * teams + 3 + samples - 1));
      expect(sim.calls.vote).toBe(ITEMS * 3);
      expect(sim.calls.present).toBe(ITEMS * teams);
      for (const row of report.methods) expect(row.failed_runs).toBe(0);

      // The realized truth, exactly (the team's within its bounds).
      const truth = realizedTruth(sim.draws, { withQuick: scenario.withQuick, samples });
      const team = method(report, "team").correct;
      expect(team).toBeGreaterThanOrEqual(truth.team.low);
      expect(team).toBeLessThanOrEqual(truth.team.high);
      if (scenario.withQuick) expect(method(report, "quick").correct).toBe(truth.quick);
      for (const agent of AGENTS)
        expect(method(report, `agent:${agent}`).correct).toBe(truth.alone.get(agent));
      expect(report.self_consistency).toMatchObject({ agent: truth.best, agent_source: "best" });
      expect(method(report, "self-consistency").correct).toBe(truth.selfConsistency);
      expect(method(report, "best-agent-oracle").correct).toBe(Math.max(...truth.alone.values()));
      expect(report.coverage.n).toBe(ITEMS);
      // No right answer is lost in the vote: two right agents vote for one conclusion, and one
      // right agent alone holds a tie it may lose only by answer order (counted as vote loss).
      expect(report.selection_loss).toMatchObject({ measured: ITEMS, presentation_loss: 0 });
      expect(report.selection_loss!.vote_loss).toBe(truth.team.high - team);

      // The theory, inside the 95 % intervals.
      const bounds = teamTheory(p);
      const row = method(report, "team");
      expect(bounds.high).toBeGreaterThanOrEqual(row.ci95.low);
      expect(bounds.low).toBeLessThanOrEqual(row.ci95.high);
      if (scenario.withQuick) expectInside(method(report, "quick"), quickTheory(p));
      for (const [index, agent] of AGENTS.entries())
        expectInside(method(report, `agent:${agent}`), p[index]!);
      expectInside(
        method(report, "self-consistency"),
        selfConsistencyTheory(p[AGENTS.indexOf(truth.best)]!, 7),
      );

      // McNemar's counts pair the same items.
      const single = method(report, `agent:${AGENTS[0]}`);
      expect(single.vs_team!.team_only - single.vs_team!.method_only).toBe(
        team - truth.alone.get(AGENTS[0]!)!,
      );
    },
    240_000,
  );

  test("p = 0.5 with the tie round (fresh_answers): 6 more calls on each tie only, the fresh draws count", async () => {
    const { report, sim } = await simulate({
      p: { "sim-1": 0.5, "sim-2": 0.5, "sim-3": 0.5 },
      seed: 14,
      withQuick: false,
      concurrency: 4,
      tieBreak: "fresh_answers",
    });
    const truth = tieRoundTruth(sim.draws);
    expect(truth.tied).toBeGreaterThan(0);
    expect(truth.tied).toBeLessThan(ITEMS);
    const row = method(report, "team");
    expect(row.calls_per_item).toBeCloseTo(7 + (6 * truth.tied) / ITEMS, 9);
    expect(sim.calls.vote).toBe(ITEMS * 3 + truth.tied * 3);
    expect(row.failed_runs).toBe(0);
    expect(row.correct).toBeGreaterThanOrEqual(truth.team.low);
    expect(row.correct).toBeLessThanOrEqual(truth.team.high);
    expect(report.selection_loss).toMatchObject({ measured: ITEMS, presentation_loss: 0 });
    expect(report.selection_loss!.vote_loss).toBe(truth.hadRight - row.correct);
  }, 240_000);
});
