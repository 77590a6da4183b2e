/**
 * The live view's orchestrator strip says when a run's budget was reached and when a run that
 * answered was degraded (docs/real-models.md).
 */
import { render } from "ink-testing-library";
import { describe, expect, test } from "vitest";
import type { RunState } from "../../session/index.js";
import { OrchestratorStrip } from "./orchestrator-strip.js";
import { step, teamState } from "./test-states.js";

const NOW = Date.parse("2025-01-01T00:00:30.000Z");

function strip(state: RunState): string {
  const { lastFrame } = render(<OrchestratorStrip state={state} now={NOW} width={160} />);
  return lastFrame() ?? "";
}

describe("OrchestratorStrip", () => {
  const limited = step(teamState(2), {
    type: "limit-reached",
    scope: "run",
    limit: "calls",
    used: 12,
    max: 12,
    message: "the run's budget of 12 model calls was reached (budget.max_calls)",
  });

  test("names the budget limit that was reached", () => {
    expect(strip(limited)).toContain("budget reached: calls 12");
  });

  test("counts model calls that failed for good", () => {
    const failed = step(teamState(2), {
      type: "usage",
      agentId: "bob",
      round: 1,
      backend: "openai",
      model: "gpt-4o-mini",
      usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 },
      durationMs: 5,
      finishReason: "error",
      failed: true,
    });
    expect(strip(failed)).toContain("│ 1 failed call");
    expect(strip(teamState(2))).not.toContain("failed call");
  });

  test("a run that answered but was degraded says so; a clean one says done", () => {
    const degraded = step(limited, {
      type: "run-end",
      reason: "completed",
      durationMs: 1000,
      degraded: ["the run's budget of 12 model calls was reached"],
    });
    expect(strip(degraded)).toContain("done, degraded");
    const clean = step(teamState(2), { type: "run-end", reason: "completed", durationMs: 1000 });
    expect(strip(clean)).toContain("· done");
    expect(strip(clean)).not.toContain("degraded");
  });
});
