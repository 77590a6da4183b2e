/**
 * Issue 25 items 2, 3 and 7 in the reducer and its JSON renderings: every request sent is a
 * model call (a failed `usage` and each `retry` included), failed ones are counted apart and are
 * not "unpriced"; budget limits reached and the run's degraded reasons reach status.json and
 * metrics.json; an agent error keeps its cause.
 */
import { describe, expect, it } from "vitest";
import { eventsOf } from "../../test/support/events.js";
import type { CoordEvent, EventBody } from "../events/events.js";
import { replay, toMetricsJson, toStatusJson } from "./reducer.js";

const START = Date.parse("2025-03-01T10:00:00.000Z");

/** Events with a running seq, 100 ms apart from START (test/support/events.ts). */
const script = (bodies: EventBody[]): CoordEvent[] =>
  eventsOf(bodies, { start: START, runId: "run-1" });

const usage = (agentId: string, failed: boolean, costUsd?: number): EventBody => ({
  type: "usage",
  agentId,
  round: 1,
  backend: "openai",
  model: "gpt-x",
  usage: {
    inputTokens: failed ? 0 : 100,
    outputTokens: failed ? 0 : 10,
    reasoningTokens: 0,
    cachedInputTokens: 0,
  },
  ...(costUsd === undefined ? {} : { costUsd }),
  durationMs: 50,
  finishReason: failed ? "error" : "tool-calls",
  ...(failed ? { failed: true } : {}),
});

const retry = (agentId: string, attempt: number): EventBody => ({
  type: "retry",
  agentId,
  round: 1,
  attempt,
  waitMs: 1000,
  status: 500,
  errorKind: "http",
  reason: "Internal Server Error",
});

/** alice answers (one retry before), bob's provider fails for good, then the budget ends the run. */
const run = script([
  {
    type: "run-start",
    question: "What is 6 * 3?",
    mode: "voting",
    historyTurns: 0,
    agents: [
      { id: "alice", anonId: "agent1", backend: "openai", model: "gpt-x" },
      { id: "bob", anonId: "agent2", backend: "openai", model: "gpt-x" },
    ],
  },
  retry("alice", 1),
  usage("alice", false, 0.001),
  retry("bob", 1),
  retry("bob", 2),
  usage("bob", true),
  {
    type: "agent-error",
    agentId: "bob",
    round: 1,
    message: "HTTP 500: Internal Server Error",
    status: 500,
    retryable: true,
    fatal: true,
    cause: "provider",
  },
  usage("alice", false, 0.001),
  {
    type: "limit-reached",
    scope: "run",
    limit: "calls",
    used: 6,
    max: 6,
    message: "the run's budget of 6 model calls was reached",
  },
  {
    type: "run-end",
    reason: "completed",
    durationMs: 900,
    degraded: [
      "the run's budget of 6 model calls was reached",
      "bob removed: its provider failed (HTTP 500)",
    ],
  },
]);

describe("failed model calls", () => {
  const state = replay(run);

  it("counts every request sent as a call, failed ones and retries apart", () => {
    expect(state.totals.usage).toMatchObject({ modelCalls: 6, failedCalls: 4 });
    const [alice, bob] = state.agents;
    expect(alice!.counters.usage).toMatchObject({ modelCalls: 3, failedCalls: 1 });
    expect(bob!.counters.usage).toMatchObject({ modelCalls: 3, failedCalls: 3 });
    expect(state.totals.retries).toBe(3);
  });

  it("keeps the cost known when only failed calls had no price", () => {
    expect(state.totals.usage.unpricedCalls).toBe(0);
    expect(toMetricsJson(state).totals.cost_usd).toBeCloseTo(0.002);
  });

  it("writes model_calls and failed_model_calls in metrics.json and status.json", () => {
    const metrics = toMetricsJson(state);
    expect(metrics.totals).toMatchObject({ model_calls: 6, failed_model_calls: 4 });
    expect(
      metrics.agents.map((agent) => [agent.id, agent.model_calls, agent.failed_model_calls]),
    ).toEqual([
      ["alice", 3, 1],
      ["bob", 3, 3],
    ]);
    expect(toStatusJson(state).totals).toMatchObject({ model_calls: 6, failed_model_calls: 4 });
  });
});

describe("a degraded run", () => {
  const state = replay(run);

  it("keeps the limits reached and the degraded reasons", () => {
    expect(state.limitsReached).toEqual([
      {
        scope: "run",
        limit: "calls",
        used: 6,
        max: 6,
        agentId: null,
        message: "the run's budget of 6 model calls was reached",
      },
    ]);
    expect(state.degraded).toEqual([
      "the run's budget of 6 model calls was reached",
      "bob removed: its provider failed (HTTP 500)",
    ]);
    expect(state.agents[1]!.lastError).toMatchObject({ cause: "provider", fatal: true });
  });

  it("writes them in status.json and metrics.json", () => {
    const limits = [
      {
        scope: "run",
        limit: "calls",
        used: 6,
        max: 6,
        agent_id: null,
        message: "the run's budget of 6 model calls was reached",
      },
    ];
    const status = toStatusJson(state);
    expect(status.limits_reached).toEqual(limits);
    expect(status.degraded).toEqual(state.degraded);
    expect(status.agents[1]!.last_error).toMatchObject({ cause: "provider" });
    const metrics = toMetricsJson(state);
    expect(metrics.limits_reached).toEqual(limits);
    expect(metrics.degraded).toEqual(state.degraded);
  });

  it("is clean before run-end and for a run without degraded reasons", () => {
    expect(replay(run.slice(0, -1)).degraded).toEqual([]);
    const clean = replay(
      script([
        ...run.slice(0, 3),
        { type: "run-end", reason: "completed", durationMs: 300 },
      ] as EventBody[]),
    );
    expect(clean.degraded).toEqual([]);
    expect(toStatusJson(clean).limits_reached).toEqual([]);
  });
});

describe("a degraded turn in the session", () => {
  it("keeps why the turn was degraded; a clean turn has no such field", async () => {
    const { turnRecordFromState } = await import("../sessions/turn-record.js");
    const options = { turn: 1, question: "q", startedAt: 0, endedAt: 1, logDir: null };
    expect(turnRecordFromState(replay(run), options).degraded).toEqual([
      "the run's budget of 6 model calls was reached",
      "bob removed: its provider failed (HTTP 500)",
    ]);
    expect(turnRecordFromState(replay(run.slice(0, 3)), options)).not.toHaveProperty("degraded");
  });
});
