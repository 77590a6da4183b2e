/**
 * The failure line's advice fits the cause: the budget says which key and flag
 * to raise, a model that misbehaved is never told to raise the timeout, a provider failure lists
 * the providers' messages.
 */
import { describe, expect, it } from "vitest";
import type { EventBody } from "../../events/index.js";
import { step, teamState } from "../terminal/test-states.js";
import { failureLine } from "./failure-line.js";

const agentError = (
  agentId: string,
  message: string,
  cause: "provider" | "protocol" | "budget",
  fatal = true,
): EventBody => ({
  type: "agent-error",
  agentId,
  round: 1,
  message,
  retryable: false,
  fatal,
  cause,
});

describe("failureLine", () => {
  it("lists the providers' messages when providers failed, with no advice of its own", () => {
    const state = step(
      teamState(2),
      agentError("alice", "HTTP 401: invalid api key", "provider"),
      agentError("bob", "HTTP 503: overloaded", "provider"),
      { type: "run-end", reason: "failed", durationMs: 10, error: "every agent failed" },
    );
    expect(failureLine(state)).toBe(
      "every agent failed — alice: HTTP 401: invalid api key; bob: HTTP 503: overloaded",
    );
  });

  it("says the models misbehaved, not to raise anything, when they broke the protocol", () => {
    const state = step(
      teamState(1),
      agentError("alice", "called the unknown tool final_answer 3 times", "protocol"),
      { type: "run-end", reason: "failed", durationMs: 10, error: "every agent failed" },
    );
    expect(failureLine(state)).toBe(
      "every agent failed — alice: called the unknown tool final_answer 3 times (the models did not follow coord's protocol: try another model, see docs/real-models.md)",
    );
  });

  it("tells a timeout caused by misbehaving models that more time would not help", () => {
    const misbehaved = step(
      teamState(1),
      agentError("alice", "answered in plain text", "protocol", false),
      { type: "run-end", reason: "timeout", durationMs: 10, error: "no answer before the timeout" },
    );
    expect(failureLine(misbehaved)).toContain("more time would not help");
    expect(failureLine(misbehaved)).not.toContain("raise timeout_settings");
    const slow = step(teamState(1), {
      type: "run-end",
      reason: "timeout",
      durationMs: 10,
      error: "no answer before the orchestrator timeout (1 s)",
    });
    expect(failureLine(slow)).toBe(
      "no answer before the orchestrator timeout (1 s) (raise timeout_settings.orchestrator_timeout_seconds)",
    );
  });

  it("names the per-agent key when agents were removed by their own budget", () => {
    const state = step(
      teamState(1),
      {
        type: "limit-reached",
        agentId: "alice",
        scope: "agent",
        limit: "calls",
        used: 5,
        max: 5,
        message: "alice reached its budget of 5 model calls (budget.per_agent.max_calls)",
      },
      agentError("alice", "reached its budget of 5 model calls", "budget"),
      { type: "run-end", reason: "failed", durationMs: 10, error: "every agent failed" },
    );
    expect(failureLine(state)).toBe(
      "every agent failed — alice: reached its budget of 5 model calls (raise budget.per_agent.max_calls in the config)",
    );
  });

  it("names the budget key and flag when the budget ended a run without an answer", () => {
    const state = step(
      teamState(2),
      agentError("alice", "HTTP 500", "provider"),
      {
        type: "limit-reached",
        scope: "run",
        limit: "tokens",
        used: 1200,
        max: 1000,
        message: "the run's budget of 1,000 tokens was reached (budget.max_tokens)",
      },
      {
        type: "run-end",
        reason: "failed",
        durationMs: 10,
        error: "the run's budget was reached before any answer was accepted",
      },
    );
    expect(failureLine(state)).toBe(
      "the run's budget was reached before any answer was accepted (raise budget.max_tokens in the config or --max-tokens)",
    );
    expect(failureLine(state, { flags: false })).toMatch(
      /\(raise budget\.max_tokens in the config\)$/,
    );
  });
});
