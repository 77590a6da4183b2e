import { render } from "ink-testing-library";
import { describe, expect, test } from "vitest";
import type { RunState } from "../../session/reducer.js";
import { chooseLayout } from "./layout.js";
import { RunView } from "./run-view.js";
import { agentIds, answered, step, teamState, voted } from "./test-states.js";
import { VoteTally } from "./vote-tally.js";

const NOW = Date.parse("2025-01-01T00:00:30.000Z");

function view(state: RunState, columns = 120, rows = 30): string {
  const { lastFrame } = render(
    <RunView state={state} columns={columns} rows={rows} now={NOW} frame={0} />,
  );
  return lastFrame() ?? "";
}

function lines(frame: string): string[] {
  return frame.split("\n");
}

describe("RunView stays readable from 1 to 12 agents", () => {
  test("1 agent: one panel and the orchestrator strip", () => {
    const frame = view(teamState(1));
    expect(frame).toContain("coord · voting");
    expect(frame).toContain("alice");
    expect(frame).toContain("╭");
    expect(lines(frame).length).toBeLessThan(30);
  });

  test("3 agents: side-by-side panels on a wide terminal, stacked on a narrow one", () => {
    const wide = view(teamState(3), 120, 30);
    const headerLine = lines(wide).find((line) => line.includes("alice"))!;
    expect(headerLine).toContain("bob");
    expect(headerLine).toContain("carol");

    const narrow = view(teamState(3), 60, 30);
    const aliceLine = lines(narrow).find((line) => line.includes("alice"))!;
    expect(aliceLine).not.toContain("bob");
    expect(narrow).toContain("carol");
    for (const line of lines(narrow)) expect(line.length).toBeLessThanOrEqual(60);
  });

  test("12 agents: compact, one line each, no borders", () => {
    const frame = view(teamState(12), 100, 30);
    for (const id of agentIds(12)) expect(frame).toContain(id);
    expect(frame).not.toContain("╭");
    expect(lines(frame).length).toBeLessThanOrEqual(14);
  });

  test("12 agents on a short terminal: what does not fit is summarized", () => {
    const frame = view(teamState(12), 100, 8);
    expect(lines(frame).length).toBeLessThanOrEqual(8);
    expect(frame).toMatch(/… \d+ more agents \(\d+ thinking\)/);
  });

  test("the elapsed time, tokens and answer count are in the strip", () => {
    let state = answered(teamState(3), "alice", "4");
    state = step(state, {
      type: "usage",
      agentId: "alice",
      round: 1,
      backend: "openai",
      model: "gpt-4o",
      usage: { inputTokens: 1200, outputTokens: 300, reasoningTokens: 0, cachedInputTokens: 0 },
      durationMs: 900,
      finishReason: "tool-calls",
    });
    const frame = view(state);
    expect(frame).toContain("answers 1");
    expect(frame).toMatch(/\d+\.\d s/);
    expect(frame).toContain("1.5k tokens");
  });
});

test("the cost shows once every model call had a price", () => {
  const usage = (agentId: string, costUsd?: number) => ({
    type: "usage" as const,
    agentId,
    round: 1,
    backend: "openai",
    model: "gpt-4o",
    usage: { inputTokens: 100, outputTokens: 50, reasoningTokens: 0, cachedInputTokens: 0 },
    durationMs: 500,
    finishReason: "stop",
    ...(costUsd === undefined ? {} : { costUsd }),
  });
  const priced = step(teamState(2), usage("alice", 0.01), usage("bob", 0.0023));
  expect(view(priced)).toContain("$0.0123");
  const unknown = step(priced, usage("bob"));
  expect(view(unknown)).not.toContain("$");
});

describe("votes, winner and the final answer", () => {
  function votedState(): RunState {
    let state = teamState(3);
    for (const id of ["alice", "bob", "carol"]) state = answered(state, id, `${id} says 4`);
    state = voted(state, "alice", "alice", "mine");
    return voted(state, "bob", "alice", "clear");
  }

  test("the vote tally counts votes per agent on the current answer set", () => {
    const { lastFrame } = render(<VoteTally state={voted(votedState(), "carol", "bob", "x")} />);
    expect(lastFrame()).toBe("Votes 3/3  alice ■■ 2 bob ■ 1");
  });

  test("the winner replaces the tally; the final answer streams below the agents", () => {
    let state = voted(votedState(), "carol", "alice", "agree");
    state = step(
      state,
      {
        type: "winner",
        agentId: "alice",
        anonId: "agent1",
        label: "agent1.1",
        votes: 3,
        tally: { alice: 3 },
        tieBroken: false,
        basis: "votes",
      },
      { type: "final-start", agentId: "alice", blockId: "f" },
      {
        type: "final-delta",
        agentId: "alice",
        blockId: "f",
        text: "The answer is 4.\nIt always was.",
      },
    );
    const frame = view(state);
    expect(frame).toContain("★ Winner alice (agent1.1, 3/3 votes)");
    expect(frame).toContain("Final answer · alice");
    expect(frame).toContain("The answer is 4.");
    expect(frame).toContain("It always was.");
    expect(frame).toContain("final answer");
    // While the answer streams the agents are one line each.
    expect(frame).not.toContain("╭");
  });

  test("provider retries and warnings show in the strip", () => {
    const state = step(
      teamState(2),
      {
        type: "retry",
        agentId: "alice",
        round: 1,
        attempt: 1,
        waitMs: 7000,
        status: 429,
        errorKind: "http",
        reason: "Rate limit reached",
      },
      {
        type: "warning",
        agentId: "bob",
        source: "claude/claude-sonnet-4-5",
        message: "temperature is not supported and was ignored",
      },
    );
    expect(lines(view(state))[0]).toMatch(/│ 1 retry │ ⚠ 1 warning \(coord logs\)$/);
  });

  test("an interrupted run says so in the strip and in the agents", () => {
    const state = step(teamState(2), { type: "run-end", reason: "interrupted", durationMs: 2000 });
    const frame = view(state);
    expect(frame).toContain("interrupted");
    // Agents still working when the run ended are not left "thinking".
    expect(frame).toContain("stopped");
    expect(frame).not.toContain("thinking");
  });
});

test("chooseLayout: columns, stacked, compact", () => {
  expect(chooseLayout(3, 120, 20).kind).toBe("columns");
  expect(chooseLayout(3, 70, 20).kind).toBe("stacked");
  expect(chooseLayout(3, 70, 8).kind).toBe("compact");
  expect(chooseLayout(12, 200, 40)).toEqual({ kind: "compact", visible: 12 });
  expect(chooseLayout(12, 200, 5)).toEqual({ kind: "compact", visible: 4 });
});

test("decomposition: subtasks and personas in the panels, stops in the strip", () => {
  let state = teamState(2, { mode: "decomposition" });
  state = step(
    state,
    {
      type: "subtask",
      agentId: "alice",
      anonId: "agent1",
      subtask: "Choose the food.",
      source: "config",
    },
    {
      type: "subtask",
      agentId: "bob",
      anonId: "agent2",
      subtask: "Choose the place.",
      source: "decomposer",
    },
    { type: "persona", agentId: "bob", persona: "You love maps.", source: "generated" },
  );
  const working = view(state);
  expect(working).toContain("coord · decomposition · working on subtasks");
  expect(working).toContain("▸ Choose the food.");
  expect(working).toContain("▸ Choose the place.");
  expect(working).toContain("◇ You love maps.");
  expect(working).not.toContain("Stopped");

  state = answered(state, "alice", "Sandwiches.");
  state = step(
    state,
    {
      type: "round-start",
      agentId: "alice",
      round: 2,
      attempt: 1,
      kind: "coordinate",
      answersSeen: [],
    },
    { type: "stop", agentId: "alice", round: 2, status: "complete", summary: "food planned" },
    { type: "round-end", agentId: "alice", round: 2, outcome: "stop", durationMs: 5 },
    { type: "stop", agentId: "bob", round: 1, status: "blocked", summary: "no map" },
    { type: "round-end", agentId: "bob", round: 1, outcome: "stop", durationMs: 5 },
  );
  const stopped = view(state);
  expect(stopped).toMatch(/Stopped 2\/2 +alice ✓ complete +bob ✗ blocked/);
  expect(stopped).toContain("stopped (complete)");
  expect(stopped).toContain("“food planned”");
  expect(stopped).toContain("stopped (blocked)");
  expect(stopped).toContain("“no map”");

  // Woken by a new answer: the stop is gone with the new round.
  const woken = step(state, {
    type: "round-start",
    agentId: "bob",
    round: 2,
    attempt: 1,
    kind: "coordinate",
    answersSeen: ["agent1.1"],
  });
  expect(view(woken)).toMatch(/Stopped 1\/2 +alice ✓ complete/);
  expect(woken.agents[1]!.stop).toBeNull();
});

test("a planning round says so", () => {
  const state = step(teamState(2, { mode: "decomposition" }), {
    type: "round-start",
    agentId: "alice",
    round: 2,
    attempt: 1,
    kind: "plan",
    produces: "subtasks",
    answersSeen: [],
  });
  expect(view(state)).toContain("planning for the team");
});
