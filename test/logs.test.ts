/**
 * End-to-end tests of `coord logs` (spec section 4.2) over committed fixture log directories,
 * made by real scripted runs of the CLI (test/fixtures/logs/README.md): the exact text and JSON
 * output of each sub-command, and the summary's numbers against metrics.json and the usage
 * events. Expected outputs live in test/fixtures/logs/expected/ (UPDATE_DOCS-style: run with
 * `-u` to rewrite them after a deliberate change, then review the diff).
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseEventLog } from "../src/events/jsonl.js";
import type { LogsListJson } from "../src/logs/run-list.js";
import type { LogsSummaryJson } from "../src/logs/run-summary.js";
import { makeSandbox, REPO_ROOT, runCli, type CliResult } from "./support/cli.js";

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "logs");
const RUNS = join(FIXTURES, "runs");
const EXPECTED = join(FIXTURES, "expected");

const THREE = "log_20261121_095544_three_agents";
const ERRORS = "log_20261121_095546_errors";
const MULTI = "log_20261121_095547_multi_turn";
const ANALYZED = "log_20261121_095552_analyzed";
const CRASHED = "log_20261121_095554_crashed";

/** `coord logs …` in test/fixtures/logs with COORD_LOG_DIR=runs: paths print as `runs/…`. */
async function logs(args: readonly string[]): Promise<CliResult> {
  const { home } = await makeSandbox();
  return runCli(["logs", ...args], { cwd: FIXTURES, home, env: { COORD_LOG_DIR: "runs" } });
}

/** Absolute fixture paths (machine-specific) become `<fixtures>`. */
function portable(text: string): string {
  return text.split(FIXTURES).join("<fixtures>");
}

async function expectOutput(args: readonly string[], file: string): Promise<CliResult> {
  const result = await logs(args);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  await expect(portable(result.stdout)).toMatchFileSnapshot(join(EXPECTED, file));
  return result;
}

describe("coord logs summary", () => {
  test("without a sub-command: the most recent run (the crashed one), text", async () => {
    const result = await expectOutput([], "summary-latest.txt");
    expect(result.stdout).toContain(`Run:      ${CRASHED} (turn 1 of 1, attempt 1 of 1)`);
    expect(result.stdout).toContain("incomplete after 77 ms (events.jsonl ends in a cut-off line");
    expect(result.stdout).toContain("Final:    48 characters streamed, never completed");
  });

  test("a three-agent run: text and JSON", async () => {
    const text = await expectOutput(
      ["summary", "--log-dir", `runs/${THREE}`],
      "summary-three-agents.txt",
    );
    expect(text.stdout).toContain("Winner:   alice (agent1.1, 3 votes)");
    expect(text.stdout).toMatch(/^TOTAL +3 +3 +0 +0 +0 +0 +1 +7$/m);
    const json = await expectOutput(
      ["summary", "--log-dir", `runs/${THREE}`, "--json"],
      "summary-three-agents.json",
    );
    const summary = JSON.parse(json.stdout) as LogsSummaryJson;
    expect(summary.totals.tokens).toEqual({
      input: 1730 + 1270 + 1010, // alice 420+610+700, bob 300+380+590, carol 410+600
      output: 75 + 47 + 29,
      reasoning: 12,
      cached_input: 300,
      total: 4161,
    });
    expect(summary.totals.cost_usd).toBeNull();
    expect(text.stdout).toMatch(/^TOTAL +4,010 +151 +12 +300 +8 +unknown$/m);
  });

  test("errors, a removed agent, a refused vote and a failing tool", async () => {
    const text = await expectOutput(["--log-dir", `runs/${ERRORS}`], "summary-errors.txt");
    expect(text.stdout).toMatch(/^bob +scripted +flaky-medium +removed +0 +upstream overloaded$/m);
    expect(text.stdout).toMatch(/^alice +1 +1 +1 +0 +0 +0 +0 +2$/m); // one refused vote
    expect(text.stdout).toMatch(/^bob +0 +0 +0 +2 +0 +0 +0 +2$/m); // two error rounds
    expect(text.stdout).toMatch(/^run_tests +1 +1 /m);
    await expectOutput(["--log-dir", `runs/${ERRORS}`, "--json"], "summary-errors.json");
  });

  test("multi-turn: the latest turn and attempt by default; --turn and --attempt pick others", async () => {
    const latest = await expectOutput(["--log-dir", `runs/${MULTI}`], "summary-multi-turn.txt");
    expect(latest.stdout).toContain(`Run:      ${MULTI} (turn 2 of 2, attempt 2 of 2)`);
    const timeout = await expectOutput(
      ["--log-dir", `runs/${MULTI}`, "--turn", "2", "--attempt", "1"],
      "summary-multi-turn-t2a1.txt",
    );
    expect(timeout.stdout).toContain("Status:   timeout in 302 ms");
    expect(timeout.stdout).toMatch(/^TOTAL +0 +0 +0 +0 +0 +2 +0 +2$/m); // two aborted rounds
    const first = await logs(["--log-dir", `runs/${MULTI}/turn_1`, "--json"]);
    expect(JSON.parse(first.stdout)).toMatchObject({
      turn: 1,
      attempt: 1,
      turns: [1, 2],
      question: "Which database should our team app use?",
    });
    const attemptDir = await logs(["--log-dir", `runs/${MULTI}/turn_2/attempt_1`, "--json"]);
    expect(JSON.parse(attemptDir.stdout)).toMatchObject({ turn: 2, attempt: 1, status: "timeout" });
  });

  test("a truncated events.jsonl (crash): JSON says so", async () => {
    const json = await expectOutput(
      ["--log-dir", `runs/${CRASHED}`, "--json"],
      "summary-crashed.json",
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: "incomplete",
      truncated: true,
      ended_at: null,
      winner: { agent_id: "solo_a" },
    });
  });
});

describe("coord logs tools", () => {
  test("sorted by time (default) and by calls, with a TOTAL row; JSON", async () => {
    await expectOutput(["tools", "--log-dir", `runs/${ERRORS}`], "tools-errors.txt");
    const byCalls = await expectOutput(
      ["tools", "--log-dir", `runs/${ERRORS}`, "--sort", "calls"],
      "tools-errors-by-calls.txt",
    );
    expect(byCalls.stdout).toMatch(/^TOTAL +7 +2 /m);
    const json = await expectOutput(
      ["tools", "--log-dir", `runs/${THREE}`, "--json"],
      "tools-three-agents.json",
    );
    expect(JSON.parse(json.stdout)).toMatchObject({
      sort: "time",
      total: { calls: 7, failures: 1 },
    });
  });

  test("--sort accepts only time or calls", async () => {
    const result = await logs(["tools", "--sort", "name"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "coord: error: option '--sort <key>' argument 'name' is invalid",
    );
  });
});

describe("coord logs list", () => {
  test("newest first by directory name, turns counted, analyzed marked; text and JSON", async () => {
    const text = await expectOutput(["list"], "list.txt");
    const rows = text.stdout.split("\n").filter((line) => line.startsWith("2026-"));
    expect(rows.map((row) => /log_\S+/.exec(row)?.[0])).toEqual([
      CRASHED,
      ANALYZED,
      MULTI,
      ERRORS,
      THREE,
    ]);
    expect(rows[1]).toMatch(/ yes +log_/);
    expect(rows[2]).toMatch(/completed +2 +/);
    const json = await expectOutput(["list", "--json"], "list.json");
    const list = JSON.parse(json.stdout) as LogsListJson;
    expect(list.runs.map((run) => [run.turns, run.analyzed, run.status])).toEqual([
      [1, false, "incomplete"],
      [1, true, "completed"],
      [2, false, "completed"],
      [1, false, "completed"],
      [1, false, "completed"],
    ]);
  });

  test("--limit, --analyzed, --unanalyzed", async () => {
    const limited = await expectOutput(["list", "--limit", "2"], "list-limit-2.txt");
    expect(limited.stdout).toContain("2 of 5 runs in runs, newest first (--limit N for more)");
    const analyzed = await logs(["list", "--analyzed", "--json"]);
    expect((JSON.parse(analyzed.stdout) as LogsListJson).runs.map((run) => run.name)).toEqual([
      ANALYZED,
    ]);
    const unanalyzed = await logs(["list", "--unanalyzed", "--json"]);
    const names = (JSON.parse(unanalyzed.stdout) as LogsListJson).runs.map((run) => run.name);
    expect(names).toEqual([CRASHED, MULTI, ERRORS, THREE]);
    const both = await logs(["list", "--analyzed", "--unanalyzed"]);
    expect(both.code).toBe(1);
    expect(both.stderr).toBe("coord: --analyzed and --unanalyzed cannot be used together\n");
  });

  test("an empty log root lists nothing", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["logs", "list"], sandbox);
    expect(result).toMatchObject({ code: 0, stdout: "No runs in agent_outputs.\n" });
  });
});

describe("coord logs analyze --mode prompt", () => {
  test("names the log directory, its files and what to look for; JSON", async () => {
    const text = await expectOutput(
      ["analyze", "--log-dir", `runs/${MULTI}`],
      "analyze-prompt.txt",
    );
    expect(portable(text.stdout)).toContain(`Log directory: <fixtures>/runs/${MULTI}`);
    expect(text.stdout).toContain("- turn_2/attempt_1/events.jsonl (");
    expect(portable(text.stdout)).toContain(`<fixtures>/runs/${MULTI}/ANALYSIS_REPORT.md`);
    await expectOutput(
      ["analyze", "--log-dir", `runs/${CRASHED}`, "--json"],
      "analyze-prompt.json",
    );
  });
});

describe("numbers", () => {
  test("summary totals and per-agent figures equal metrics.json and the sum of the usage events", async () => {
    for (const [name, attempt] of [
      [THREE, "turn_1/attempt_1"],
      [ERRORS, "turn_1/attempt_1"],
      [MULTI, "turn_2/attempt_2"],
      [ANALYZED, "turn_1/attempt_1"],
    ] as const) {
      const dir = join(RUNS, name, attempt);
      const summary = JSON.parse(
        (await logs(["--log-dir", dir, "--json"])).stdout,
      ) as LogsSummaryJson;
      const metrics = JSON.parse(await readFile(join(dir, "metrics.json"), "utf8")) as {
        wall_time_ms: number;
        totals: MetricsPart;
        agents: (MetricsPart & { id: string })[];
      };
      expect(summary.duration_ms, name).toBe(metrics.wall_time_ms);
      const parts: Array<[SummaryPart, MetricsPart]> = [
        [summary.totals, metrics.totals],
        ...summary.agents.map(
          (agent, index) => [agent, metrics.agents[index]!] as [SummaryPart, MetricsPart],
        ),
      ];
      for (const [mine, theirs] of parts) {
        expect(mine.tokens, name).toEqual(theirs.tokens);
        expect(mine.model_calls, name).toBe(theirs.model_calls);
        // These fixtures were written before prices existed: metrics.json says null (unknown)
        // throughout. The summary may know more only where nothing was spent (no model call).
        if (theirs.cost_usd === null && mine.model_calls === 0)
          expect([0, null]).toContain(mine.cost_usd);
        else expect(mine.cost_usd, name).toBe(theirs.cost_usd);
        const { vote_refused: _refused, ...rounds } = mine.rounds;
        // Planning rounds were counted from a later version on: 0 when metrics.json predates them.
        expect(rounds, name).toEqual({ plan: 0, ...theirs.rounds });
      }
      expect(summary.tool_totals).toEqual({
        calls: metrics.totals.tool_calls,
        failures: metrics.totals.tool_failures,
        total_ms: metrics.totals.tool_ms,
      });

      const { events } = parseEventLog(await readFile(join(dir, "events.jsonl"), "utf8"));
      const usage = events.filter((event) => event.type === "usage");
      const sum = (pick: (u: (typeof usage)[number]["usage"]) => number, agentId?: string) =>
        usage
          .filter((event) => agentId === undefined || event.agentId === agentId)
          .reduce((total, event) => total + pick(event.usage), 0);
      for (const agent of [undefined, ...summary.agents.map((a) => a.id)]) {
        const part =
          agent === undefined ? summary.totals : summary.agents.find((a) => a.id === agent)!;
        expect(part.tokens.input, `${name} ${agent}`).toBe(sum((u) => u.inputTokens, agent));
        expect(part.tokens.output).toBe(sum((u) => u.outputTokens, agent));
        expect(part.tokens.reasoning).toBe(sum((u) => u.reasoningTokens, agent));
        expect(part.tokens.cached_input).toBe(sum((u) => u.cachedInputTokens, agent));
        expect(part.model_calls).toBe(
          usage.filter((event) => agent === undefined || event.agentId === agent).length,
        );
      }
    }
  });
});

interface MetricsPart {
  tokens: unknown;
  model_calls: number;
  cost_usd: number | null;
  rounds: Record<string, number>;
  tool_calls: number;
  tool_failures: number;
  tool_ms: number;
}
type SummaryPart = LogsSummaryJson["totals"];

describe("errors", () => {
  test("no run log: exit 1 with what to do", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["logs"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^coord: no run logs in .*agent_outputs: run coord "<question>" first, pass --log-dir PATH, or set COORD_LOG_DIR/,
    );
  });

  test("a turn that does not exist names the turns there are", async () => {
    const result = await logs(["--log-dir", `runs/${MULTI}`, "--turn", "3"]);
    expect(result.code).toBe(1);
    expect(portable(result.stderr)).toBe(
      `coord: <fixtures>/runs/${MULTI} has no turn_3 (turns: 1, 2)\n`,
    );
  });

  test("an unknown sub-command names the known ones", async () => {
    const result = await logs(["sumary"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'coord: unknown logs sub-command "sumary": use summary, tools, list, analyze, open (coord logs --help)\n',
    );
  });

  test("coord logs --help lists the sub-commands", async () => {
    const result = await logs(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: coord logs [options] [command]");
    for (const name of ["summary", "tools", "list", "analyze", "open"]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${name} `, "m"));
    }
  });
});

test("docs/logs.md holds the current `coord logs … --help`", async () => {
  const blocks: string[] = [];
  for (const sub of [[], ["summary"], ["tools"], ["list"], ["analyze"], ["open"]]) {
    const help = await logs([...sub, "--help"]);
    expect(help.code).toBe(0);
    blocks.push(
      [
        "```text",
        `$ coord logs ${[...sub, "--help"].join(" ")}`,
        help.stdout.trimEnd(),
        "```",
      ].join("\n"),
    );
  }
  const path = join(REPO_ROOT, "docs", "logs.md");
  const doc = await readFile(path, "utf8");
  const [before, rest] = doc.split("<!-- help:start -->\n");
  const after = rest?.split("<!-- help:end -->")[1];
  expect(after, "docs/logs.md lost its help markers").toBeDefined();
  const expected = `${before}<!-- help:start -->\n${blocks.join("\n\n")}\n<!-- help:end -->${after}`;
  if (process.env.UPDATE_DOCS === "1") await writeFile(path, expected);
  expect(
    await readFile(path, "utf8"),
    "docs/logs.md is out of date: run UPDATE_DOCS=1 npx vitest run test/logs.test.ts",
  ).toBe(expected);
});
