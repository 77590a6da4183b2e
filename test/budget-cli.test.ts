/**
 * The run budget and the reporting of degraded runs through the built CLI (docs/real-models.md):
 * `--max-calls` ends a looping run with its best answer (exit 0) and says which limit ended it on
 * stderr, in `--json`, `--automation` and metrics.json; the flag overrides `budget.max_calls`;
 * every request a provider received is a model call, failed ones counted apart, in metrics.json and
 * `coord logs`.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

/** alice's answers, one per round: she never votes. */
const ALICE_ANSWERS = [
  "18",
  "It is 18.",
  "Eighteen, since 6 times 3 is 18.",
  "The product of six and three: 18.",
  "Answer 18",
  "18 it is",
  "I say 18",
  "still 18",
];

/** alice never votes: she writes a new answer every round; bob's provider always fails. */
const LOOPING_TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      steps:
        - answer: "18"
        - answer: "It is 18."
        - answer: "Eighteen, since 6 times 3 is 18."
        - answer: "The product of six and three: 18."
        - answer: "Answer 18"
        - answer: "18 it is"
        - answer: "I say 18"
        - answer: "still 18"
  - id: bob
    backend:
      type: scripted
      steps:
        - error: { status: 500, message: "Internal Server Error" }
        - error: { status: 500, message: "Internal Server Error" }
        - error: { status: 500, message: "Internal Server Error" }
        - error: { status: 500, message: "Internal Server Error" }
`;

interface Metrics {
  degraded: string[];
  limits_reached: Array<{ scope: string; limit: string; used: number; max: number }>;
  totals: { model_calls: number; failed_model_calls: number };
  agents: Array<{ id: string; model_calls: number; failed_model_calls: number }>;
}

/**
 * Checks a run's metrics against a call limit: within its budget (calls already in flight when
 * it is reached may finish: at most `max + agents - 1`), every failed call is bob's, and the
 * agents' calls add up to the run's.
 */
function expectWithinBudget(metrics: Metrics, max: number): void {
  const [alice, bob] = metrics.agents;
  expect(metrics.totals.model_calls).toBeGreaterThanOrEqual(max);
  expect(metrics.totals.model_calls).toBeLessThanOrEqual(max + 1);
  expect(alice!.model_calls + bob!.model_calls).toBe(metrics.totals.model_calls);
  expect(alice!.failed_model_calls).toBe(0);
  expect(bob!.failed_model_calls).toBe(bob!.model_calls);
  expect(metrics.totals.failed_model_calls).toBe(bob!.model_calls);
  expect(bob!.model_calls).toBeGreaterThan(0);
  expect(metrics.limits_reached).toMatchObject([{ scope: "run", limit: "calls", used: max, max }]);
}

async function sandboxWith(yaml: string) {
  const sandbox = await makeSandbox();
  await writeFile(join(sandbox.cwd, "team.yaml"), yaml);
  return sandbox;
}

describe("the run budget", () => {
  test("--max-calls ends a looping run with its best answer, exit 0, naming the limit", async () => {
    const sandbox = await sandboxWith(LOOPING_TEAM);
    const result = await runCli(
      ["--config", "team.yaml", "--no-display", "--max-calls", "4", "What is 6 * 3?"],
      sandbox,
    );
    expect(result.code).toBe(0);
    expect(ALICE_ANSWERS.map((answer) => `${answer}\n`)).toContain(result.stdout);
    expect(result.stderr).toContain(
      "[orchestrator] Limit reached: the run's budget of 4 model calls was reached (budget.max_calls)",
    );
    expect(result.stderr).toContain("[system] Run completed (degraded)");
    expect(result.stderr).toContain(
      "[system] Degraded: the run's budget of 4 model calls was reached (budget.max_calls)",
    );

    const dir = await onlyAttemptDir(sandbox.cwd);
    const metrics = JSON.parse(await readLog(dir, "metrics.json")) as Metrics;
    expectWithinBudget(metrics, 4);
    expect(metrics.degraded).toContainEqual(
      expect.stringContaining("the run's budget of 4 model calls was reached"),
    );
  });

  test("the flag overrides budget.max_calls; --json and --automation say the run was degraded", async () => {
    const sandbox = await sandboxWith(`${LOOPING_TEAM}budget:\n  max_calls: 3\n`);
    const fromConfig = await runCli(["--config", "team.yaml", "--json", "What is 6 * 3?"], sandbox);
    expect(fromConfig.code).toBe(0);
    const configured = JSON.parse(fromConfig.stdout) as {
      answer: string;
      degraded: string[];
      usage: { model_calls: number; failed_model_calls: number };
    };
    expect(configured).toMatchObject({
      status: "completed",
      exit_code: 0,
      error: null,
      limits_reached: [{ scope: "run", limit: "calls", max: 3 }],
      winner: { agent_id: "alice", basis: "partial" },
    });
    expect(ALICE_ANSWERS).toContain(configured.answer);
    expect(configured.degraded).toContainEqual(
      expect.stringContaining("the run's budget of 3 model calls was reached"),
    );
    expect(configured.usage.model_calls).toBeGreaterThanOrEqual(3);
    expect(configured.usage.failed_model_calls).toBeGreaterThan(0);

    const flagged = await runCli(
      ["--config", "team.yaml", "--json", "--max-calls", "4", "What is 6 * 3?"],
      sandbox,
    );
    expect(JSON.parse(flagged.stdout)).toMatchObject({ limits_reached: [{ max: 4 }] });

    const automation = await runCli(
      ["--config", "team.yaml", "--automation", "What is 6 * 3?"],
      sandbox,
    );
    expect(automation.code).toBe(0);
    expect(automation.stdout).toContain("LIMIT: run calls 3/3\n");
    expect(automation.stdout).toContain(
      "DEGRADED: the run's budget of 3 model calls was reached (budget.max_calls)",
    );
    expect(automation.stdout).toMatch(/WINNER: alice\n.*\nDURATION: .*\nCOMPLETED: true\n$/);
  });

  test.each([
    [["--max-calls", "0"], "--max-calls must be an integer > 0"],
    [["--max-tokens", "1.5"], "--max-tokens must be an integer > 0"],
    [["--max-cost", "free"], "--max-cost must be a number > 0 (USD, e.g. 0.5)"],
  ])("%j is refused with exit 1", async (flags, message) => {
    const sandbox = await sandboxWith(LOOPING_TEAM);
    const result = await runCli(["--config", "team.yaml", ...flags, "q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
  });
});

describe("failed model calls", () => {
  let server: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test("every request the provider answered with HTTP 500 is a failed model call", async () => {
    server = await startFakeOpenAIServer(() => ({
      error: { status: 500, message: "The server had an error", retryAfterMs: 1 },
    }));
    const sandbox = await sandboxWith(`
agents:
  - id: alice
    backend:
      type: scripted
      steps:
        - answer: "18"
        - vote: agent1
          reason: the only answer
        - text: "18."
  - id: bob
    backend: { type: chatcompletion, model: m, base_url: "${server.url}", api_key: k }
`);
    const result = await runCli(
      ["--config", "team.yaml", "--no-display", "What is 6 * 3?"],
      sandbox,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("18.\n");
    expect(result.stderr).toContain("[system] Degraded: bob removed:");
    // The advice about the providers' messages belongs to failed runs only.
    expect(result.stderr).not.toContain("providers' messages");

    const sent = server.requests.filter((request) => request.method === "POST").length;
    expect(sent).toBeGreaterThan(1);
    const dir = await onlyAttemptDir(sandbox.cwd);
    const metrics = JSON.parse(await readLog(dir, "metrics.json")) as Metrics;
    expect(metrics.agents.find((agent) => agent.id === "bob")).toMatchObject({
      model_calls: sent,
      failed_model_calls: sent,
    });
    expect(metrics.totals).toMatchObject({ model_calls: sent + 3, failed_model_calls: sent });

    const summary = await runCli(["logs", "summary", "--log-dir", dir], sandbox);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toContain(
      `Failed:   ${sent} of ${sent + 3} model calls failed, retries included (bob ${sent})`,
    );
    expect(summary.stdout).toMatch(/^Degraded: bob removed: /m);
    const status = JSON.parse(await readFile(join(dir, "status.json"), "utf8")) as {
      totals: { failed_model_calls: number };
    };
    expect(status.totals.failed_model_calls).toBe(sent);
  });
});
