import { describe, expect, test } from "vitest";
import { answered, step, teamState } from "../ui/terminal/test-states.js";
import { statusLabel } from "../ui/web/components/format.js";
import { agentStatusText } from "./agent-status.js";

describe("agentStatusText: the one status wording", () => {
  test("round 2 thinking carries the round unless the display shows it elsewhere", () => {
    const state = step(teamState(1), {
      type: "round-start",
      agentId: "alice",
      round: 2,
      attempt: 1,
      kind: "coordinate",
      answersSeen: [],
    });
    const alice = state.agents[0]!;
    expect(agentStatusText(alice)).toBe("thinking · round 2");
    expect(agentStatusText(alice, { round: false })).toBe("thinking");
  });

  test("an error names its message on one line, cut to 80 characters", () => {
    const message = `429 rate\nlimited ${"x".repeat(200)}`;
    const state = step(teamState(1), {
      type: "agent-error",
      agentId: "alice",
      round: 1,
      message,
      retryable: true,
      fatal: false,
    });
    const text = agentStatusText(state.agents[0]!);
    expect(text.startsWith("error: 429 rate limited x")).toBe(true);
    expect(text.endsWith("… (retrying)")).toBe(true);
    expect(text).toHaveLength("error: ".length + 80 + " (retrying)".length);
  });

  test("once the run is over, open work reads stopped, with the last answer", () => {
    const state = answered(teamState(2), "alice", "4");
    const over = step(state, {
      type: "round-start",
      agentId: "alice",
      round: 2,
      attempt: 1,
      kind: "coordinate",
      answersSeen: ["agent1.1"],
    });
    expect(agentStatusText(over.agents[0]!, { runOver: true })).toBe(
      "stopped (last answer agent1.1)",
    );
    expect(agentStatusText(over.agents[1]!, { runOver: true })).toBe("stopped");
    expect(agentStatusText(over.agents[0]!)).toBe("thinking · round 2");
  });

  test("the browser page says what the terminal says (they drifted before: 'error, retrying')", () => {
    const state = step(teamState(1), {
      type: "agent-error",
      agentId: "alice",
      round: 1,
      message: "invalid api key",
      retryable: false,
      fatal: true,
    });
    const alice = state.agents[0]!;
    expect(agentStatusText(alice)).toBe("removed: invalid api key");
    expect(statusLabel(alice, state)).toBe(agentStatusText(alice));
  });
});
