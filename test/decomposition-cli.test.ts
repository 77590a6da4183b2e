/**
 * Decomposition mode end to end: the built CLI and `coord serve` (a config with
 * `coordination_mode: decomposition`) against the fake OpenAI server on 127.0.0.1. The
 * decomposer call goes over the real wire; subtasks and stops must show in the `--automation`
 * lines, `coord logs` (text and JSON) and the server's `reasoning_content`; the presenter's
 * request must carry every part.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, test } from "vitest";
import type { LogsSummaryJson } from "../src/logs/index.js";
import { makeSandbox, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  summarizeRequest,
  type FakeOpenAIServer,
} from "./support/fake-openai-server.js";
import { startServe, type ServeProcess } from "./support/serve.js";

const MODELS = ["gpt-4.1-mini", "gpt-4o-mini", "gpt-4.1-nano"];

function teamYaml(url: string, extra = ""): string {
  const agents = ["a", "b", "c"].map(
    (id, index) =>
      `  - id: ${id}\n    backend: { type: openai, model: ${MODELS[index]}, base_url: "${url}", api_key: sk-test }`,
  );
  return ["agents:", ...agents, extra, ""].join("\n");
}

let provider: FakeOpenAIServer | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  await provider?.close();
  provider = serve = undefined;
});

async function startProvider(): Promise<FakeOpenAIServer> {
  provider = await startFakeOpenAIServer(
    coordinationHandler({
      answer: (summary) => `Part written by ${summary.model}.`,
      stopSummary: "My part is done.",
      finalAnswer: "The integrated answer.",
    }),
  );
  return provider;
}

describe("--coordination-mode decomposition through the CLI", () => {
  test("the decomposer's subtasks and every stop: automation lines, coord logs, the presenter's parts", async () => {
    const fake = await startProvider();
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), teamYaml(fake.url));
    const result = await runCli(
      ["--config", "team.yaml", "--coordination-mode", "decomposition", "--automation", "Q?"],
      box,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines.filter((line) => /^(SUBTASK|WINNER|COMPLETED):/.test(line))).toEqual([
      "SUBTASK: a: Part 1: the answer's correctness.",
      "SUBTASK: b: Part 2: the answer's brevity.",
      "SUBTASK: c: Part 3: the answer's the reader's intuition.",
      "WINNER: a",
      "COMPLETED: true",
    ]);
    // The agents stop in whatever order their replies come back; all after the subtasks.
    const stops = lines.filter((line) => line.startsWith("STOP:"));
    expect(stops.sort()).toEqual([
      "STOP: a complete: My part is done.",
      "STOP: b complete: My part is done.",
      "STOP: c complete: My part is done.",
    ]);
    expect(lines.findIndex((line) => line.startsWith("STOP:"))).toBeGreaterThan(
      lines.findIndex((line) => line.startsWith("SUBTASK: c")),
    );

    // Requests: the decomposer call (a's model, the assign_subtasks tool) first; the
    // presenter's integration (no tools) last, holding every part with its subtask.
    const calls = fake.requests
      .filter((request) => request.method === "POST")
      .map(summarizeRequest);
    expect(calls[0]).toMatchObject({ model: MODELS[0], toolNames: ["assign_subtasks"] });
    expect(calls.filter((call) => call.toolNames.includes("assign_subtasks"))).toHaveLength(1);
    const integration = calls.at(-1)!;
    expect(integration.toolNames).toEqual([]);
    for (const [index, id] of ["a", "b", "c"].entries()) {
      expect(integration.text).toContain(`<part agent="${id}" label="agent${index + 1}.1"`);
      expect(integration.text).toContain(`Part written by ${MODELS[index]}.`);
    }

    const summary = await runCli(["logs"], box);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toContain("Mode:     decomposition, 3 agents");
    expect(summary.stdout).toMatch(
      /Subtasks:\n {2}a {2}Part 1: the answer's correctness\. \(decomposer\) — stopped, complete: My part is done\./,
    );
    const json = JSON.parse((await runCli(["logs", "--json"], box)).stdout) as LogsSummaryJson;
    expect(json.agents.map((agent) => [agent.subtask, agent.stop])).toEqual(
      ["correctness", "brevity", "the reader's intuition"].map((focus, index) => [
        { text: `Part ${index + 1}: the answer's ${focus}.`, source: "decomposer" },
        { status: "complete", summary: "My part is done." },
      ]),
    );
    expect(json.totals.rounds.plan).toBe(1);
    expect(json.totals.rounds.stop).toBe(3);
  });

  test("every agent blocked without an answer: exit 2 with the reason, not a provider failure", async () => {
    const box = await makeSandbox();
    const agent = (id: string) =>
      `  - id: ${id}\n    subtask: Part ${id}.\n    backend: { type: scripted, steps: [{ stop: { status: blocked, summary: "no data" } }] }`;
    await writeFile(
      join(box.cwd, "team.yaml"),
      [
        "agents:",
        agent("a"),
        agent("b"),
        "orchestrator: { coordination_mode: decomposition }",
        "",
      ].join("\n"),
    );
    const result = await runCli(["--config", "team.yaml", "--no-display", "Q?"], box);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("[a] Stop (blocked): no data");
    expect(result.stderr).toContain(
      "coord: coordination ended without any answer; see the stop events\n",
    );
  });

  test("--quick with decomposition exits 1 and says why", async () => {
    const box = await makeSandbox();
    const result = await runCli(
      ["--config", "@examples/decomposition_scripted", "--quick", "--no-display", "Plan a picnic."],
      box,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "coord: --quick (refine off) does not go with coordination_mode decomposition, where each agent refines its part until it stops: drop --quick, or use --coordination-mode voting\n",
    );
  });
});

describe("coord serve with a decomposition config", () => {
  test("the openai client gets the integrated answer; reasoning_content shows subtasks, stops and the presenter", async () => {
    const fake = await startProvider();
    const box = await makeSandbox();
    await writeFile(
      join(box.cwd, "team.yaml"),
      teamYaml(fake.url, "orchestrator:\n  coordination_mode: decomposition\n  presenter_agent: b"),
    );
    serve = await startServe(["--host", "127.0.0.1", "--port", "0", "--config", "team.yaml"], box);
    expect(serve.stderr()).toContain("mode decomposition");
    const client = new OpenAI({ baseURL: `${serve.url}/v1`, apiKey: "unused" });
    const completion = await client.chat.completions.create({
      model: "coord",
      messages: [{ role: "user", content: "Q?" }],
    });
    const message = completion.choices[0]!.message as OpenAI.ChatCompletionMessage & {
      reasoning_content?: string;
    };
    expect(message.content).toBe("The integrated answer.");
    const lines = message.reasoning_content!.split("\n");
    expect(lines).toContain(
      "[system] Team (decomposition): a (openai/gpt-4.1-mini), b (openai/gpt-4o-mini), c (openai/gpt-4.1-nano)",
    );
    expect(lines).toContain("[a] Planning: subtasks for the team");
    expect(lines).toContain("[b] Subtask (decomposer): Part 2: the answer's brevity.");
    expect(
      lines.filter((line) => / Stop \(complete\): My part is done\.$/.test(line)).sort(),
    ).toEqual([
      "[a] Stop (complete): My part is done.",
      "[b] Stop (complete): My part is done.",
      "[c] Stop (complete): My part is done.",
    ]);
    expect(lines).toContain("[orchestrator] Presenter: b (integrates every agent's part)");
  });
});
