import { describe, expect, it } from "vitest";
import type { CoordEvent, EventBody } from "../events/events.js";
import { replay } from "../session/reducer.js";
import type { RunLog } from "../store/log-reader.js";
import { combineTurns, formatTimestamp } from "./run-list.js";
import { summarizeRun } from "./run-summary.js";
import type { SelectedRun } from "./select-run.js";
import { sortTools } from "./tool-breakdown.js";
import { renderLogsSummary } from "../ui/plain/logs-summary.js";
import { eventsOf } from "../../test/support/events.js";

function runLog(bodies: EventBody[], truncated = false): RunLog {
  const events: CoordEvent[] = eventsOf(bodies, { runId: "run" });
  return { dir: "/logs/log_x/turn_1/attempt_1", events, truncated, state: replay(events) };
}

const WHERE: SelectedRun = {
  logDir: "/logs/log_x",
  attemptDir: "/logs/log_x/turn_1/attempt_1",
  turn: 1,
  attempt: 1,
  turns: [1],
  attempts: [1],
};

const start: EventBody = {
  type: "run-start",
  question: "q",
  mode: "voting",
  historyTurns: 0,
  agents: [
    { id: "a", anonId: "agent1", backend: "openai", model: "gpt-4.1-mini" },
    { id: "b", anonId: "agent2", backend: "openai", model: "gpt-4.1-mini" },
    { id: "c", anonId: "agent3", backend: "vllm", model: "local-model" },
  ],
};

const call = (agentId: string | undefined, costUsd?: number, ttft?: number): EventBody => ({
  type: "usage",
  ...(agentId === undefined ? {} : { agentId }),
  round: 1,
  backend: "openai",
  model: "gpt-4.1-mini",
  usage: { inputTokens: 100, outputTokens: 10, reasoningTokens: 0, cachedInputTokens: 0 },
  ...(costUsd === undefined ? {} : { costUsd }),
  durationMs: 200,
  ...(ttft === undefined ? {} : { timeToFirstTokenMs: ttft }),
  finishReason: "stop",
});

describe("summarizeRun", () => {
  it("takes costs from the reducer: known where every call was priced, else null", () => {
    const summary = summarizeRun(
      runLog([start, call("a", 0.001), call("a", 0.002), call("b", 0.004), call("c")]),
      WHERE,
    );
    expect(summary.agents.map((agent) => agent.cost_usd)).toEqual([
      expect.closeTo(0.003, 12),
      0.004,
      null,
    ]);
    expect(summary.totals.cost_usd).toBeNull();
    const priced = summarizeRun(runLog([start, call("a", 0.001), call("b", 0.004)]), WHERE);
    expect(priced.totals.cost_usd).toBeCloseTo(0.005, 12);
  });

  it("groups model-call timing by backend and model; calls of unknown agents form their own group", () => {
    const summary = summarizeRun(
      runLog([start, call("a", 0, 50), call("b", 0, 150), call("c"), call(undefined, 0, 10)]),
      WHERE,
    );
    expect(summary.model_call_timing).toEqual([
      {
        backend: "openai",
        model: "gpt-4.1-mini",
        agents: ["a", "b"],
        calls: 2,
        total_ms: 400,
        mean_ms: 200,
        time_to_first_token: { count: 2, mean_ms: 100 },
      },
      {
        backend: "vllm",
        model: "local-model",
        agents: ["c"],
        calls: 1,
        total_ms: 200,
        mean_ms: 200,
        time_to_first_token: { count: 0, mean_ms: null },
      },
      {
        backend: "(unattributed)",
        model: "",
        agents: [],
        calls: 1,
        total_ms: 200,
        mean_ms: 200,
        time_to_first_token: { count: 1, mean_ms: 10 },
      },
    ]);
  });

  it("counts refused votes per agent and says when the log was cut off", () => {
    const refused: EventBody = {
      type: "vote-refused",
      agentId: "b",
      round: 2,
      targetAnonId: "agent1",
      message: "new answers arrived",
    };
    const summary = summarizeRun(runLog([start, refused, refused], true), WHERE);
    expect(summary.agents.map((agent) => agent.rounds.vote_refused)).toEqual([0, 2, 0]);
    expect(summary.totals.rounds.vote_refused).toBe(2);
    expect(summary).toMatchObject({ status: "incomplete", truncated: true, winner: null });
  });

  it("carries the trace id of a traced run, null otherwise", () => {
    expect(summarizeRun(runLog([start]), WHERE).trace_id).toBeNull();
    const traced = { ...runLog([start]), traceId: "0af7651916cd43dd8448eb211c80319c" };
    expect(summarizeRun(traced, WHERE).trace_id).toBe("0af7651916cd43dd8448eb211c80319c");
  });
});

describe("a degraded run with failed model calls", () => {
  const failedCall: EventBody = { ...call("b"), failed: true, finishReason: "error" } as EventBody;
  const log = runLog([
    start,
    {
      type: "retry",
      agentId: "b",
      round: 1,
      attempt: 1,
      waitMs: 500,
      status: 500,
      errorKind: "http",
      reason: "Internal Server Error",
    },
    failedCall,
    {
      type: "agent-error",
      agentId: "b",
      round: 1,
      message: "HTTP 500: Internal Server Error",
      status: 500,
      retryable: true,
      fatal: true,
      cause: "provider",
    },
    call("a", 0.001),
    {
      type: "limit-reached",
      scope: "run",
      limit: "calls",
      used: 3,
      max: 3,
      message: "the run's budget of 3 model calls was reached (budget.max_calls)",
    },
    {
      type: "run-end",
      reason: "completed",
      durationMs: 600,
      degraded: [
        "b removed: HTTP 500: Internal Server Error",
        "the run's budget of 3 model calls was reached (budget.max_calls)",
      ],
    },
  ]);

  it("counts every request as a call, the failed ones apart, and keeps why it was degraded", () => {
    const summary = summarizeRun(log, WHERE);
    expect(summary.totals).toMatchObject({ model_calls: 3, failed_model_calls: 2 });
    expect(
      summary.agents.map((agent) => [agent.id, agent.model_calls, agent.failed_model_calls]),
    ).toEqual([
      ["a", 1, 0],
      ["b", 2, 2],
      ["c", 0, 0],
    ]);
    expect(summary.agents[1]).toMatchObject({ last_error_cause: "provider" });
    expect(summary.degraded).toEqual([
      "b removed: HTTP 500: Internal Server Error",
      "the run's budget of 3 model calls was reached (budget.max_calls)",
    ]);
    expect(summary.limits_reached).toMatchObject([{ scope: "run", limit: "calls", max: 3 }]);
  });

  it("shows them in the text summary", () => {
    const text = renderLogsSummary(summarizeRun(log, WHERE), { cwd: "/logs" });
    expect(text).toContain("Degraded: b removed: HTTP 500: Internal Server Error\n");
    expect(text).toContain(
      "Degraded: the run's budget of 3 model calls was reached (budget.max_calls)\n",
    );
    expect(text).toContain("Failed:   2 of 3 model calls failed, retries included (b 2)");
    expect(text).toMatch(/Calls +Failed +Cost/);
  });
});

describe("sortTools", () => {
  const tools = {
    read: { calls: 5, failures: 0, total_ms: 100, mean_ms: 20 },
    search: { calls: 2, failures: 1, total_ms: 900, mean_ms: 450 },
    write: { calls: 5, failures: 0, total_ms: 300, mean_ms: 60 },
  };
  it("sorts by total time, or by calls with time breaking ties", () => {
    expect(sortTools(tools, "time").map((tool) => tool.name)).toEqual(["search", "write", "read"]);
    expect(sortTools(tools, "calls").map((tool) => tool.name)).toEqual(["write", "read", "search"]);
  });
});

describe("combineTurns", () => {
  it("adds durations, tokens and costs over turns; one unknown cost makes the sum unknown", () => {
    const priced = runLog([start, call("a", 0.01)]);
    const unpriced = runLog([start, call("c")]);
    expect(combineTurns([priced, priced])).toMatchObject({
      tokens: 220,
      duration_ms: 200,
      cost_usd: 0.02,
      status: "incomplete",
    });
    expect(combineTurns([priced, unpriced]).cost_usd).toBeNull();
  });

  it("says whether the latest turn ended degraded", () => {
    const clean = runLog([start, { type: "run-end", reason: "completed", durationMs: 1 }]);
    const degraded = runLog([
      start,
      { type: "run-end", reason: "completed", durationMs: 1, degraded: ["b removed: no answer"] },
    ]);
    expect(combineTurns([clean, degraded])).toMatchObject({ status: "completed", degraded: true });
    expect(combineTurns([degraded, clean]).degraded).toBe(false);
  });

  it("formats the directory timestamp", () => {
    expect(formatTimestamp("20250102_030405")).toBe("2025-01-02 03:04:05");
  });
});
