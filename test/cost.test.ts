/**
 * Usage and cost end to end: a team against the fake OpenAI server on 127.0.0.1, through the
 * built CLI; metrics.json and status.json must carry each agent's tokens and its cost = tokens ×
 * the list prices of @pydantic/genai-prices (read from the package here, never written out), an
 * agent's `backend.pricing` over them, and "unknown" (null; in `--json` the model named, with the
 * price data's version) for a model with no price.
 */
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { calcPrice } from "@pydantic/genai-prices";
import { afterEach, describe, expect, test } from "vitest";
import type { RunResultJson } from "../src/commands/run-json.js";
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

/** USD per call from the package's list prices (USD / 1M tokens) of an OpenAI model. */
function perCall(model: string): number {
  const listed = calcPrice({ input_tokens: 0, output_tokens: 0 }, model, { providerId: "openai" });
  const price = (key: string): number => {
    const value = listed?.model_price[key];
    if (typeof value !== "number") throw new Error(`no flat ${key} for ${model}`);
    return value;
  };
  return (
    (80 * price("input_mtok") + 40 * price("cache_read_mtok") + 30 * price("output_mtok")) / 1e6
  );
}
const GPT_41_MINI_CALL = perCall("gpt-4.1-mini");
const GPT_4O_MINI_CALL = perCall("gpt-4o-mini");

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

async function run(third: string): Promise<{
  metrics: MetricsJson;
  status: StatusJson;
  result: RunResultJson;
  sandbox: { cwd: string; home: string };
}> {
  server = await startFakeOpenAIServer(handler);
  const sandbox = await makeSandbox();
  await writeFile(join(sandbox.cwd, "team.yaml"), config(server.url, third));
  const cli = await runCli(["--config", "team.yaml", "--json", "What is 2+2?"], sandbox);
  expect(cli.code).toBe(0);
  const result = JSON.parse(cli.stdout) as RunResultJson;
  expect(result.answer).toBe("Final: 4.");
  const dir = await onlyAttemptDir(sandbox.cwd);
  return {
    metrics: JSON.parse(await readLog(dir, "metrics.json")) as MetricsJson,
    status: JSON.parse(await readLog(dir, "status.json")) as StatusJson,
    result,
    sandbox,
  };
}

/** `@pydantic/genai-prices <version>`, the version read from the installed package. */
async function priceDataLabel(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve("@pydantic/genai-prices");
  const manifest = JSON.parse(
    await readFile(join(dirname(entry), "..", "package.json"), "utf8"),
  ) as {
    version: string;
  };
  return `@pydantic/genai-prices ${manifest.version}`;
}

describe("cost through the CLI against the fake OpenAI server", () => {
  test("every agent priced: per-agent cost = calls × tokens × list prices; totals add up", async () => {
    const { metrics, status, result, sandbox } = await run(
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
    expect(result.cost_usd).toBeCloseTo(total, 12);
    expect(result.cost_complete).toBe(true);
    expect(result.unpriced_models).toEqual([]);
    expect(result.price_data).toBe(await priceDataLabel());

    // `coord logs summary` says where the costs were priced from (execution_metadata.yaml)
    const label = await priceDataLabel();
    const text = await runCli(["logs", "summary"], sandbox);
    expect(text.stdout).toMatch(new RegExp(`^Prices: +${label.replace(/[.]/g, "\\.")}$`, "m"));
    const json = await runCli(["logs", "summary", "--json"], sandbox);
    expect((JSON.parse(json.stdout) as { price_data?: string }).price_data).toBe(label);
  });

  test("an agent's backend.pricing wins over the package's price", async () => {
    const { metrics, result } = await run(
      `{ type: openai, model: gpt-4.1-mini, base_url: "URL", api_key: sk-test, temperature: 0.9, pricing: { input_per_mtok: 100, cached_input_per_mtok: 10, output_per_mtok: 1000 } }`,
    );
    const own = (80 * 100 + 40 * 10 + 30 * 1000) / 1e6;
    expect(metrics.agents[2]!.cost_usd).toBeCloseTo(2 * own, 12);
    expect(own).not.toBeCloseTo(GPT_41_MINI_CALL, 6);
    expect(metrics.agents[0]!.cost_usd).toBeCloseTo(3 * GPT_41_MINI_CALL, 12);
    expect(result.cost_usd).toBeCloseTo(2 * own + 3 * GPT_41_MINI_CALL + 2 * GPT_4O_MINI_CALL, 12);
    expect(result.cost_complete).toBe(true);
  });

  test("a model with no price: its tokens, cost unknown (null), and an unknown total", async () => {
    const { metrics, status, result } = await run(
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
    // --json: the priced part, marked incomplete, and the unpriced model named
    expect(result.cost_complete).toBe(false);
    expect(result.cost_usd).toBeCloseTo(3 * GPT_41_MINI_CALL + 2 * GPT_4O_MINI_CALL, 12);
    expect(result.unpriced_models).toEqual([
      { agent_id: "third", backend: "chatcompletion", model: "served-model", calls: 2 },
    ]);
    expect(result.price_data).toBe(await priceDataLabel());
  });
});
