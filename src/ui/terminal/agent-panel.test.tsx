import { render } from "ink-testing-library";
import { describe, expect, test } from "vitest";
import type { AgentState } from "../../session/reducer.js";
import { AgentPanel, streamedLines } from "./agent-panel.js";
import { answered, step, teamState, voted } from "./test-states.js";

function panel(agent: AgentState, options: { answer?: string; height?: number } = {}): string {
  const { lastFrame } = render(
    <AgentPanel
      agent={agent}
      width={44}
      height={options.height ?? 8}
      frame={0}
      answer={options.answer}
    />,
  );
  return lastFrame() ?? "";
}

describe("AgentPanel shows each agent state", () => {
  test("thinking: id, model, status and the streamed text; reasoning set apart", () => {
    const state = step(
      teamState(3),
      {
        type: "reasoning-delta",
        agentId: "alice",
        round: 1,
        blockId: "r1",
        text: "Sum of two small numbers.",
      },
      {
        type: "text-delta",
        agentId: "alice",
        round: 1,
        blockId: "t1",
        text: "Two plus two is four.",
      },
    );
    const frame = panel(state.agents[0]!);
    expect(frame).toContain("alice");
    expect(frame).toContain("gpt-4o");
    expect(frame).toContain("thinking");
    expect(frame).toContain("∴ Sum of two small numbers.");
    expect(frame).toContain("Two plus two is four.");
    expect(frame.split("\n")).toHaveLength(8);
  });

  test("using a tool, and the tools it called", () => {
    const state = step(
      teamState(3),
      {
        type: "tool-call",
        agentId: "bob",
        round: 1,
        toolCallId: "c1",
        toolName: "read_file",
        input: { path: "a.txt" },
      },
      {
        type: "tool-result",
        agentId: "bob",
        round: 1,
        toolCallId: "c1",
        toolName: "read_file",
        output: "ok",
        isError: false,
        durationMs: 5,
      },
      {
        type: "tool-call",
        agentId: "bob",
        round: 1,
        toolCallId: "c2",
        toolName: "web_search",
        input: {},
      },
    );
    const frame = panel(state.agents[1]!);
    expect(frame).toContain("using web_search");
    expect(frame).toContain("⚙ read_file");
  });

  test("answered agent2.1, with the answer while nothing streams", () => {
    const state = answered(teamState(3), "bob", "The sum is 4.");
    const frame = panel(state.agents[1]!, { answer: "The sum is 4." });
    expect(frame).toContain("answered agent2.1");
    expect(frame).toContain("agent2.1: The sum is 4.");
  });

  test("voted for …, with the reason", () => {
    const state = voted(answered(teamState(3), "alice", "4"), "carol", "alice", "Shortest.");
    const frame = panel(state.agents[2]!);
    expect(frame).toContain("voted for alice");
    expect(frame).toContain("“Shortest.”");
  });

  test("error (retrying) and removed", () => {
    const errored = step(teamState(3), {
      type: "agent-error",
      agentId: "alice",
      round: 1,
      message: "429 rate limited",
      retryable: true,
      fatal: false,
    });
    expect(panel(errored.agents[0]!)).toContain("error: 429 rate limited");
    const removed = step(errored, {
      type: "agent-error",
      agentId: "alice",
      round: 1,
      message: "invalid api key",
      retryable: false,
      fatal: true,
    });
    expect(panel(removed.agents[0]!)).toContain("removed: invalid api key");
  });

  test("long text keeps its tail, word-wrapped, inside the panel", () => {
    const words = Array.from({ length: 80 }, (_, index) => `word${index}`).join(" ");
    const state = step(teamState(1), {
      type: "text-delta",
      agentId: "alice",
      round: 1,
      blockId: "t1",
      text: words,
    });
    const frame = panel(state.agents[0]!, { height: 6 });
    expect(frame).toContain("word79");
    expect(frame).not.toContain("word0 ");
    for (const line of frame.split("\n")) expect(line.length).toBeLessThanOrEqual(44);
  });
});

test("streamedLines gives the reasoning at most a third of the room when there is text", () => {
  const lines = streamedLines(
    { reasoning: "r1\nr2\nr3\nr4", text: "t1\nt2\nt3\nt4\nt5\nt6" },
    20,
    6,
  );
  expect(lines).toEqual({ reasoning: ["r3", "r4"], text: ["t3", "t4", "t5", "t6"] });
});
