/**
 * The live view's winner and its conclusion groups: one line per group under
 * the winner line, the strip's height counts them, and the end frame a live run leaves in the
 * scrollback keeps them. States come from real scripted runs fed through the reducer.
 */
import { render } from "ink-testing-library";
import { describe, expect, test } from "vitest";
import { runScripted, SPLIT_TEAM_SCRIPTS } from "../../engine/test-helpers.js";
import { replay, type RunState } from "../../session/reducer.js";
import { OrchestratorStrip, stripRows } from "./orchestrator-strip.js";
import { RunView } from "./run-view.js";
import { step, teamState } from "./test-states.js";
import { groupRows, VoteTally } from "./vote-tally.js";

const NOW = Date.parse("2025-01-01T00:00:30.000Z");

/** Two agents reach 18 in different words, carol says 20; each votes for itself. */
async function splitRun(): Promise<RunState> {
  const { events } = await runScripted(SPLIT_TEAM_SCRIPTS);
  return replay(events);
}

const frameOf = (element: React.ReactElement) => render(element).lastFrame() ?? "";

describe("the winner's conclusion groups in the live view", () => {
  test("one line per group under the winner: conclusion, votes, the agents in it", async () => {
    const state = await splitRun();
    expect(frameOf(<VoteTally state={state} />).split("\n")).toEqual([
      "★ Winner alice (agent1.1, 2/3 votes)",
      "  ★ 18  2 votes  alice, bob",
      "    20  1 vote   carol",
    ]);
    expect(groupRows(state)).toBe(2);
  });

  test("the strip's rows count the group lines, at both widths", async () => {
    const state = await splitRun();
    for (const width of [60, 120]) {
      const frame = frameOf(<OrchestratorStrip state={state} now={NOW} width={width} />);
      expect(frame.split("\n")).toHaveLength(stripRows(state, width));
    }
    expect(stripRows(state, 120)).toBe(1 + 1 + 2);
  });

  test("the end frame (rows for the agents, the strip and the groups) shows every line", async () => {
    const done = { ...(await splitRun()), finalAnswer: null };
    const rows = done.agents.length + 2 + groupRows(done);
    const frame = render(
      <RunView state={done} columns={100} rows={rows} now={NOW} frame={0} />,
    ).lastFrame()!;
    const lines = frame.split("\n");
    expect(lines).toHaveLength(rows);
    expect(lines[1]).toContain("★ Winner alice");
    expect(lines[2]).toContain("★ 18  2 votes  alice, bob");
    expect(lines[3]).toContain("20  1 vote   carol");
    for (const agent of ["alice", "bob", "carol"])
      expect(lines.slice(4).some((line) => line.includes(agent))).toBe(true);
  });

  test("a tie says what broke it; free-form answers read `free-form`; many groups are summed up", () => {
    const groups = [
      { conclusion: "18", labels: ["agent2.1"], votes: 1, agents: 1, firstAnswers: 1 },
      { conclusion: "20", labels: ["agent1.1"], votes: 1, agents: 1, firstAnswers: 1 },
      { labels: ["agent3.1"], votes: 1, agents: 1, firstAnswers: 1 },
      {
        conclusion: "a very long conclusion phrase",
        labels: ["agent4.1"],
        votes: 0,
        agents: 1,
        firstAnswers: 1,
      },
      { conclusion: "7", labels: ["agent5.1"], votes: 1, agents: 1, firstAnswers: 1 },
    ];
    const state = step(teamState(5), {
      type: "winner",
      agentId: "bob",
      anonId: "agent2",
      label: "agent2.1",
      votes: 1,
      tally: {},
      tieBroken: true,
      tieBasis: "first answers",
      basis: "votes",
      conclusion: "18",
      groups,
    });
    expect(frameOf(<VoteTally state={state} />).split("\n")).toEqual([
      "★ Winner bob (agent2.1, 1/5 votes, tie broken by first answers)",
      "  ★ 18         1 vote   bob",
      "    20         1 vote   alice",
      "    free-form  1 vote   carol",
      "    … 2 more groups (1 vote; coord logs summary)",
    ]);
    expect(groupRows(state)).toBe(4);

    const three = step(teamState(3), {
      type: "winner",
      agentId: "bob",
      anonId: "agent2",
      label: "agent2.1",
      votes: 1,
      tally: {},
      tieBroken: false,
      basis: "votes",
      conclusion: "18",
      groups: groups.slice(0, 1).concat([groups[3]!]),
    });
    expect(frameOf(<VoteTally state={three} />).split("\n")[2]).toBe(
      "    a very long con…  0 votes  agent4",
    );
  });

  test("no group lines for a lone free-form answer, a decomposition presenter or an old log", () => {
    const lone = step(teamState(1), {
      type: "winner",
      agentId: "alice",
      anonId: "agent1",
      label: "agent1.1",
      votes: 0,
      tally: {},
      tieBroken: false,
      basis: "single",
      groups: [{ labels: ["agent1.1"], votes: 0, agents: 1, firstAnswers: 1 }],
    });
    expect(frameOf(<VoteTally state={lone} />)).toBe("★ Winner alice (agent1.1)");
    const old = step(teamState(2), {
      type: "winner",
      agentId: "alice",
      anonId: "agent1",
      label: "agent1.1",
      votes: 1,
      tally: { alice: 1 },
      tieBroken: true,
      basis: "votes",
    });
    expect(frameOf(<VoteTally state={old} />)).toBe(
      "★ Winner alice (agent1.1, 1/2 votes, tie broken by config order)",
    );
    const presenter = step(teamState(2, { mode: "decomposition" }), {
      type: "winner",
      agentId: "alice",
      anonId: "agent1",
      label: "agent1.1",
      votes: 0,
      tally: {},
      tieBroken: false,
      basis: "decomposition",
      groups: [
        { conclusion: "4", labels: ["agent1.1"], votes: 0, agents: 1, firstAnswers: 1 },
        { conclusion: "5", labels: ["agent2.1"], votes: 0, agents: 1, firstAnswers: 1 },
      ],
    });
    expect(groupRows(presenter)).toBe(0);
    expect(frameOf(<VoteTally state={presenter} />)).not.toContain("votes");
  });
});
