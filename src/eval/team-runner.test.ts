/**
 * `coord eval` counts every request a run sent as a call: failed requests and
 * retries included, as the run's metrics.json does.
 */
import { describe, expect, it } from "vitest";
import type { CoordEvent, EventBody } from "../events/index.js";
import { replay } from "../session/index.js";
import { runFacts } from "./team-runner.js";
import { eventsOf } from "../../test/support/events.js";

function script(bodies: EventBody[]): CoordEvent[] {
  return eventsOf(bodies, { start: Date.UTC(2025, 0, 1), runId: "run" });
}

const usage = (failed: boolean): EventBody => ({
  type: "usage",
  agentId: "solo",
  round: 1,
  backend: "openai",
  model: "gpt-4o-mini",
  usage: {
    inputTokens: failed ? 0 : 50,
    outputTokens: failed ? 0 : 5,
    reasoningTokens: 0,
    cachedInputTokens: 0,
  },
  costUsd: 0,
  durationMs: 10,
  finishReason: failed ? "error" : "stop",
  ...(failed ? { failed: true } : {}),
});

describe("runFacts", () => {
  it("counts failed requests and retries as calls", () => {
    const state = replay(
      script([
        {
          type: "run-start",
          question: "q",
          mode: "single",
          historyTurns: 0,
          agents: [{ id: "solo", anonId: "agent1", backend: "openai", model: "gpt-4o-mini" }],
        },
        {
          type: "retry",
          agentId: "solo",
          round: 1,
          attempt: 1,
          waitMs: 100,
          status: 429,
          errorKind: "http",
          reason: "rate limited",
        },
        usage(true),
        usage(false),
        {
          type: "final-answer",
          agentId: "solo",
          label: "agent1.final",
          content: "18",
          source: "answer",
        },
        { type: "run-end", reason: "completed", durationMs: 400 },
      ]),
    );
    expect(runFacts(state, null)).toMatchObject({
      answer: "18",
      status: "completed",
      calls: 3,
      input_tokens: 50,
      error: null,
    });
  });
});
