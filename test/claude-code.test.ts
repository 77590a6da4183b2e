/**
 * The `claude_code` backend end to end: the real Claude Code CLI (bundled with
 * `@anthropic-ai/claude-agent-sdk`) against the fake Anthropic Messages server on 127.0.0.1
 * through `ANTHROPIC_BASE_URL`. The agent answers by calling the `new_answer` workflow tool,
 * which Claude Code reaches as the in-process MCP tool `mcp__coord__new_answer`; votes go through
 * `mcp__coord__vote` with its `agent_id` enum. Nothing but 127.0.0.1 is contacted: Claude Code's
 * non-essential traffic (telemetry, updates, error reports) is switched off.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { BackendError, type Backend, type BackendChunk } from "../src/backends/backend.js";
import { createBackend } from "../src/backends/registry.js";
import { systemClock } from "../src/clock.js";
import { parseConfigText } from "../src/config/load.js";
import { runCoordination } from "../src/engine/run.js";
import type { CoordEvent } from "../src/events/events.js";
import type { MetricsJson } from "../src/session/reducer.js";
import { testRequest } from "./support/backend-test-kit.js";
import { CLAUDE_CODE_TOOL_PREFIX, claudeCodeHandler } from "./support/claude-code-handler.js";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeAnthropicServer,
  summarizeRequest,
  type FakeAnthropicServer,
} from "./support/fake-anthropic-server.js";

const PREFIX = CLAUDE_CODE_TOOL_PREFIX;
/** Per query: 600 uncached + 400 cache-read input tokens, 50 output tokens. */
const USAGE = { inputTokens: 1000, outputTokens: 50, reasoningTokens: 0, cachedInputTokens: 400 };
/** claude-sonnet-4-5 list prices (USD / 1M): 3 input, 0.30 cache read, 15 output. */
const SONNET_QUERY_USD = (600 * 3 + 400 * 0.3 + 50 * 15) / 1e6;

/** Environment of Claude Code: the key, the fake server, a temp HOME, no non-essential traffic. */
function claudeEnv(server: FakeAnthropicServer, home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    ANTHROPIC_API_KEY: "sk-ant-test-123",
    ANTHROPIC_BASE_URL: server.origin,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
  };
}

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("claude_code against the fake Anthropic server", () => {
  test(
    "in process: the agent answers through the MCP new_answer tool",
    { timeout: 120_000 },
    async () => {
      server = await startFakeAnthropicServer(
        claudeCodeHandler(
          coordinationHandler({ answer: "Paris is the capital of France.", usage: USAGE }),
        ),
      );
      const sandbox = await makeSandbox();
      const project = join(sandbox.cwd, "project");
      await mkdir(project);
      const { config } = parseConfigText(
        `
agents:
  - id: coder
    system_message: You are a careful geographer.
    backend:
      type: claude_code
      model: claude-sonnet-4-5
      cwd: project
      allowed_tools: [Read, Grep]
      disallowed_tools: [Bash, WebSearch]
      permission_mode: dontAsk
      append_system_prompt: Answer in one sentence.
      max_thinking_tokens: 0
`,
        { env: {} },
      );
      const agent = config.agents[0]!;
      const backend = await createBackend(agent, 0, {
        env: claudeEnv(server, sandbox.home),
        cwd: sandbox.cwd,
      });
      expect(backend).toMatchObject({ type: "claude_code", model: "claude-sonnet-4-5" });
      const events: CoordEvent[] = [];
      for await (const event of runCoordination({
        runId: "run_cc",
        question: "What is the capital of France?",
        history: [],
        agents: [{ id: agent.id, backend, systemMessage: agent.system_message }],
        mode: "single",
        settings: config.orchestrator,
        orchestratorTimeoutMs: 60_000,
        clock: systemClock,
      })) {
        events.push(event);
      }

      expect(events.find((event) => event.type === "answer")).toMatchObject({
        agentId: "coder",
        label: "agent1.1",
        content: "Paris is the capital of France.",
      });
      expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
      const usage = events.filter((event) => event.type === "usage");
      expect(usage).toHaveLength(1);
      expect(usage[0]).toMatchObject({
        backend: "claude_code",
        model: "claude-sonnet-4-5",
        usage: USAGE,
        finishReason: "tool-calls",
      });

      const calls = server.modelCalls();
      expect(calls).toHaveLength(1);
      const call = calls[0]!;
      const summary = summarizeRequest(call);
      expect(call.headers["x-api-key"]).toBe("sk-ant-test-123");
      expect(summary.model).toBe("claude-sonnet-4-5");
      expect(call.body.thinking).toEqual({ type: "disabled" }); // max_thinking_tokens: 0
      expect(summary.toolNames).toContain("mcp__coord__new_answer");
      expect(summary.toolNames).toContain("Read");
      expect(summary.toolNames).not.toContain("Bash");
      expect(summary.toolNames).not.toContain("WebSearch");
      // coord's system message and rules, then append_system_prompt, on Claude Code's own prompt;
      // Claude Code runs in the agent's working directory.
      expect(summary.system).toContain("You are a careful geographer.");
      expect(summary.system).toContain("Answer in one sentence.");
      expect(summary.text).toContain(project);
      expect(summary.text).toContain("What is the capital of France?");
    },
  );

  test(
    "through the built CLI: two code agents answer, vote through the MCP vote tool, and are priced",
    { timeout: 120_000 },
    async () => {
      server = await startFakeAnthropicServer(
        claudeCodeHandler(
          coordinationHandler({
            answer: (summary) =>
              summary.system.includes("STYLE-A") ? "Four (written by A)." : "4 (written by B).",
            finalAnswer: "Final: four.",
            usage: USAGE,
          }),
        ),
      );
      const sandbox = await makeSandbox();
      await writeFile(
        join(sandbox.cwd, "team.yaml"),
        `
agents:
  - id: coder_a
    backend: { type: claude_code, model: claude-sonnet-4-5, append_system_prompt: STYLE-A }
  - id: coder_b
    backend: { type: claude_code, model: claude-sonnet-4-5, append_system_prompt: STYLE-B }
`,
      );
      const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], {
        ...sandbox,
        env: claudeEnv(server, sandbox.home),
        timeoutMs: 110_000,
      });
      expect(result.stderr).toContain("Winner: coder_a");
      expect(result.stdout).toBe("Final: four.\n");
      expect(result.code).toBe(0);

      // Two answers, two votes (the vote tool's enum names both agents), one presentation.
      const calls = server.modelCalls().map(summarizeRequest);
      expect(calls).toHaveLength(5);
      const voteTool = calls
        .flatMap((summary) => summary.tools)
        .find((entry) => entry.name === "mcp__coord__vote");
      expect(JSON.stringify(voteTool?.parameters)).toContain('"enum":["agent1","agent2"]');

      const dir = await onlyAttemptDir(sandbox.cwd);
      const metrics = JSON.parse(await readLog(dir, "metrics.json")) as MetricsJson;
      const [a, b] = metrics.agents;
      expect(a).toMatchObject({
        model_calls: 3,
        tokens: { input: 3000, cached_input: 1200, output: 150 },
      });
      expect(b).toMatchObject({
        model_calls: 2,
        tokens: { input: 2000, cached_input: 800, output: 100 },
      });
      expect(a!.cost_usd).toBeCloseTo(3 * SONNET_QUERY_USD, 12);
      expect(b!.cost_usd).toBeCloseTo(2 * SONNET_QUERY_USD, 12);
      expect(metrics.totals.cost_usd).toBeCloseTo(5 * SONNET_QUERY_USD, 12);
    },
  );

  test(
    "Claude Code's own tools run in the agent's cwd and are reported as provider tool calls",
    { timeout: 120_000 },
    async () => {
      const sandbox = await makeSandbox();
      const notes = join(sandbox.cwd, "notes.txt");
      await writeFile(notes, "The secret number is 73.\n");
      server = await startFakeAnthropicServer((request) => {
        const text = summarizeRequest(request).text;
        return text.includes("The secret number is 73")
          ? {
              text: "Found it.",
              toolCalls: [{ name: `${PREFIX}new_answer`, arguments: { content: "It is 73." } }],
            }
          : {
              text: "Let me read the notes.",
              toolCalls: [{ name: "Read", arguments: { file_path: notes } }],
            };
      });
      const backend = await codeBackend(server, sandbox, "allowed_tools: [Read]");
      const chunks = await collect(backend, testRequest());
      expect(
        chunks
          .filter((chunk) => chunk.type === "text-delta")
          .map((chunk) => chunk.type === "text-delta" && chunk.text)
          .join(""),
      ).toBe("Let me read the notes.\n\nFound it.");
      expect(chunks.find((chunk) => chunk.type === "provider-tool-call")).toMatchObject({
        toolName: "Read",
        input: { file_path: notes },
      });
      const result = chunks.find((chunk) => chunk.type === "provider-tool-result");
      expect(result).toMatchObject({ toolName: "Read", isError: false });
      expect(JSON.stringify(result)).toContain("The secret number is 73.");
      expect(chunks.find((chunk) => chunk.type === "tool-call")).toMatchObject({
        toolName: "new_answer",
        input: { content: "It is 73." },
      });
      expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
      expect(server.modelCalls()).toHaveLength(2);
    },
  );

  test(
    "a 401 is a BackendError that is not retried and names the key",
    { timeout: 120_000 },
    async () => {
      server = await startFakeAnthropicServer([
        { error: { status: 401, message: "invalid x-api-key" } },
      ]);
      const sandbox = await makeSandbox();
      const backend = await codeBackend(server, sandbox);
      const error = await collect(backend, testRequest()).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(BackendError);
      expect(error).toMatchObject({ provider: "claude_code", status: 401, retryable: false });
      expect((error as Error).message).toMatch(/invalid (x-)?api[ -]key/i);
      expect((error as Error).message).toContain("ANTHROPIC_API_KEY");
      expect(server.modelCalls()).toHaveLength(1); // Claude Code's own retries are off
    },
  );

  test(
    "a 529 overload is retryable; an abort ends the query with an AbortError",
    { timeout: 120_000 },
    async () => {
      // The slow request is held until the test ends: only the abort can end its query. It is
      // aborted once it reached the server (a condition, however long Claude Code takes to start).
      let arrived: () => void = () => undefined;
      const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
      let release: () => void = () => undefined;
      server = await startFakeAnthropicServer((request) => {
        if (!summarizeRequest(request).text.includes("slow"))
          return { error: { status: 529, message: "Overloaded" } };
        arrived();
        return new Promise((resolve) => (release = () => resolve({ text: "late" })));
      });
      const sandbox = await makeSandbox();
      const backend = await codeBackend(server, sandbox);
      await expect(collect(backend, testRequest())).rejects.toMatchObject({
        status: 529,
        retryable: true,
      });
      const controller = new AbortController();
      const query = collect(
        backend,
        testRequest({ messages: [{ role: "user", content: "slow" }] }),
        controller.signal,
      ).catch((caught: unknown) => caught);
      await slowArrived;
      controller.abort();
      const aborted = await query;
      release();
      expect((aborted as Error).name).toBe("AbortError");
    },
  );
});

async function codeBackend(
  fake: FakeAnthropicServer,
  sandbox: { cwd: string; home: string },
  extra = "",
): Promise<Backend> {
  const { config } = parseConfigText(
    `agents:\n  - id: coder\n    backend: { type: claude_code, model: claude-sonnet-4-5${extra ? `, ${extra}` : ""} }\n`,
    { env: {} },
  );
  return createBackend(config.agents[0]!, 0, {
    env: claudeEnv(fake, sandbox.home),
    cwd: sandbox.cwd,
  });
}

async function collect(
  backend: Backend,
  request: ReturnType<typeof testRequest>,
  signal = new AbortController().signal,
): Promise<BackendChunk[]> {
  const chunks: BackendChunk[] = [];
  for await (const chunk of backend.stream(request, { signal })) chunks.push(chunk);
  return chunks;
}
