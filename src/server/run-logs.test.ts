/**
 * Run logs of concurrent requests (docs/server.md "Run logs"): requests answered at the same time
 * (so in the same second: the log directory names collide and take `_2`, `_3`, …) each get a log
 * directory of their own, and each log is complete and readable by `coord logs`'s reader — its
 * events all of its own run, from `run-start` to `run-end`, with status.json and metrics.json
 * written. A team on the fake OpenAI server (the real wire format) that answers each question by
 * name, so a log holding another request's events would show it.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { readRunLog, resolveAttemptDir } from "../store/index.js";
import { echoHandler, echoTeamConfig } from "../../test/support/echo-team.js";
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "../../test/support/fake-openai-server.js";
import { createApp } from "./app.js";
import type { ChatCompletion } from "./chat-completion.js";
import { loadServedTeam } from "./served-team.js";

const PARALLEL = 8;

let provider: FakeOpenAIServer;
let cwd: string;

beforeAll(async () => {
  provider = await startFakeOpenAIServer(echoHandler());
  cwd = await mkdtemp(join(tmpdir(), "coord-serve-logs-"));
  await writeFile(join(cwd, "team.yaml"), echoTeamConfig(provider.url, 3));
});

afterAll(async () => {
  await provider.close();
});

test("concurrent requests each get their own complete, readable run log", async () => {
  const team = await loadServedTeam("team.yaml", { cwd, env: {} });
  const app = createApp({ team, env: {}, cwd, version: "0.0.0-test", logRoot: "logs" });
  const questions = Array.from({ length: PARALLEL }, (_, index) => `What is ${index} + ${index}?`);
  const responses = await Promise.all(
    questions.map(async (question) =>
      app.request("/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "coord", messages: [{ role: "user", content: question }] }),
      }),
    ),
  );
  const logDirs: string[] = [];
  for (const [index, response] of responses.entries()) {
    expect(response.status).toBe(200);
    const question = questions[index]!;
    const body = (await response.json()) as ChatCompletion;
    expect(body.choices[0].message.content).toBe(`Final answer to: ${question}`);
    const logDir = response.headers.get("x-coord-log-dir");
    expect(logDir).toMatch(/^logs\/log_\d{8}_\d{6}(_\d+)?$/);
    logDirs.push(logDir!);

    const attempt = await resolveAttemptDir(join(cwd, logDir!));
    const log = await readRunLog(attempt.dir);
    expect(log.truncated).toBe(false);
    // Every event is this run's: none of another request's run was written here.
    expect(new Set(log.events.map((event) => event.runId))).toEqual(new Set([basename(logDir!)]));
    expect(log.events[0]?.type).toBe("run-start");
    expect(log.events.at(-1)?.type).toBe("run-end");
    expect(log.events.map((event) => event.seq)).toEqual(log.events.map((_, seq) => seq + 1));
    expect(log.state.question).toBe(question);
    expect(log.state.endReason).toBe("completed");
    expect(log.state.finalAnswer).toBe(body.choices[0].message.content);
    for (const answer of log.state.answers) expect(answer.content).toContain(question);
    // The files written beside the events agree with them (status.json's final phase: this test
    // found the log writer leaving it mid-run under concurrency, src/store/log-writer-status-race.test.ts).
    expect(log.status?.run_id).toBe(basename(logDir!));
    expect(log.status?.phase).toBe(log.state.phase);
    expect(log.metrics?.totals.tokens.input).toBe(body.usage.prompt_tokens);
  }
  expect(new Set(logDirs).size).toBe(PARALLEL);
}, 30_000); // 8 three-agent runs at once on a loaded machine: more than a unit test's 10 s
