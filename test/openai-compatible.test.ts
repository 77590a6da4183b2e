/**
 * A three-agent team against a fake OpenAI server on 127.0.0.1 that speaks the real wire formats
 * (Chat Completions SSE with streamed tool calls and usage; the Responses API stream), through
 * the real provider code: in process through the engine, and through the built CLI.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createBackend } from "../src/backends/registry.js";
import { systemClock } from "../src/clock.js";
import { parseConfigText } from "../src/config/load.js";
import { runCoordination } from "../src/engine/run.js";
import type { CoordEvent } from "../src/events/events.js";
import { parseEventLog } from "../src/events/jsonl.js";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  summarizeRequest,
  type FakeOpenAIServer,
  type FakeRequest,
} from "./support/fake-openai-server.js";

const USAGE = { inputTokens: 120, outputTokens: 30, reasoningTokens: 5, cachedInputTokens: 40 };

/** Answers by temperature so the three agents give different answers; all vote for agent1. */
function teamHandler(request: FakeRequest) {
  const temperature = request.body.temperature;
  return coordinationHandler({
    answer: () => `Answer written at temperature ${String(temperature)}: 2+2=4.`,
    finalAnswer: "Final: 2 + 2 = 4.",
    usage: USAGE,
  })(request);
}

function teamConfig(url: string): string {
  return `
agents:
  - id: responses_agent
    backend: { type: openai, model: gpt-4.1-mini, base_url: "${url}", api_key: sk-test-123, temperature: 0.1 }
  - id: chat_agent_b
    backend: { type: chatcompletion, model: local-model, base_url: "${url}", temperature: 0.5 }
  - id: chat_agent_c
    backend: { type: vllm, model: local-model, base_url: "${url}", temperature: 0.9 }
`;
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function checkWire(requests: readonly FakeRequest[]): void {
  const summaries = requests.map(summarizeRequest);
  expect(summaries).toHaveLength(7);
  // The openai agent speaks the Responses API; the others Chat Completions.
  expect(summaries.filter((summary) => summary.api === "responses")).toHaveLength(3);
  expect(summaries.filter((summary) => summary.api === "chat")).toHaveLength(4);
  // Round 1 offers only new_answer; round 2 offers both; the presentation offers no tools.
  const toolSets = summaries.map((summary) => summary.toolNames.join("+")).sort();
  expect(toolSets).toEqual([
    "",
    "new_answer",
    "new_answer",
    "new_answer",
    "new_answer+vote",
    "new_answer+vote",
    "new_answer+vote",
  ]);
  // The vote rounds saw every answer in tagged blocks.
  for (const summary of summaries.filter((entry) => entry.toolNames.includes("vote"))) {
    expect(summary.text).toContain("<agent3>");
    expect(summary.text).toContain("temperature 0.9");
  }
  // Streaming with usage was asked for on Chat Completions.
  for (const request of requests.filter((entry) => entry.path.endsWith("/chat/completions"))) {
    expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
  }
  const responsesCall = requests.find((entry) => entry.path.endsWith("/responses"));
  expect(responsesCall?.headers.authorization).toBe("Bearer sk-test-123");
}

describe("three agents on a fake OpenAI-compatible server", () => {
  test("through the real provider code in process: votes, a winner, exact usage", async () => {
    server = await startFakeOpenAIServer(teamHandler);
    const { config } = parseConfigText(teamConfig(server.url), { env: {} });
    const agents = await Promise.all(
      config.agents.map(async (agent, index) => ({
        id: agent.id,
        backend: await createBackend(agent, index, { env: {}, cwd: process.cwd() }),
        temperature: agent.backend.temperature,
      })),
    );
    const events: CoordEvent[] = [];
    for await (const event of runCoordination({
      runId: "run_fake",
      question: "What is 2+2?",
      agents,
      mode: "voting",
      settings: config.orchestrator,
      orchestratorTimeoutMs: 60_000,
      clock: systemClock,
    })) {
      events.push(event);
    }
    checkWire(server.requests);
    expect(
      events
        .filter((event) => event.type === "vote")
        .map((event) => event.type === "vote" && event.targetAgentId),
    ).toEqual(["responses_agent", "responses_agent", "responses_agent"]);
    expect(events.find((event) => event.type === "final-answer")).toMatchObject({
      content: "Final: 2 + 2 = 4.",
    });
    const usage = events.flatMap((event) => (event.type === "usage" ? [event.usage] : []));
    expect(usage).toHaveLength(7);
    for (const entry of usage) expect(entry).toEqual(USAGE);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  test("through the built CLI: stdout, exit code, and the log files", async () => {
    server = await startFakeOpenAIServer(teamHandler);
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), teamConfig(server.url));
    const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], sandbox);
    expect(result.stderr).toContain("[orchestrator] Winner: responses_agent (agent1.1; 3 votes)");
    expect(result.stdout).toBe("Final: 2 + 2 = 4.\n");
    expect(result.code).toBe(0);
    checkWire(server.requests);

    const dir = await onlyAttemptDir(sandbox.cwd);
    const { events } = parseEventLog(await readLog(dir, "events.jsonl"));
    expect(events.filter((event) => event.type === "vote")).toHaveLength(3);
    const metrics = JSON.parse(await readLog(dir, "metrics.json")) as {
      totals: { model_calls: number; tokens: Record<string, number> };
    };
    expect(metrics.totals.model_calls).toBe(7);
    expect(metrics.totals.tokens).toMatchObject({
      input: 7 * USAGE.inputTokens,
      output: 7 * USAGE.outputTokens,
      reasoning: 7 * USAGE.reasoningTokens,
      cached_input: 7 * USAGE.cachedInputTokens,
    });
    const metadata = await readLog(dir, "execution_metadata.yaml");
    expect(metadata).not.toContain("sk-test-123");
  });

  test("the openai_compatible_team example runs against the server named by COORD_BASE_URL", async () => {
    server = await startFakeOpenAIServer((request) =>
      coordinationHandler({
        answer: (summary) => `Answer from a request of ${summary.text.length} characters.`,
        finalAnswer: "Final from the example.",
      })(request),
    );
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--config", "@examples/openai_compatible_team", "--no-display", "q"],
      {
        ...sandbox,
        env: { COORD_BASE_URL: server.url, COORD_MODEL: "served-model" },
      },
    );
    expect(result.stdout).toBe("Final from the example.\n");
    expect(result.code).toBe(0);
    expect(server.requests.every((request) => request.body.model === "served-model")).toBe(true);
  });

  test("--quick with three agents that agree (the same answer): 4 model calls, nobody removed", async () => {
    server = await startFakeOpenAIServer(
      coordinationHandler({ answer: "2 + 2 = 4.", finalAnswer: "Final: 4.", usage: USAGE }),
    );
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), teamConfig(server.url));
    const result = await runCli(
      ["--config", "team.yaml", "--quick", "--no-display", "What is 2+2?"],
      sandbox,
    );
    expect(result.stdout).toBe("Final: 4.\n");
    expect(result.code).toBe(0);
    const summaries = server.requests.map(summarizeRequest);
    expect(summaries.map((summary) => summary.toolNames.join("+")).sort()).toEqual([
      "",
      "new_answer",
      "new_answer",
      "new_answer",
    ]);
    const { events } = parseEventLog(
      await readLog(await onlyAttemptDir(sandbox.cwd), "events.jsonl"),
    );
    expect(events.filter((event) => event.type === "answer")).toHaveLength(3);
    expect(events.some((event) => event.type === "workflow-invalid")).toBe(false);
    expect(events.some((event) => event.type === "agent-error")).toBe(false);
    expect(events.find((event) => event.type === "run-start")).toMatchObject({ mode: "quick" });
  });

  test("a 401 from the provider removes the agent; the run goes on without it", async () => {
    server = await startFakeOpenAIServer((request) =>
      request.body.temperature === 0.9
        ? { error: { status: 401, message: "Incorrect API key provided" } }
        : teamHandler(request),
    );
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), teamConfig(server.url));
    const result = await runCli(["--config", "team.yaml", "--no-display", "q"], sandbox);
    expect(result.stderr).toContain("chat_agent_c error 401");
    expect(result.stderr).toContain("Incorrect API key provided");
    expect(result.stderr).toContain("(removed from the team)");
    expect(result.stdout).toBe("Final: 2 + 2 = 4.\n");
    expect(result.code).toBe(0);
  });
});
