/**
 * The plain trace's winner lines (docs/coordination.md "How the winner is chosen"): the group's
 * votes, what broke a tie, and the answers grouped by conclusion, from a scripted run's real
 * events.
 */
import { describe, expect, test } from "vitest";
import { runScripted } from "../../engine/test-helpers.js";
import { traceText } from "./trace-lines.js";

describe("winner lines", () => {
  test("votes split between equal numbers: the group's votes and the groups", async () => {
    const { events } = await runScripted(
      {
        a: [{ answer: "Work.\nAnswer: 20" }, { vote: "agent1", reason: "mine" }],
        b: [{ answer: "Work.\nAnswer: 18" }, { vote: "agent2", reason: "mine" }],
        c: [{ answer: "Other work.\nThe answer is $18.00." }, { vote: "agent3", reason: "mine" }],
      },
      { settings: { skip_final_presentation: true } },
    );
    const lines = traceText(events).split("\n");
    expect(lines).toContain("[orchestrator] Winner: b (agent2.1; 2 votes)");
    expect(lines).toContain(
      "[orchestrator] Answers by conclusion: 18: 2 votes, 2 agents · 20: 1 vote, 1 agent",
    );
  });

  test("a 1–1–1 tie says what broke it", async () => {
    const { events } = await runScripted(
      {
        a: [
          { delay_ms: 5, answer: "Answer: 20" },
          { vote: "agent1", reason: "mine" },
        ],
        b: [{ answer: "Answer: 18" }, { vote: "agent2", reason: "mine" }],
        c: [
          { delay_ms: 9, answer: "Answer: 19" },
          { vote: "agent3", reason: "mine" },
        ],
      },
      { settings: { skip_final_presentation: true } },
    );
    expect(traceText(events)).toContain(
      "[orchestrator] Winner: b (agent2.1; 1 vote, tie broken by earliest answer)",
    );
  });
});
