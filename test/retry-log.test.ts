/**
 * Retries reach the run's one event stream: a provider
 * that answers 429 (with retry-after-ms), then 500, then the answer, over a real socket through the
 * official client; the run log's events.jsonl holds the two `retry` events, metrics.json counts
 * them, and the built CLI's `coord logs summary` shows them.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { parseConfigText } from "../src/config/index.js";
import { parseEventLog } from "../src/events/index.js";
import { runTeam } from "../src/runner/run-team.js";
import { makeSandbox, runCli } from "./support/cli.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("retries in the run log", () => {
  test("429 with retry-after-ms, then 500, then the answer: two retry events in events.jsonl, counted and summarised", async () => {
    server = await startFakeOpenAIServer([
      { error: { status: 429, message: "Rate limit reached", retryAfterMs: 70 } },
      { error: { status: 500, message: "The server had an error", retryAfterMs: 30 } },
      { toolCalls: [{ name: "new_answer", arguments: { content: "4" } }] },
    ]);
    const { config } = parseConfigText(
      `agents:\n  - id: solo\n    backend: { type: chatcompletion, model: m, base_url: "${server.url}" }\n`,
      { env: {} },
    );
    const root = await mkdtemp(join(tmpdir(), "coord-retry-log-"));
    const { state, logDir, runDir } = await runTeam({
      config,
      mode: "single",
      agentIndexes: [0],
      question: "What is 2+2?",
      env: {},
      cwd: root,
      log: { root, coordVersion: "test", cliArgs: [], debug: false },
    });
    expect(state.endReason).toBe("completed");
    expect(state.finalAnswer).toBe("4");
    expect(server.requests.filter((request) => request.method === "POST")).toHaveLength(3);

    const { events } = parseEventLog(await readFile(join(logDir!, "events.jsonl"), "utf8"));
    const retries = events.filter((event) => event.type === "retry");
    expect(retries).toHaveLength(2);
    expect(retries[0]).toMatchObject({
      agentId: "solo",
      round: 1,
      attempt: 1,
      waitMs: 70,
      status: 429,
      errorKind: "http",
      reason: expect.stringContaining("Rate limit reached") as unknown,
    });
    expect(retries[1]).toMatchObject({ attempt: 2, waitMs: 30, status: 500, errorKind: "http" });
    // Announced before the call they belong to ends: both come before its usage event.
    const usageAt = events.findIndex((event) => event.type === "usage");
    expect(events.indexOf(retries[1]!)).toBeLessThan(usageAt);

    const metrics = JSON.parse(await readFile(join(logDir!, "metrics.json"), "utf8")) as {
      totals: { retries: { count: number; wait_ms: number } };
    };
    expect(metrics.totals.retries.count).toBe(2);
    expect(metrics.totals.retries).toEqual({ count: 2, wait_ms: 100 });

    const { cwd, home } = await makeSandbox();
    const summary = await runCli(["logs", "summary", "--log-dir", runDir!], { cwd, home });
    expect(summary.code).toBe(0);
    expect(summary.stdout).toMatch(
      /^Retries: +2 provider requests retried, 100 ms waited \(solo 2\)$/m,
    );
    const json = await runCli(["logs", "summary", "--log-dir", runDir!, "--json"], { cwd, home });
    expect(JSON.parse(json.stdout)).toMatchObject({
      totals: { retries: { count: 2 } },
      agents: [{ id: "solo", retries: { count: 2 } }],
    });
  });
});
