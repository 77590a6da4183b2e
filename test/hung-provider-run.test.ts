/**
 * One agent, or the presenter, on a provider that hangs: the straggler cut
 * needs two agents, so this once held the run until the 30-minute orchestrator timeout (a local
 * server got no liveness limit at all). Now the stream-idle timeout ends each attempt and the
 * retry wrapper gives up after its retries. In process, through the runner, over a real socket:
 * a fake OpenAI server on 127.0.0.1 that sends its headers and then nothing, with
 * `timeout_settings` from the config. The run takes its time from a virtual clock and sends
 * through the gate's fetch (test/support/io-gate.ts): time moves only while no request is on its
 * way, and a stalled reply is held by the server, so the idle limits and the retries' backoff
 * (1, 2, 4 s) fire at once in virtual time, never before a reply that is about to arrive.
 */
import { tmpdir } from "node:os";
import { afterEach, describe, expect, test } from "vitest";
import { parseConfigText } from "../src/config/index.js";
import type { CoordEvent } from "../src/events/index.js";
import { startRun } from "../src/runner/run-team.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeReply,
  type FakeRequest,
} from "./support/fake-openai-server.js";
import { createIoGate, type IoGate } from "./support/io-gate.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One agent on the chat server at `url` (on 127.0.0.1: a local server), with short limits. */
function teamConfig(url: string) {
  return parseConfigText(
    [
      "agents:",
      "  - id: a",
      `    backend: { type: chatcompletion, model: m, base_url: "${url}" }`,
      "timeout_settings: { stream_idle_timeout_seconds: 0.2, orchestrator_timeout_seconds: 60 }",
    ].join("\n"),
    { env: {} },
  ).config;
}

/** The reply's head and first event, then nothing (for 60 s): the server holds the rest. */
function stall(gate: IoGate, request: FakeRequest): FakeReply {
  gate.hold(request, { afterFirstBytes: true });
  return { text: "The answer is", chunkDelayMs: 60_000 };
}

describe("a single agent on a provider that hangs", () => {
  test("headers, then nothing: each attempt ends after the idle limit, the run ends long before the orchestrator timeout", async () => {
    const gate = createIoGate();
    server = await startFakeOpenAIServer((request) => stall(gate, request));
    const config = teamConfig(server.url);
    const clock = gate.clock;
    const started = clock.now();
    const handle = await startRun({
      config,
      mode: "single",
      agentIndexes: [0],
      question: "What is 3 x 6?",
      env: {},
      cwd: tmpdir(),
      clock,
      fetch: gate.fetch,
    });
    await handle.done;
    const events: readonly CoordEvent[] = handle.live.events;
    const elapsedMs = clock.now() - started;
    const idle =
      "chatcompletion: the response stream was silent for 0.2 s (timeout_settings.stream_idle_timeout_seconds)";
    // Every attempt (the engine may give the agent a second round) ends on the idle limit.
    const retries = events.filter((event) => event.type === "retry");
    expect(retries.length).toBeGreaterThanOrEqual(3);
    for (const retry of retries) {
      expect(retry).toMatchObject({ errorKind: "timeout", reason: idle });
    }
    const failures = events.filter((event) => event.type === "agent-error");
    expect(failures.length).toBeGreaterThanOrEqual(1);
    for (const failure of failures) expect(failure).toMatchObject({ agentId: "a", message: idle });
    const posts = server.requests.filter((request) => request.method === "POST");
    expect(posts).toHaveLength(retries.length + failures.length);
    // Each attempt waited out the idle limit (virtual time); the run ended because the retries
    // gave up (`failed`), not at the orchestrator timeout that once ended such a run (`timeout`).
    expect(elapsedMs).toBeGreaterThanOrEqual(200 * posts.length);
    expect(elapsedMs).toBeLessThan(60_000);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "failed" });
  });

  test("the presenter's provider hangs: its attempts end on the idle limit and the winning answer is presented", async () => {
    const gate = createIoGate();
    const agent = coordinationHandler({ answer: "The answer is 18." });
    // Workflow rounds are answered; the final presentation (no tools) sends headers, then nothing.
    const handler: FakeHandler = (request) =>
      Array.isArray(request.body.tools) && request.body.tools.length > 0
        ? agent(request)
        : stall(gate, request);
    server = await startFakeOpenAIServer(handler);
    const handle = await startRun({
      config: teamConfig(server.url),
      mode: "voting",
      agentIndexes: [0],
      question: "What is 3 x 6?",
      env: {},
      cwd: tmpdir(),
      clock: gate.clock,
      fetch: gate.fetch,
    });
    const { state } = await handle.done;
    const events: readonly CoordEvent[] = handle.live.events;
    expect(state.endReason).toBe("completed");
    expect(events.filter((event) => event.type === "retry")).toHaveLength(3);
    expect(events.find((event) => event.type === "final-answer")).toMatchObject({
      content: "The answer is 18.",
      source: "answer",
    });
  });
});
