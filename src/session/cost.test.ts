import { describe, expect, it } from "vitest";
import { eventsOf } from "../../test/support/events.js";
import type { CoordEvent, EventBody } from "../events/events.js";
import { replay, toMetricsJson, toStatusJson } from "./reducer.js";

const START = Date.parse("2025-03-01T10:00:00.000Z");

/** Events with a running seq, 100 ms apart from START (test/support/events.ts). */
const script = (bodies: EventBody[]): CoordEvent[] =>
  eventsOf(bodies, { start: START, runId: "run-cost" });

const call = (agentId: string, input: number, output: number, costUsd?: number): EventBody => ({
  type: "usage",
  agentId,
  round: 1,
  backend: "openai",
  model: "m",
  usage: { inputTokens: input, outputTokens: output, reasoningTokens: 0, cachedInputTokens: 0 },
  ...(costUsd === undefined ? {} : { costUsd }),
  durationMs: 10,
  finishReason: "stop",
});

const start: EventBody = {
  type: "run-start",
  question: "q",
  mode: "voting",
  historyTurns: 0,
  agents: [
    { id: "priced", anonId: "agent1", backend: "openai", model: "gpt-4.1-mini" },
    { id: "free", anonId: "agent2", backend: "local", model: "tiny.gguf" },
    { id: "unlisted", anonId: "agent3", backend: "vllm", model: "my-model" },
  ],
};

describe("cost in the reducer, metrics.json and status.json", () => {
  it("sums known costs per agent; an agent with any unpriced call has cost null, and so do totals", () => {
    const state = replay(
      script([
        start,
        call("priced", 1000, 100, 0.0006),
        call("priced", 2000, 200, 0.0012),
        call("free", 500, 50, 0),
        call("unlisted", 300, 30),
        call("unlisted", 300, 30, 0.5), // priced later: still unknown as a whole
      ]),
    );
    const metrics = toMetricsJson(state);
    const [priced, free, unlisted] = metrics.agents;
    expect(priced!.cost_usd).toBeCloseTo(0.0018, 12);
    expect(priced!.unpriced_model_calls).toBe(0);
    expect(free!.cost_usd).toBe(0);
    expect(unlisted).toMatchObject({
      cost_usd: null,
      unpriced_model_calls: 1,
      model_calls: 2,
      tokens: { input: 600, output: 60, total: 660 },
    });
    expect(metrics.totals).toMatchObject({ cost_usd: null, unpriced_model_calls: 1 });

    const status = toStatusJson(state);
    expect(status.agents.map((agent) => agent.cost_usd)).toEqual([priced!.cost_usd, 0, null]);
    expect(status.totals).toMatchObject({
      cost_usd: null,
      unpriced_model_calls: 1,
      model_calls: 5,
      tokens: { input: 4100, output: 410, total: 4510 },
    });
  });

  it("gives the total when every call was priced", () => {
    const state = replay(
      script([start, call("priced", 1000, 100, 0.25), call("free", 10, 10, 0.5)]),
    );
    expect(toMetricsJson(state).totals.cost_usd).toBeCloseTo(0.75, 12);
    expect(toStatusJson(state).totals.cost_usd).toBeCloseTo(0.75, 12);
    // An agent that made no call has cost 0, not unknown.
    expect(toMetricsJson(state).agents[2]!.cost_usd).toBe(0);
  });
});
