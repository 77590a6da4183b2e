/**
 * `coord serve` over a real socket with the official `openai` npm client (CONTRIBUTING.md rule 12):
 * a scripted team and a fake-provider team behind the server; content, reasoning_content and
 * usage as docs/server.md specifies, the SDK's 501 error for `stream: true`, the models list and
 * bearer authentication.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, test } from "vitest";
import { createApp, type AppOptions } from "../src/server/app.js";
import { loadServedTeam } from "../src/server/served-team.js";
import { startServer, type RunningServer } from "../src/server/start-server.js";
import { ECHO_USAGE, echoHandler, echoTeamConfig } from "./support/echo-team.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

let server: RunningServer | undefined;
let provider: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close({ graceMs: 0 });
  await provider?.close();
  server = provider = undefined;
});

/** Starts the app on 127.0.0.1 and returns an SDK client pointed at it. */
async function serve(options: Omit<AppOptions, "env" | "version"> & { apiKey?: string }) {
  server = await startServer(createApp({ env: {}, version: "0.0.0-test", ...options }), {
    host: "127.0.0.1",
    port: 0,
  });
  return new OpenAI({ baseURL: `${server.url}/v1`, apiKey: options.apiKey ?? "unused" });
}

type ReasoningMessage = OpenAI.ChatCompletionMessage & { reasoning_content?: string };

describe("the openai client against coord serve", () => {
  test("a scripted team: content, reasoning_content, and usage equal to the run's metrics.json", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coord-serve-"));
    const team = await loadServedTeam("@examples/scripted_team", { cwd, env: {} });
    const client = await serve({ team, cwd, logRoot: "agent_outputs" });
    const { data: completion, response } = await client.chat.completions
      .create({
        model: "coord",
        messages: [
          { role: "system", content: "Be brief." },
          { role: "user", content: "What is 2 + 2?" },
        ],
      })
      .withResponse();
    expect(completion.object).toBe("chat.completion");
    expect(completion.id).toMatch(/^chatcmpl-/);
    expect(completion.model).toBe("coord/scripted_team");
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe("stop");
    const message = choice.message as ReasoningMessage;
    expect(message.role).toBe("assistant");
    expect(message.content).toBe("2 + 2 = 4.");
    const lines = message.reasoning_content!.split("\n");
    expect(lines[0]).toBe("[system] Question: What is 2 + 2?");
    expect(
      lines.filter((line) => line.startsWith("[orchestrator] Vote: alice (from ")),
    ).toHaveLength(3);
    expect(lines.some((line) => line.startsWith("[bob] New answer agent2.1: "))).toBe(true);

    const logDir = response.headers.get("x-coord-log-dir")!;
    const metrics = JSON.parse(
      await readFile(join(cwd, logDir, "turn_1", "attempt_1", "metrics.json"), "utf8"),
    ) as { totals: { tokens: Record<string, number> } };
    expect(completion.usage).toMatchObject({
      prompt_tokens: metrics.totals.tokens.input,
      completion_tokens: metrics.totals.tokens.output,
      total_tokens: metrics.totals.tokens.total,
    });
    expect(completion.usage!.prompt_tokens).toBeGreaterThan(0);
  });

  test("a fake-provider team: the answer to this question, usage summed over the model calls", async () => {
    provider = await startFakeOpenAIServer(echoHandler());
    const cwd = await mkdtemp(join(tmpdir(), "coord-serve-"));
    await writeFile(join(cwd, "team.yaml"), echoTeamConfig(provider.url, 2));
    const team = await loadServedTeam("team.yaml", { cwd, env: {} });
    const client = await serve({ team, cwd });
    const completion = await client.chat.completions.create({
      model: "ignored",
      messages: [{ role: "user", content: "How many legs has a spider?" }],
    });
    expect(completion.choices[0]!.message.content).toBe(
      "Final answer to: How many legs has a spider?",
    );
    // Two answers, two votes, one presentation: five model calls at ECHO_USAGE each.
    expect(provider.requests).toHaveLength(5);
    expect(completion.usage).toEqual({
      prompt_tokens: 5 * ECHO_USAGE.inputTokens,
      completion_tokens: 5 * ECHO_USAGE.outputTokens,
      total_tokens: 5 * (ECHO_USAGE.inputTokens + ECHO_USAGE.outputTokens),
      prompt_tokens_details: { cached_tokens: 5 * ECHO_USAGE.cachedInputTokens },
      completion_tokens_details: { reasoning_tokens: 5 * ECHO_USAGE.reasoningTokens },
    });
    const reasoning = (completion.choices[0]!.message as ReasoningMessage).reasoning_content!;
    expect(reasoning).toContain("[orchestrator] Vote: echo_1 (from echo_2: ");
  });

  test("stream: true raises the SDK's 501 error, once (not retried)", async () => {
    const team = await loadServedTeam("@examples/scripted_team", { cwd: process.cwd(), env: {} });
    const logged: string[] = [];
    const client = await serve({ team, cwd: process.cwd(), onLog: (line) => logged.push(line) });
    const attempt = client.chat.completions.create({
      model: "coord",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    const error = await attempt.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(501);
    expect(apiError.code).toBe("streaming_not_supported");
    expect(apiError.message).toContain("streaming is not supported");
    expect(logged.filter((line) => line.includes("POST /v1/chat/completions 501"))).toHaveLength(1);
  });

  test("models.list names the served team; a wrong key is the SDK's AuthenticationError", async () => {
    const team = await loadServedTeam("@examples/scripted_team", { cwd: process.cwd(), env: {} });
    const client = await serve({ team, cwd: process.cwd(), apiKey: "sk-coord-test" });
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(["coord/scripted_team"]);
    const intruder = new OpenAI({
      baseURL: `${server!.url}/v1`,
      apiKey: "sk-wrong",
      maxRetries: 0,
    });
    await expect(intruder.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  test("a client that goes away stops its run", async () => {
    let arrived: () => void = () => undefined;
    const modelCallArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    provider = await startFakeOpenAIServer(async () => {
      arrived();
      await released;
      return { text: "too late" };
    });
    const cwd = await mkdtemp(join(tmpdir(), "coord-serve-"));
    await writeFile(join(cwd, "team.yaml"), echoTeamConfig(provider.url, 1));
    const team = await loadServedTeam("team.yaml", { cwd, env: {} });
    let ended: (reason: string | null) => void = () => undefined;
    const runEnded = new Promise<string | null>((resolve) => (ended = resolve));
    const client = await serve({ team, cwd, onRunEnd: (state) => ended(state.endReason) });
    const controller = new AbortController();
    const request = client.chat.completions.create(
      { model: "coord", messages: [{ role: "user", content: "Never mind" }] },
      { signal: controller.signal, maxRetries: 0 },
    );
    await modelCallArrived;
    controller.abort();
    await expect(request).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    expect(await runEnded).toBe("interrupted");
    release();
  });
});
