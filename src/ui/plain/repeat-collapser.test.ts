/**
 * Issue 25 item 7 in the trace lines: a loop's identical lines are shown once, then counted; a
 * budget limit and a degraded run's reasons are shown.
 */
import { describe, expect, it } from "vitest";
import type { CoordEvent, EventBody } from "../../events/index.js";
import { createRepeatCollapser, RECENT_LINES, SUMMARY_EVERY } from "./repeat-collapser.js";
import { traceText } from "./trace-lines.js";
import { eventsOf } from "../../../test/support/events.js";

function script(bodies: EventBody[]): CoordEvent[] {
  return eventsOf(bodies, { start: Date.UTC(2025, 2, 1), stepMs: 1 });
}

const START: EventBody = {
  type: "run-start",
  question: "What is 6 * 3?",
  mode: "voting",
  historyTurns: 0,
  agents: [
    { id: "alice", anonId: "agent1", backend: "openai", model: "m" },
    { id: "bob", anonId: "agent2", backend: "openai", model: "m" },
  ],
};

/** bob calls the unknown tool `final_answer` once per round, `times` times. */
function unknownToolLoop(times: number): EventBody[] {
  return Array.from({ length: times }, (): EventBody[] => [
    {
      type: "tool-call",
      agentId: "bob",
      round: 1,
      toolCallId: "t",
      toolName: "final_answer",
      input: { answer: "18" },
    },
    {
      type: "workflow-invalid",
      agentId: "bob",
      round: 1,
      attempt: 1,
      message: "final_answer is not a tool here; the tools are new_answer and vote",
    },
  ]).flat();
}

describe("repeated trace lines", () => {
  it("shows a loop's lines once, then how many times they repeated", () => {
    const lines = traceText(
      script([
        START,
        ...unknownToolLoop(58),
        { type: "run-end", reason: "failed", durationMs: 1000, error: "every agent failed" },
      ]),
    ).split("\n");
    const call = '[bob] Tool call: final_answer {"answer":"18"}';
    const invalid =
      "[orchestrator] Invalid workflow call from bob (attempt 1): final_answer is not a tool here; the tools are new_answer and vote";
    expect(lines).toEqual([
      "[system] Question: What is 6 * 3?",
      "[system] Team (voting): alice (openai/m), bob (openai/m)",
      call,
      invalid,
      `[system] … repeated 57 more times: ${call}`,
      `[system] … repeated 57 more times: ${invalid}`,
      "[system] Run failed in 1.0 s: every agent failed",
    ]);
  });

  it("says every SUMMARY_EVERY copies what a loop that never ends does", () => {
    const repeats = createRepeatCollapser();
    const shown = repeats.push(Array.from({ length: SUMMARY_EVERY * 2 + 1 }, () => "[bob] same"));
    expect(shown).toEqual([
      "[bob] same",
      `[system] … repeated ${SUMMARY_EVERY} more times: [bob] same`,
      `[system] … repeated ${SUMMARY_EVERY} more times: [bob] same`,
    ]);
    expect(repeats.flush()).toEqual([]);
  });

  it("shows a line again once the last RECENT_LINES shown lines no longer hold it", () => {
    const repeats = createRepeatCollapser();
    const others = Array.from({ length: RECENT_LINES }, (_, index) => `[alice] line ${index}`);
    expect(repeats.push(["[bob] same", ...others, "[bob] same"])).toEqual([
      "[bob] same",
      ...others,
      "[bob] same",
    ]);
  });

  it("shows a line repeated only once as it is", () => {
    const repeats = createRepeatCollapser();
    expect(repeats.push(["[bob] retry", "[bob] error", "[bob] retry", "[bob] done"])).toEqual([
      "[bob] retry",
      "[bob] error",
      "[bob] retry",
      "[bob] done",
    ]);
  });

  it("can be turned off", () => {
    const events = script([START, ...unknownToolLoop(3)]);
    expect(traceText(events, { collapseRepeats: false }).split("\n")).toHaveLength(2 + 6);
  });
});

describe("budget and degraded lines", () => {
  it("names the limit reached and lists the degraded reasons after the run's end", () => {
    const text = traceText(
      script([
        START,
        {
          type: "limit-reached",
          scope: "run",
          limit: "calls",
          used: 5,
          max: 5,
          message:
            "the run's budget of 5 model calls was reached (budget.max_calls); the best answer so far is presented",
        },
        {
          type: "run-end",
          reason: "completed",
          durationMs: 2000,
          degraded: ["the run's budget of 5 model calls was reached", "bob removed: no answer"],
        },
      ]),
    );
    expect(text.split("\n").slice(2)).toEqual([
      "[orchestrator] Limit reached: the run's budget of 5 model calls was reached (budget.max_calls); the best answer so far is presented",
      "[system] Run completed (degraded) in 2.0 s",
      "[system] Degraded: the run's budget of 5 model calls was reached",
      "[system] Degraded: bob removed: no answer",
    ]);
  });

  it("says when an agent error is the model's misbehaviour, not the provider's", () => {
    const text = traceText(
      script([
        START,
        {
          type: "agent-error",
          agentId: "bob",
          round: 2,
          message: "called the unknown tool final_answer 3 times",
          retryable: false,
          fatal: true,
          cause: "protocol",
        },
      ]),
    );
    expect(text).toContain(
      "[orchestrator] bob error (the model misbehaved): called the unknown tool final_answer 3 times (removed from the team)",
    );
  });
});
