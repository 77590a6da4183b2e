/**
 * `coord eval` counts every request a team sent: a request the provider refused
 * with HTTP 400 is a call like any other. The simulated agents (test/support/eval-sim.ts) behind
 * the fake OpenAI server, one of them refused once per item with a 400 on its first request;
 * runs in process through the real runner and SDK clients.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, test } from "vitest";
import { evaluate } from "../src/eval/index.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";
import { summarizeRequest } from "./support/fake-openai/summarize-request.js";
import { simulatedAgents, simulatedDataset, simulatedTeamConfig } from "./support/eval-sim.js";

const ITEMS = 6;

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test("a request refused with HTTP 400 counts as a call of the team", async () => {
  const sim = simulatedAgents({ p: 0.9, seed: 5 });
  const refused = new Set<string>();
  server = await startFakeOpenAIServer((request) => {
    const summary = summarizeRequest(request);
    const item = /Item (\d+):/.exec(summary.text)?.[1];
    const teamRound = /You are one of \d+ agents/.test(summary.system);
    if (teamRound && summary.system.includes("[agent sim-2]") && item && !refused.has(item)) {
      refused.add(item);
      return { error: { status: 400, message: "Bad request." } };
    }
    return sim.handler(request);
  });
  const cwd = await mkdtemp(join(tmpdir(), "coord-eval-400-"));
  await writeFile(join(cwd, "data.jsonl"), simulatedDataset(ITEMS));
  // No tie round: the team's spend is fixed (3 answers, 3 votes, 1 presentation).
  await writeFile(
    join(cwd, "team.yaml"),
    `${simulatedTeamConfig(server.url, 3)}orchestrator:\n  tie_break: none\n`,
  );
  let stderr = "";
  const result = await evaluate(
    {
      dataset: "data.jsonl",
      config: "team.yaml",
      fields: { question: "question", answer: "answer" },
      selection: { kind: "all" },
      scorer: "gsm8k",
      withQuick: false,
      concurrency: 2,
      logs: false,
      yes: true,
      scK: 1,
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
  expect(refused.size).toBe(ITEMS);
  const team = result.report.methods.find((method) => method.id === "team")!;
  // 7 calls of the protocol + the refused request, on every item.
  expect(team.calls_per_item).toBe(8);
  expect(team.failed_runs).toBe(0);
  expect(team.n).toBe(ITEMS);
});
