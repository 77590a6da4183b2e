import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Clock } from "../clock.js";
import type { CoordEvent, EventBody } from "../events/index.js";
import { initialRunState, reduceRun } from "../session/reducer.js";
import { createDebugLineFormatter } from "./debug-lines.js";
import { createLogWriter } from "./log-writer.js";
import { eventsOf } from "../../test/support/events.js";

const KEY = "sk-live-debuglines0123456789abcdef";

function events(bodies: EventBody[]): CoordEvent[] {
  return eventsOf(bodies, { start: Date.UTC(2025, 2, 1, 9, 5, 7), stepMs: 10 });
}

const run = events([
  {
    type: "run-start",
    question: "What is\n2+2?",
    mode: "voting",
    historyTurns: 1,
    agents: [{ id: "a", anonId: "agent1", backend: "openai", model: "gpt-x" }],
  },
  { type: "round-start", agentId: "a", round: 1, attempt: 1, kind: "coordinate", answersSeen: [] },
  { type: "text-start", agentId: "a", round: 1, blockId: "t1" },
  { type: "text-delta", agentId: "a", round: 1, blockId: "t1", text: "thinking" },
  { type: "text-end", agentId: "a", round: 1, blockId: "t1" },
  {
    type: "retry",
    agentId: "a",
    round: 1,
    attempt: 1,
    waitMs: 500,
    status: 429,
    errorKind: "http",
    reason: "Rate limit reached",
  },
  {
    type: "usage",
    agentId: "a",
    round: 1,
    backend: "openai",
    model: "gpt-x",
    usage: { inputTokens: 100, outputTokens: 10, reasoningTokens: 3, cachedInputTokens: 40 },
    costUsd: 0.00125,
    durationMs: 1500,
    timeToFirstTokenMs: 320,
    finishReason: "tool-calls",
  },
  {
    type: "tool-call",
    agentId: "a",
    round: 1,
    toolCallId: "c1",
    toolName: "run_command",
    input: { command: `echo ${KEY}` },
  },
  {
    type: "tool-result",
    agentId: "a",
    round: 1,
    toolCallId: "c1",
    toolName: "run_command",
    output: "x".repeat(1000),
    isError: true,
    durationMs: 42,
  },
  {
    type: "agent-error",
    agentId: "a",
    round: 1,
    message: "HTTP 500: upstream failed",
    provider: "openai",
    status: 500,
    retryable: true,
    fatal: true,
    cause: "provider",
  },
  { type: "round-end", agentId: "a", round: 1, outcome: "error", durationMs: 1600 },
  { type: "run-end", reason: "failed", durationMs: 1700, error: "every agent failed" },
]);

describe("createDebugLineFormatter", () => {
  it("says what a user debugging a run wants, one line per event, nothing for deltas", () => {
    const formatter = createDebugLineFormatter();
    const lines = run.map((event) => formatter.lines(event));
    expect(lines[0]).toEqual([
      "run start: mode voting, 1 agent (a = agent1, openai/gpt-x), 1 earlier turn, question 12 chars: What is 2+2?",
    ]);
    expect(lines[1]).toEqual([
      "a: round 1 start (coordinate, attempt 1, sees no answers); model request 1 start: openai/gpt-x",
    ]);
    expect(lines.slice(2, 5)).toEqual([[], [], []]);
    expect(lines[5]).toEqual([
      "a: model request retry 1 (openai/gpt-x) in 500 ms after http 429: Rate limit reached",
    ]);
    expect(lines[6]).toEqual([
      "a: model request end: openai/gpt-x ok, finish tool-calls, tokens in 100 (cached 40) out 10 (reasoning 3), 1500 ms (first token 320 ms), cost $0.001250, round 1, started 2025-03-01T09:05:05.560Z",
    ]);
    expect(lines[7]![0]).toContain(`a: tool call run_command (c1, round 1) input {"command":"echo`);
    // A long output is cut to an excerpt, its size given.
    expect(lines[8]![0]).toMatch(
      /^a: tool result run_command \(c1\) error in 42 ms, 1000 chars: x+…$/,
    );
    expect(lines[8]![0]!.length).toBeLessThan(400);
    expect(lines[9]).toEqual([
      "a: error (cause provider, openai, status 500, retryable, agent removed, round 1): HTTP 500: upstream failed",
    ]);
    expect(lines[10]).toEqual(["a: round 1 end: error in 1600 ms"]);
    expect(lines[11]).toEqual(["run end: failed in 1700 ms; error: every agent failed"]);
  });
});

describe("coord_debug.log", () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "coord-debug-lines-"));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("stamps each line with the clock's time when it is written, redacted", async () => {
    let now = Date.UTC(2025, 2, 1, 9, 0, 0);
    // Each reading of the clock is 7 ms later: identical stamps would mean one reading for all.
    const clock: Clock = { now: () => (now += 7), sleep: async () => undefined };
    const writer = await createLogWriter({
      root,
      turn: 1,
      attempt: 1,
      now: new Date(now),
      coordVersion: "test",
      question: "q",
      config: {},
      cliArgs: [],
      debug: true,
      clock,
    });
    writer.debug(`config: team.yaml (--config team.yaml), key ${KEY}`);
    let state = initialRunState();
    for (const event of run) {
      state = reduceRun(state, event);
      writer.write(event, state);
    }
    await writer.close();
    const lines = readFileSync(join(writer.logDir, "coord_debug.log"), "utf8")
      .trimEnd()
      .split("\n");
    const stamps = lines.map((line) => line.slice(0, 24));
    for (const stamp of stamps) expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(new Set(stamps).size).toBe(stamps.length);
    expect([...stamps].sort()).toEqual(stamps);
    const text = lines.join("\n");
    expect(text).not.toContain(KEY);
    expect(text).toContain("config: team.yaml (--config team.yaml), key <redacted>");
    expect(text).toMatch(/ #1 run start: mode voting/);
    expect(text).toMatch(/ #7 a: model request end: openai\/gpt-x ok/);
    expect(text).toMatch(
      / #8 a: tool call run_command \(c1, round 1\) input \{"command":"echo <redacted>"\}/,
    );
    // Streamed deltas are in events.jsonl, not here.
    expect(text).not.toMatch(/ #[345] /);
  });
});
