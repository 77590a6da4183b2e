/**
 * Usage and cost end to end: a team against the fake OpenAI server on 127.0.0.1, through the
 * built CLI; metrics.json and status.json must carry each agent's tokens and its cost = tokens ×
 * the price table's list prices (written out here, not read from the table), and "unknown"
 * (null) for a model with no price.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { MetricsJson, StatusJson } from "../src/session/reducer.js";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeRequest,
} from "./support/fake-openai-server.js";

/** Per call: 80 uncached + 40 cached input tokens; 25 text + 5 reasoning output tokens. */
const USAGE = { inputTokens: 120, outputTokens: 30, reasoningTokens: 5, cachedInputTokens: 40 };

/** USD per call from the list prices (USD / 1M tokens): input, cached input, output. */
const perCall = (input: number, cached: number, output: number) =>
  (80 * input + 40 * cached + 30 * output) / 1e6;
const GPT_41_MINI_CALL = perCall(0.4, 0.1, 1.6);
const GPT_4O_MINI_CALL = perCall(0.15, 0.075, 0.6);

function handler(request: FakeRequest) {
  return coordinationHandler({
    answer: () => `Answer at temperature ${String(request.body.temperature)}: 2+2=4.`,
    finalAnswer: "Final: 4.",
    usage: USAGE,
  })(request);
}

function config(url: string, third: string): string {
  return `
agents:
  - id: mini
    backend: { type: openai, model: gpt-4.1-mini, base_url: "${url}", api_key: sk-test, temperature: 0.1 }
  - id: four_o
    backend: { type: openai, model: gpt-4o-mini-2024-07-18, base_url: "${url}", api_key: sk-test, temperature: 0.5 }
  - id: third
    backend: ${third.replace("URL", url)}
`;
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(third: string): Promise<{ metrics: MetricsJson; status: StatusJson }> {
  server = await startFakeOpenAIServer(handler);
  const sandbox = await makeSandbox();
  await writeFile(join(sandbox.cwd, "team.yaml"), config(server.url, third));
  const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], sandbox);
  expect(result.stdout).toBe("Final: 4.\n");
  expect(result.code).toBe(0);
  const dir = await onlyAttemptDir(sandbox.cwd);
  return {
    metrics: JSON.parse(await readLog(dir, "metrics.json")) as MetricsJson,
    status: JSON.parse(await readLog(dir, "status.json")) as StatusJson,
  };
}

describe("cost through the CLI against the fake OpenAI server", () => {
  test("every agent priced: per-agent cost = calls × tokens × list prices; totals add up", async () => {
    const { metrics, status } = await run(
      `{ type: openai, model: gpt-4.1-mini-2025-04-14, base_url: "URL", api_key: sk-test, temperature: 0.9 }`,
    );
    const [mini, fourO, third] = metrics.agents;
    // mini wins (all vote agent1): answer, vote, final presentation; the others answer and vote.
    expect(mini!.model_calls).toBe(3);
    expect(fourO!.model_calls).toBe(2);
    expect(third!.model_calls).toBe(2);
    expect(mini!.tokens).toEqual({
      input: 360,
      output: 90,
      reasoning: 15,
      cached_input: 120,
      total: 450,
    });
    expect(mini!.cost_usd).toBeCloseTo(3 * GPT_41_MINI_CALL, 12);
    expect(fourO!.cost_usd).toBeCloseTo(2 * GPT_4O_MINI_CALL, 12);
    expect(third!.cost_usd).toBeCloseTo(2 * GPT_41_MINI_CALL, 12);
    const total = 5 * GPT_41_MINI_CALL + 2 * GPT_4O_MINI_CALL;
    expect(metrics.totals.cost_usd).toBeCloseTo(total, 12);
    expect(metrics.totals.unpriced_model_calls).toBe(0);
    expect(status.totals.cost_usd).toBeCloseTo(total, 12);
    expect(status.agents[1]!.cost_usd).toBeCloseTo(2 * GPT_4O_MINI_CALL, 12);
  });

  test("a model with no price: its tokens, cost unknown (null), and an unknown total", async () => {
    const { metrics, status } = await run(
      `{ type: chatcompletion, model: served-model, base_url: "URL", temperature: 0.9 }`,
    );
    const third = metrics.agents[2]!;
    expect(third.tokens).toMatchObject({ input: 240, output: 60 });
    expect(third.cost_usd).toBeNull();
    expect(third.unpriced_model_calls).toBe(2);
    expect(metrics.agents[0]!.cost_usd).toBeCloseTo(3 * GPT_41_MINI_CALL, 12);
    expect(metrics.totals.cost_usd).toBeNull();
    expect(metrics.totals.unpriced_model_calls).toBe(2);
    expect(status.agents[2]).toMatchObject({ cost_usd: null, unpriced_model_calls: 2 });
    expect(status.totals.cost_usd).toBeNull();
  });
});
