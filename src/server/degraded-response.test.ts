/**
 * `coord serve` applies the served team's run budget to every request (docs/real-models.md "The run
 * budget"): a looping team's request returns within the budget with the best answer so far, and the
 * response says why it is degraded (`coord.degraded`, the trace's `[system] Degraded:` lines); a
 * request whose budget ran out before any answer is a 500 saying which key to raise.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { RunState } from "../session/index.js";
import { createApp } from "./app.js";
import type { ChatCompletion } from "./chat-completion.js";
import { loadServedTeam } from "./served-team.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "coord-serve-budget-"));
});

const ANSWERS = ["18", "It is 18.", "Eighteen.", "Six times three: 18.", "18!", "Still 18."];

/** alice never votes (a new answer every round), bob's provider fails: a loop without a budget. */
const LOOPING = `
agents:
  - id: alice
    backend:
      type: scripted
      steps:
${ANSWERS.map((answer) => `        - answer: ${JSON.stringify(answer)}`).join("\n")}
  - id: bob
    backend:
      type: scripted
      steps:
${ANSWERS.map(() => `        - error: { status: 500, message: "Internal Server Error" }`).join("\n")}
`;

async function served(name: string, yaml: string, onRunEnd?: (state: RunState) => void) {
  const path = join(dir, name);
  await writeFile(path, yaml);
  const team = await loadServedTeam(path, { cwd: dir, env: {} });
  return createApp({
    team,
    env: {},
    cwd: dir,
    version: "9.9.9",
    ...(onRunEnd ? { onRunEnd } : {}),
  });
}

function ask(app: ReturnType<typeof createApp>) {
  return app.request("/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "x", messages: [{ role: "user", content: "What is 6 * 3?" }] }),
  });
}

describe("coord serve and the run budget", () => {
  test("a looping team's request returns within its budget with the best answer, degraded", async () => {
    let state: RunState | undefined;
    const app = await served("looping.yaml", `${LOOPING}budget:\n  max_calls: 4\n`, (end) => {
      state = end;
    });
    const response = await ask(app);
    expect(response.status).toBe(200);
    const body = (await response.json()) as ChatCompletion;
    expect(ANSWERS).toContain(body.choices[0].message.content);
    expect(body.coord?.limits_reached).toMatchObject([
      { scope: "run", limit: "calls", used: 4, max: 4 },
    ]);
    expect(body.coord?.degraded).toContainEqual(
      expect.stringContaining("the run's budget of 4 model calls was reached"),
    );
    expect(body.choices[0].message.reasoning_content).toContain(
      "[system] Degraded: the run's budget of 4 model calls was reached",
    );
    // Within its budget: calls already in flight may finish (max + agents - 1).
    expect(state?.totals.usage.modelCalls).toBeGreaterThanOrEqual(4);
    expect(state?.totals.usage.modelCalls).toBeLessThanOrEqual(5);
  });

  test("a clean run's response has no coord extension", async () => {
    const app = await served(
      "clean.yaml",
      "agents:\n  - id: one\n    backend: { type: scripted, steps: [{ answer: '18' }] }\n",
    );
    const body = (await (await ask(app)).json()) as ChatCompletion;
    expect(body.choices[0].message.content).toBe("18");
    expect(body.coord).toBeUndefined();
  });

  test("a budget spent before any answer is a 500 that names the key to raise", async () => {
    const failing = Array.from(
      { length: 6 },
      () => `        - error: { status: 500, message: "boom" }`,
    ).join("\n");
    const app = await served(
      "failing.yaml",
      `agents:\n  - id: one\n    backend:\n      type: scripted\n      steps:\n${failing}\nbudget:\n  max_calls: 2\n`,
    );
    const response = await ask(app);
    expect(response.status).toBe(500);
    const { error } = (await response.json()) as { error: { message: string; code: string } };
    expect(error.code).toBe("run_failed");
    expect(error.message).toContain("(raise budget.max_calls in the config)");
    expect(error.message).not.toContain("--max-calls");
  });
});
