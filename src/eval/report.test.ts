/**
 * The report from stored runs: self-consistency's majority (a tie to the first sample), at equal
 * calls and at equal tokens, the best agent as an oracle, McNemar's pairing with the team, spend
 * means (cost unknown when any call had no price), judge verdicts, the team's selection loss, and
 * items left out when a run is missing.
 */
import { describe, expect, test } from "vitest";
import { answerSha256 } from "./outcomes.js";
import { majorityVote } from "./plan.js";
import { buildReport, type ReportContext } from "./report.js";
import { judgeKey, type JudgeRecord, RESULTS_VERSION, type RunRecord } from "./results-file.js";
import { createScorer, type EvalItem } from "./scorers.js";

const items: EvalItem[] = [1, 2, 3, 4].map((n) => ({
  id: String(n),
  line: n,
  question: `q${n}`,
  answer: `#### ${n}`,
}));

function record(
  item: string,
  run: string,
  answer: string | null,
  extra: Partial<RunRecord> = {},
): RunRecord {
  return {
    type: "run",
    v: RESULTS_VERSION,
    item,
    run,
    answer,
    status: answer === null ? "failed" : "completed",
    calls: 1,
    input_tokens: 100,
    output_tokens: 10,
    cost_usd: 0.001,
    wall_ms: 1000,
    log_dir: `logs/${run}/${item}`,
    error: null,
    time: "2025-01-01T00:00:00.000Z",
    ...extra,
  };
}

/** Answers per run key: item n's right answer is n; `x` is a wrong number no other answer gives. */
function runs(table: Record<string, Array<string | null>>): Map<string, Map<string, RunRecord>> {
  const map = new Map<string, Map<string, RunRecord>>();
  let wrong = 1000;
  for (const [run, answers] of Object.entries(table)) {
    const byItem = new Map<string, RunRecord>();
    answers.forEach((answer, index) => {
      const item = String(index + 1);
      const text = answer === "x" ? String(wrong++) : answer;
      byItem.set(item, record(item, run, text, run === "team" ? { calls: 7, wall_ms: 5000 } : {}));
    });
    map.set(run, byItem);
  }
  return map;
}

function context(
  table: Record<string, Array<string | null>>,
  k: number,
  overrides: Partial<ReportContext> = {},
): ReportContext {
  return {
    items,
    scorer: createScorer({ name: "gsm8k" }),
    results: { runs: runs(table), judges: new Map() },
    team: { mode: "voting", agentIds: ["a", "b", "c"], baselineId: "a", withQuick: false },
    k,
    kSource: "matched",
    teamCallsPerItem: 7,
    dataset: { path: "/data.jsonl", sha256: "d", itemsTotal: 4, selection: "all items" },
    configPath: "/team.yaml",
    evalDir: "/eval",
    resultsFile: "/eval/results.jsonl",
    ...overrides,
  };
}

const row = (report: ReturnType<typeof buildReport>, id: string) =>
  report.methods.find((method) => method.id === id)!;

describe("majorityVote", () => {
  test("most votes wins; a tie goes to the key seen first; nulls abstain", () => {
    expect(majorityVote(["5", "7", "7", "5", null])).toEqual({ key: "5", index: 0, votes: 2 });
    expect(majorityVote([null, "7", "5", "5"])).toEqual({ key: "5", index: 2, votes: 2 });
    expect(majorityVote([null, null])).toEqual({ key: null, index: null, votes: 0 });
  });
});

describe("buildReport", () => {
  const table = {
    team: ["1", "2", "3", "x"],
    "agent:a": ["1", "x", "x", "x"],
    "agent:b": ["1", "2", "x", "4"],
    "agent:c": ["x", "2", "3", "x"],
    "sc:a:2": ["x", "2", "x", "4"],
    "sc:a:3": ["x", "2", "7", "9"],
  };

  test("methods, McNemar pairing, spend and the best agent", () => {
    const report = buildReport(context(table, 3));
    expect(report.methods.map((method) => method.id)).toEqual([
      "team",
      "agent:a",
      "self-consistency",
      "best-agent-oracle",
      "agent:b",
      "agent:c",
    ]);
    expect(row(report, "team")).toMatchObject({
      n: 4,
      correct: 3,
      accuracy: 0.75,
      vs_team: null,
      calls_per_item: 7,
    });
    // a alone: right on item 1 only; the team on 1-3: the team alone on 2 and 3.
    expect(row(report, "agent:a")).toMatchObject({
      correct: 1,
      vs_team: { team_only: 2, method_only: 0, test: "exact", p_value: 0.5 },
      calls_per_item: 1,
      input_tokens_per_item: 100,
      cost_usd_per_item: 0.001,
      wall_ms_per_item: 1000,
    });
    // Samples per item: [1,x,x'] → 1 (all differ: the first), [x,2,2] → 2, [x,x',7] → x,
    // [x,4,9] → x: right on items 1 and 2.
    expect(row(report, "self-consistency")).toMatchObject({
      correct: 2,
      calls_per_item: 3,
      wall_ms_per_item: 3000,
    });
    expect(row(report, "self-consistency").cost_usd_per_item).toBeCloseTo(0.003, 12);
    // b has 3 right, c 2, a 1.
    expect(row(report, "best-agent-oracle")).toMatchObject({ correct: 3, chosen: { b: 4 } });
    expect(report.coverage).toEqual({ correct: 4, n: 4, accuracy: 1 });
    // Team ✓ on 1-3, a ✓ on 1, sc ✓ on 1-2: items 2 and 3 disagree; 1 (all ✓) and 4 (all ✗) not.
    expect(report.disagreements).toEqual(["2", "3"]);
    expect(report.items[1]!.methods["self-consistency"]).toMatchObject({
      answer_key: "2",
      correct: true,
    });
    expect(report.items[1]!.methods["self-consistency"]!.log_dirs).toHaveLength(3);
  });

  test("no held-out row: with two agents of equal strength it read 0 right; the oracle reads 2", () => {
    const report = buildReport(
      context(
        {
          team: ["1", "2", "3", "4"],
          "agent:a": ["1", "x", "3", "x"],
          "agent:b": ["x", "2", "x", "4"],
          "agent:c": ["x", "x", "x", "x"],
          "sc:a:2": ["1", "2", "3", "4"],
        },
        2,
      ),
    );
    // Leave-one-out would pick, on each of a's items, b (wrong there) and on b's items a.
    expect(report.methods.map((method) => method.kind)).not.toContain("best-agent-held-out");
    expect(row(report, "best-agent-oracle")).toMatchObject({ correct: 2, chosen: { a: 4 } });
  });

  test("self-consistency at equal tokens is a second row over the first k_tokens samples", () => {
    const report = buildReport(
      context({ ...table, "sc:a:4": ["1", "x", "3", "4"], "sc:a:5": ["x", "x", "3", "4"] }, 3, {
        kTokens: 5,
        baselineSource: "best",
      }),
    );
    expect(report.self_consistency).toMatchObject({
      agent: "a",
      agent_source: "best",
      k: 3,
      k_tokens: 5,
    });
    expect(row(report, "self-consistency").label).toBe("self-consistency, a ×3 (equal calls)");
    // ×5 per item: [1,x,x,1,x] → 1; [x,2,2,x,x] → 2; [x,x,7,3,3] → 3; [x,4,9,4,4] → 4.
    expect(row(report, "self-consistency-tokens")).toMatchObject({
      label: "self-consistency, a ×5 (equal tokens)",
      correct: 4,
      calls_per_item: 5,
    });
  });

  test("selection loss: a right answer lost in the vote, one lost in the presentation, one kept", () => {
    const lossy = context(table, 3);
    const teamRuns = lossy.results.runs.get("team")!;
    const withAnswers = (item: string, answer: string, answers: string[], winning: string) =>
      teamRuns.set(item, record(item, "team", answer, { answers, winning_answer: winning }));
    withAnswers("1", "1", ["#### 1", "#### 5"], "#### 1"); // kept
    withAnswers("2", "9", ["The answer is 2", "#### 9"], "#### 9"); // lost in the vote
    withAnswers("3", "8", ["Answer: 3"], "Answer: 3"); // lost in the presentation
    withAnswers("4", "4", ["#### 6"], "#### 6"); // no right answer; the presentation fixed it
    const report = buildReport(lossy);
    expect(report.selection_loss).toEqual({
      measured: 4,
      had_right_answer: 3,
      vote_loss: 1,
      presentation_loss: 1,
      presentation_gain: 1,
    });
    expect(report.items.map((item) => item.selection_loss)).toEqual([
      null,
      "vote",
      "presentation",
      null,
    ]);
    // Runs without recorded answers (older results files) are not measured.
    expect(buildReport(context(table, 3)).selection_loss).toBeNull();
  });

  test("an item missing a run is left out; a failed run counts as wrong; unknown cost stays unknown", () => {
    const partial = context({ ...table, "sc:a:3": ["x", "2", "7"] }, 3);
    partial.results.runs.get("agent:b")!.set("1", record("1", "agent:b", null));
    partial.results.runs.get("agent:c")!.set("2", record("2", "agent:c", "2", { cost_usd: null }));
    const report = buildReport(partial);
    expect(report.items_selected).toBe(4);
    expect(report.items_reported).toBe(3);
    expect(row(report, "agent:b")).toMatchObject({ n: 3, correct: 1, failed_runs: 1 });
    expect(row(report, "agent:c").cost_usd_per_item).toBeNull();
    expect(row(report, "team").cost_usd_per_item).not.toBeNull();
  });

  test("with the judge, verdicts decide (a missing or unclear verdict is wrong)", () => {
    const judged = context(table, 3, { scorer: createScorer({ name: "judge" }) });
    const verdict = (
      item: string,
      answer: string,
      value: JudgeRecord["verdict"],
    ): [string, JudgeRecord] => [
      judgeKey(item, answerSha256(answer)),
      {
        type: "judge",
        v: RESULTS_VERSION,
        item,
        answer_sha256: answerSha256(answer),
        verdict: value,
        reply: value,
        calls: 1,
        input_tokens: 50,
        output_tokens: 1,
        cost_usd: null,
        wall_ms: 10,
        log_dir: null,
        status: "completed",
        error: null,
        time: "2025-01-01T00:00:00.000Z",
      },
    ];
    judged.results.judges = new Map([
      verdict("1", "1", "correct"),
      verdict("2", "2", "unclear"),
      verdict("3", "3", "incorrect"),
    ]);
    const report = buildReport(judged);
    // Only item 1's "1" was judged correct: team ✓ 1; a ✓ 1; b ✓ 1; c none.
    expect(row(report, "team").correct).toBe(1);
    expect(row(report, "agent:c").correct).toBe(0);
    expect(report.judge).toEqual({ calls: 3, cost_usd: null, unclear: 1, failed: 0 });
  });
});
