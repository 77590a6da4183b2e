/**
 * The model's context window from the price data feeds the engine's context fitting, through
 * the built CLI: a fake OpenAI model with a small window (3 characters per token, as the engine
 * assumes) refuses a prompt that exceeds it with a message that names no window ("Your input
 * exceeds the context window of this model.", as OpenAI's Responses API says). With the window
 * known — from @pydantic/genai-prices (`gpt-4`) or the agent's `backend.pricing.context_window` —
 * coord shortens the other answers to it and the agent goes on; without it (a model the data does
 * not list) halving twice is not enough and the agent is removed for its context.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { calcPrice } from "@pydantic/genai-prices";
import { afterEach, describe, expect, test } from "vitest";
import type { RunResultJson } from "../src/commands/run-json.js";
import { makeSandbox, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeRequest,
} from "./support/fake-openai-server.js";

/** gpt-4's window in the package's data (tokens). */
const GPT_4_WINDOW = calcPrice({ input_tokens: 0, output_tokens: 0 }, "gpt-4", {
  providerId: "openai",
})!.model.context_window!;

/**
 * What the two long-winded agents answer (distinct, so neither is refused as a copy): each far
 * more than the small model's window holds, so that even a quarter of both overflows it.
 */
function longAnswer(word: string): string {
  return `${word} `.repeat(Math.ceil((GPT_4_WINDOW * 3 * 2.5) / (word.length + 1))).trim();
}

/** The small models: their window in tokens, by model name. */
const SMALL_WINDOWS: Record<string, number> = {
  "gpt-4": GPT_4_WINDOW,
  "served-small": GPT_4_WINDOW,
  "unlisted-small": GPT_4_WINDOW,
};

/** Requests refused for their length, by model. */
let refused: Record<string, number>;

function handler(request: FakeRequest) {
  const model = String(request.body.model);
  const window = SMALL_WINDOWS[model];
  const promptChars = JSON.stringify(request.body.input ?? request.body.messages ?? "").length;
  if (window !== undefined && promptChars > window * 3) {
    refused[model] = (refused[model] ?? 0) + 1;
    return {
      error: {
        status: 400,
        message: "Your input exceeds the context window of this model.",
        code: "context_length_exceeded",
      },
    };
  }
  return coordinationHandler({
    answer: () =>
      window !== undefined ? "Short: 4." : longAnswer(model === "gpt-4o-mini" ? "alpha" : "beta"),
    finalAnswer: "Final: 4.",
  })(request);
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(small: string): Promise<RunResultJson> {
  refused = {};
  server = await startFakeOpenAIServer(handler);
  const sandbox = await makeSandbox();
  const big = (id: string, model: string) =>
    `  - id: ${id}\n    backend: { type: openai, model: ${model}, base_url: "${server!.url}", api_key: sk-test }\n`;
  const config = `agents:\n${big("long_a", "gpt-4o-mini")}${big("long_b", "gpt-4.1-mini")}  - id: small\n    backend: ${small.replace("URL", server.url)}\n`;
  await writeFile(join(sandbox.cwd, "team.yaml"), config);
  const cli = await runCli(["--config", "team.yaml", "--json", "What is 2+2?"], sandbox);
  return JSON.parse(cli.stdout) as RunResultJson;
}

describe("context windows from the price data", () => {
  test("gpt-4's listed window: the answers are shortened to it and the agent goes on", async () => {
    expect(longAnswer("beta").length / 4).toBeGreaterThan((GPT_4_WINDOW * 3) / 2);
    const result = await run(`{ type: openai, model: gpt-4, base_url: "URL", api_key: sk-test }`);
    expect(refused["gpt-4"]).toBeGreaterThan(0); // the first prompt with the answers overflowed
    expect(result.agents.find((agent) => agent.id === "small")).toMatchObject({ error: null });
    expect(result.votes.map((vote) => vote.voter)).toContain("small");
    expect(result.answer).toBe("Final: 4.");
  });

  test("backend.pricing.context_window gives the window of a model the data lacks", async () => {
    const result = await run(
      `{ type: chatcompletion, model: served-small, base_url: "URL", pricing: { context_window: ${GPT_4_WINDOW} } }`,
    );
    expect(refused["served-small"]).toBeGreaterThan(0);
    expect(result.agents.find((agent) => agent.id === "small")).toMatchObject({ error: null });
    expect(result.votes.map((vote) => vote.voter)).toContain("small");
  });

  test("without a known window, halving twice is not enough: the agent is removed for its context", async () => {
    const result = await run(`{ type: chatcompletion, model: unlisted-small, base_url: "URL" }`);
    // each round: the first overflow and the two shortened tries, all refused
    expect(refused["unlisted-small"]).toBeGreaterThanOrEqual(3);
    const small = result.agents.find((agent) => agent.id === "small")!;
    expect(small.error_cause).toBe("context");
    expect(result.votes.map((vote) => vote.voter)).not.toContain("small");
  });
});
