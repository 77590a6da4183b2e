/**
 * One agent per provider `--backend` value, each pointed at a fake server on 127.0.0.1 that
 * speaks its provider's real wire format, through the built CLI: the team completes a run with a
 * winner, and metrics.json carries each agent's usage exactly as its provider reported it. Also:
 * keys come from the environment and `~/.config/coord/.env`, and a missing key stops the run
 * before any agent starts.
 *
 * Extending the team: add an entry to {@link providerAgents} (see the marked place for
 * `claude_code`). Cost assertions: set `costUsd` on an entry (or extend `checkAgentMetrics`).
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { calcPrice } from "@pydantic/genai-prices";
import { afterEach, describe, expect, test } from "vitest";
import { claudeCodeHandler, workflowView } from "./support/claude-code-handler.js";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";
import { startFakeAnthropicServer } from "./support/fake-anthropic-server.js";
import { startFakeAzureServer } from "./support/fake-azure-server.js";
import { startFakeGeminiServer } from "./support/fake-gemini-server.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  summarizeRequest,
  type FakeHandler,
  type FakeRequest,
  type FakeUsage,
} from "./support/fake-openai-server.js";
import { startFakeXaiServer } from "./support/fake-xai-server.js";

/** Token counts in the shape metrics.json writes them. */
interface Tokens {
  input: number;
  output: number;
  reasoning: number;
  cached_input: number;
}

/** One agent of the team and the fake server behind it. */
interface ProviderAgent {
  id: string;
  /** The `--backend` value. */
  type: string;
  /** The YAML `backend:` block (flow style), given the started server. */
  backendYaml: string;
  /** Environment the agent needs (keys, endpoints). */
  env: Record<string, string>;
  /** Usage every reply reports, in coord's terms. */
  usage: Required<FakeUsage>;
  /** The model calls the server received. */
  modelCalls(): FakeRequest[];
  close(): Promise<void>;
  /**
   * Expected `cost_usd` per model call (USD, from the list prices in src/backends/pricing.ts), or
   * `null` when the model has no price (cost unknown).
   */
  costUsdPerCall?: number | null;
}

/** A flat list price (USD / 1M tokens) of a model in @pydantic/genai-prices. */
function listedPrice(providerId: string, model: string, key: string): number {
  const price = calcPrice({ input_tokens: 0, output_tokens: 0 }, model, { providerId })
    ?.model_price[key];
  if (typeof price !== "number") throw new Error(`no flat ${key} for ${providerId} ${model}`);
  return price;
}

const FINAL_ANSWER = "Final: the team agrees that 2 + 2 = 4.";

/** A coordinating agent whose answers name the agent, with fixed usage. */
function agentHandler(id: string, usage: FakeUsage): FakeHandler {
  return coordinationHandler({
    answer: `${id} says 2 + 2 = 4 (${id}).`,
    voteFor: "agent1",
    finalAnswer: FINAL_ANSWER,
    usage,
  });
}

/** Starts every provider's fake server and describes the agent pointed at it, in config order. */
async function providerAgents(): Promise<ProviderAgent[]> {
  const agents: ProviderAgent[] = [];

  const openaiUsage = {
    inputTokens: 120,
    outputTokens: 30,
    reasoningTokens: 6,
    cachedInputTokens: 40,
  };
  const openai = await startFakeOpenAIServer(agentHandler("openai_agent", openaiUsage));
  agents.push({
    id: "openai_agent",
    type: "openai",
    backendYaml: `{ type: openai, model: gpt-5-mini, base_url: "${openai.url}" }`,
    env: { OPENAI_API_KEY: "sk-openai-test" },
    usage: openaiUsage,
    // gpt-5-mini: 0.25 input, 0.025 cached input, 2.00 output (USD / 1M tokens).
    costUsdPerCall: (80 * 0.25 + 40 * 0.025 + 30 * 2) / 1e6,
    modelCalls: () => openai.requests.filter((request) => request.method === "POST"),
    close: () => openai.close(),
  });

  const claudeUsage = {
    inputTokens: 210,
    outputTokens: 45,
    reasoningTokens: 12,
    cachedInputTokens: 60,
  };
  const anthropic = await startFakeAnthropicServer(agentHandler("claude_agent", claudeUsage));
  agents.push({
    id: "claude_agent",
    type: "claude",
    backendYaml: `{ type: claude, model: claude-sonnet-4-5, base_url: "${anthropic.url}" }`,
    env: { ANTHROPIC_API_KEY: "sk-ant-test" },
    usage: claudeUsage,
    // claude-sonnet-4-5: 3 input, 0.30 cache read, 15 output.
    costUsdPerCall: (150 * 3 + 60 * 0.3 + 45 * 15) / 1e6,
    modelCalls: () => anthropic.modelCalls(),
    close: () => anthropic.close(),
  });

  const geminiUsage = {
    inputTokens: 330,
    outputTokens: 55,
    reasoningTokens: 20,
    cachedInputTokens: 30,
  };
  const gemini = await startFakeGeminiServer(agentHandler("gemini_agent", geminiUsage));
  agents.push({
    id: "gemini_agent",
    type: "gemini",
    backendYaml: `{ type: gemini, model: gemini-2.5-flash, base_url: "${gemini.url}" }`,
    env: { GEMINI_API_KEY: "gm-test" },
    usage: geminiUsage,
    // gemini-2.5-flash: 0.30 input, 0.03 cached input, 2.50 output (thinking included).
    costUsdPerCall: (300 * 0.3 + 30 * 0.03 + 55 * 2.5) / 1e6,
    modelCalls: () => gemini.modelCalls(),
    close: () => gemini.close(),
  });

  const grokUsage = {
    inputTokens: 140,
    outputTokens: 65,
    reasoningTokens: 25,
    cachedInputTokens: 14,
  };
  const xai = await startFakeXaiServer(agentHandler("grok_agent", grokUsage));
  agents.push({
    id: "grok_agent",
    type: "grok",
    backendYaml: `{ type: grok, model: grok-3-mini, base_url: "${xai.url}" }`,
    env: { XAI_API_KEY: "xai-test" },
    usage: grokUsage,
    // grok-3-mini: 0.30 input, 0.075 cached input, 0.50 output (reasoning included).
    costUsdPerCall: (126 * 0.3 + 14 * 0.075 + 65 * 0.5) / 1e6,
    modelCalls: () => xai.modelCalls(),
    close: () => xai.close(),
  });

  const azureUsage = {
    inputTokens: 150,
    outputTokens: 35,
    reasoningTokens: 0,
    cachedInputTokens: 50,
  };
  const azure = await startFakeAzureServer(agentHandler("azure_agent", azureUsage));
  agents.push({
    id: "azure_agent",
    type: "azure_openai",
    backendYaml: `{ type: azure_openai, model: team-gpt-4o, api_version: "2024-10-21" }`,
    env: { AZURE_OPENAI_API_KEY: "az-test", AZURE_OPENAI_ENDPOINT: azure.endpoint },
    usage: azureUsage,
    // An Azure deployment name is not a model id: no price, so the cost is unknown.
    costUsdPerCall: null,
    modelCalls: () => azure.modelCalls(),
    close: () => azure.close(),
  });

  const zaiUsage = { inputTokens: 160, outputTokens: 40, reasoningTokens: 8, cachedInputTokens: 0 };
  const zai = await startFakeOpenAIServer(agentHandler("zai_agent", zaiUsage), {
    alwaysStreamUsage: true,
  });
  agents.push({
    id: "zai_agent",
    type: "zai",
    backendYaml: `{ type: zai, model: glm-5.2, base_url: "${zai.url}" }`,
    env: { ZAI_API_KEY: "zai-test" },
    usage: zaiUsage,
    // glm-5.2's input and output prices in @pydantic/genai-prices (no cached tokens here).
    costUsdPerCall:
      (160 * listedPrice("zai", "glm-5.2", "input_mtok") +
        40 * listedPrice("zai", "glm-5.2", "output_mtok")) /
      1e6,
    modelCalls: () => zai.requests.filter((request) => request.method === "POST"),
    close: () => zai.close(),
  });

  // The code agent: the Claude Code CLI on its own fake Anthropic server (ANTHROPIC_BASE_URL),
  // reaching the workflow tools as MCP tools; the checks below see them under their plain names.
  const codeUsage = {
    inputTokens: 420,
    outputTokens: 70,
    reasoningTokens: 10,
    cachedInputTokens: 120,
  };
  const code = await startFakeAnthropicServer(
    claudeCodeHandler(agentHandler("claude_code_agent", codeUsage)),
  );
  agents.push({
    id: "claude_code_agent",
    type: "claude_code",
    backendYaml: `{ type: claude_code, model: claude-haiku-4-5, permission_mode: dontAsk }`,
    env: {
      ANTHROPIC_BASE_URL: code.origin,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
    },
    usage: codeUsage,
    // claude-haiku-4-5: 1 input, 0.10 cache read, 5 output.
    costUsdPerCall: (300 * 1 + 120 * 0.1 + 70 * 5) / 1e6,
    modelCalls: () => code.modelCalls().map(workflowView),
    close: () => code.close(),
  });

  return agents;
}

function teamYaml(agents: readonly ProviderAgent[]): string {
  return `agents:\n${agents.map((agent) => `  - id: ${agent.id}\n    backend: ${agent.backendYaml}\n`).join("")}`;
}

function times(usage: Required<FakeUsage>, calls: number): Tokens {
  return {
    input: usage.inputTokens * calls,
    output: usage.outputTokens * calls,
    reasoning: usage.reasoningTokens * calls,
    cached_input: usage.cachedInputTokens * calls,
  };
}

interface AgentMetrics {
  id: string;
  backend: string;
  model_calls: number;
  tokens: Tokens & { total: number };
  cost_usd: number | null;
}

let running: ProviderAgent[] = [];
afterEach(async () => {
  await Promise.all(running.map((agent) => agent.close()));
  running = [];
});

describe("one agent per provider backend, each on its own fake server", () => {
  test("completes a run with a winner and each agent's usage in metrics.json", async () => {
    running = await providerAgents();
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.cwd, "team.yaml"), teamYaml(running));
    const env = Object.assign({}, ...running.map((agent) => agent.env)) as Record<string, string>;
    const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], {
      ...sandbox,
      env,
    });
    expect(result.stderr).toContain(
      `[orchestrator] Winner: openai_agent (agent1.1; ${running.length} votes)`,
    );
    expect(result.stdout).toBe(`${FINAL_ANSWER}\n`);
    expect(result.code).toBe(0);

    // Each provider saw its own wire: one answer round, one vote round; the winner presented.
    for (const [index, agent] of running.entries()) {
      const calls = agent.modelCalls().map(summarizeRequest);
      // Workflow tools only: file tools come too, since the claude_code agent always has a
      // workspace whose snapshots the others may read (docs/tools.md).
      const toolSets = calls.map((call) =>
        call.toolNames.filter((name) => name === "new_answer" || name === "vote").join("+"),
      );
      expect(toolSets, agent.id).toEqual(
        index === 0 ? ["new_answer", "new_answer+vote", ""] : ["new_answer", "new_answer+vote"],
      );
      const voteRound = calls[1]!;
      for (const other of running) expect(voteRound.text, agent.id).toContain(`(${other.id})`);
    }

    const dir = await onlyAttemptDir(sandbox.cwd);
    const metrics = JSON.parse(await readLog(dir, "metrics.json")) as {
      end_reason: string;
      agents: AgentMetrics[];
      totals: { model_calls: number; tokens: Tokens; cost_usd: number | null };
    };
    expect(metrics.end_reason).toBe("completed");
    expect(metrics.agents.map((agent) => [agent.id, agent.backend])).toEqual(
      running.map((agent) => [agent.id, agent.type]),
    );
    let totalCalls = 0;
    for (const [index, agent] of running.entries()) {
      const calls = index === 0 ? 3 : 2;
      totalCalls += calls;
      const entry = metrics.agents.find((candidate) => candidate.id === agent.id)!;
      expect(entry.model_calls, agent.id).toBe(calls);
      expect(entry.tokens, agent.id).toMatchObject(times(agent.usage, calls));
      if (agent.costUsdPerCall === null) expect(entry.cost_usd, agent.id).toBeNull();
      else if (agent.costUsdPerCall !== undefined) {
        expect(entry.cost_usd, agent.id).toBeCloseTo(agent.costUsdPerCall * calls, 10);
      }
    }
    expect(metrics.totals.model_calls).toBe(totalCalls);

    // A model without a price makes the run's total cost unknown, never a partial sum.
    expect(metrics.totals.cost_usd).toBeNull();

    // No key reached the logs.
    const metadata = await readLog(dir, "execution_metadata.yaml");
    for (const [name, value] of Object.entries(env)) {
      if (/_(KEY|TOKEN)$/.test(name)) expect(metadata).not.toContain(value);
    }
  });
});

describe("provider keys", () => {
  test("`coord --backend claude` without a key exits 1 naming ANTHROPIC_API_KEY, before any agent starts", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--backend", "claude", "--model", "claude-sonnet-4-5", "q"],
      sandbox,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("agents[0] (agent_a)");
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    expect(result.stderr).toContain("~/.config/coord/.env");
    expect(existsSync(join(sandbox.cwd, "agent_outputs"))).toBe(false);
  });

  test.each([
    ["gemini", "gemini-2.5-pro", "GEMINI_API_KEY"],
    ["grok", "grok-4", "XAI_API_KEY"],
    ["azure_openai", "my-deployment", "AZURE_OPENAI_API_KEY"],
  ])(
    "`coord --backend %s --model %s` without a key exits 1 naming %s",
    async (backend, model, variable) => {
      const sandbox = await makeSandbox();
      const env: Record<string, string> =
        backend === "azure_openai" ? { AZURE_OPENAI_ENDPOINT: "https://r.openai.azure.com" } : {};
      const result = await runCli(["--backend", backend, "--model", model, "q"], {
        ...sandbox,
        env,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("agents[0] (agent_a)");
      expect(result.stderr).toContain(variable);
    },
  );

  test("reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from ~/.config/coord/.env", async () => {
    const server = await startFakeAnthropicServer(
      coordinationHandler({ answer: "Four.", finalAnswer: "Four." }),
    );
    try {
      const sandbox = await makeSandbox();
      await mkdir(join(sandbox.home, ".config", "coord"), { recursive: true });
      await writeFile(
        join(sandbox.home, ".config", "coord", ".env"),
        `ANTHROPIC_API_KEY=sk-ant-from-dotenv\nANTHROPIC_BASE_URL=${server.origin}\n`,
      );
      const result = await runCli(
        ["--backend", "claude", "--model", "claude-haiku-4-5", "--no-display", "What is 2+2?"],
        sandbox,
      );
      expect(result.stdout).toBe("Four.\n");
      expect(result.code).toBe(0);
      expect(server.modelCalls().length).toBeGreaterThan(0);
      for (const call of server.modelCalls()) {
        expect(call.headers["x-api-key"]).toBe("sk-ant-from-dotenv");
      }
    } finally {
      await server.close();
    }
  });
});
