/**
 * The winner's conclusion groups in the view model: the reducer keeps the
 * `winner` event's groups with each group's agents named, status.json carries them, and logs
 * from before groups still read. Events come from real scripted runs of the engine.
 */
import { describe, expect, test } from "vitest";
import { eventsOf } from "../../test/support/events.js";
import type { EventBody } from "../events/index.js";
import { runScripted, SPLIT_TEAM_SCRIPTS } from "../engine/test-helpers.js";
import { replay, toStatusJson } from "./reducer.js";
import { shownGroups, tieText } from "./winner-view.js";

const SPLIT = SPLIT_TEAM_SCRIPTS;

describe("the winner's conclusion groups", () => {
  test("answers with the same number in different words form one group, its agents named", async () => {
    const { events } = await runScripted(SPLIT);
    const state = replay(events);
    expect(state.winner).toMatchObject({
      agentId: "alice",
      label: "agent1.1",
      basis: "votes",
      votes: 2,
      tieBroken: false,
      tieBasis: null,
      conclusion: "18",
    });
    expect(state.winner!.groups).toEqual([
      {
        conclusion: "18",
        labels: ["agent1.1", "agent2.1"],
        agentIds: ["alice", "bob"],
        votes: 2,
        agents: 2,
        firstAnswers: 2,
        won: true,
      },
      {
        conclusion: "20",
        labels: ["agent3.1"],
        agentIds: ["carol"],
        votes: 1,
        agents: 1,
        firstAnswers: 1,
        won: false,
      },
    ]);
    expect(shownGroups(state.winner)).toBe(state.winner!.groups);
    expect(tieText(state.winner!)).toBe("");
  });

  test("status.json carries the groups as structured fields", async () => {
    const { events } = await runScripted(SPLIT);
    const winner = toStatusJson(replay(events)).winner!;
    expect(winner).toMatchObject({ conclusion: "18", tie_basis: null, tie_broken: false });
    expect(winner.groups).toEqual([
      {
        conclusion: "18",
        labels: ["agent1.1", "agent2.1"],
        agent_ids: ["alice", "bob"],
        votes: 2,
        agents: 2,
        first_answers: 2,
        won: true,
      },
      {
        conclusion: "20",
        labels: ["agent3.1"],
        agent_ids: ["carol"],
        votes: 1,
        agents: 1,
        first_answers: 1,
        won: false,
      },
    ]);
  });

  test("a 1–1–1 tie keeps what broke it", async () => {
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
    const winner = replay(events).winner!;
    expect(winner).toMatchObject({ agentId: "b", tieBroken: true, tieBasis: "earliest answer" });
    expect(tieText(winner)).toBe("tie broken by earliest answer");
    expect(winner.groups.map((group) => [group.conclusion, group.agentIds, group.won])).toEqual([
      ["18", ["b"], true],
      ["20", ["a"], false],
      ["19", ["c"], false],
    ]);
  });

  test("free-form answers stay groups of their own; a lone free-form group is not shown", async () => {
    const { events } = await runScripted(
      {
        a: [
          { answer: "Plant tomatoes in spring.\nWater them daily." },
          { vote: "agent1", reason: "mine" },
        ],
        b: [
          { answer: "Start with herbs.\nThey forgive mistakes." },
          { vote: "agent1", reason: "better" },
        ],
      },
      { settings: { skip_final_presentation: true } },
    );
    const winner = replay(events).winner!;
    expect(winner.conclusion).toBeNull();
    expect(winner.groups.map((group) => [group.conclusion, group.agentIds, group.votes])).toEqual([
      [null, ["a"], 2],
      [null, ["b"], 0],
    ]);
    expect(shownGroups(winner)).toHaveLength(2);

    const single = await runScripted(
      { a: [{ answer: "Plant tomatoes in spring.\nWater them daily." }] },
      { settings: { skip_final_presentation: true } },
    );
    const alone = replay(single.events).winner!;
    expect(alone.groups).toHaveLength(1);
    expect(shownGroups(alone)).toEqual([]);
  });

  test("a winner event from before groups reads with none; its tie went by config order", () => {
    const bodies: EventBody[] = [
      {
        type: "run-start",
        question: "q",
        mode: "voting",
        historyTurns: 0,
        agents: [{ id: "alice", anonId: "agent1", backend: "scripted", model: "m" }],
      },
      {
        type: "winner",
        agentId: "alice",
        anonId: "agent1",
        label: "agent1.1",
        votes: 1,
        tally: { alice: 1 },
        tieBroken: true,
        basis: "votes",
      },
    ];
    const events = eventsOf(bodies, {
      start: Date.parse("2025-01-01T00:00:00.000Z"),
      stepMs: 0,
      runId: "r",
    });
    const winner = replay(events).winner!;
    expect(winner).toMatchObject({ groups: [], conclusion: null, tieBasis: null });
    expect(shownGroups(winner)).toEqual([]);
    expect(tieText(winner)).toBe("tie broken by config order");
    expect(toStatusJson(replay(events)).winner!.groups).toEqual([]);
  });

  test("a label with no answer in the log is named by its agent's anonymous id", () => {
    const bodies: EventBody[] = [
      {
        type: "run-start",
        question: "q",
        mode: "voting",
        historyTurns: 0,
        agents: [
          { id: "alice", anonId: "agent1", backend: "scripted", model: "m" },
          { id: "bob", anonId: "agent2", backend: "scripted", model: "m" },
        ],
      },
      {
        type: "winner",
        agentId: "alice",
        anonId: "agent1",
        label: "agent1.1",
        votes: 0,
        tally: {},
        tieBroken: false,
        basis: "partial",
        conclusion: "7",
        groups: [
          {
            conclusion: "7",
            labels: ["agent1.1", "agent2.3", "agent9.1"],
            votes: 0,
            agents: 3,
            firstAnswers: 2,
          },
        ],
      },
    ];
    const events = eventsOf(bodies, {
      start: Date.parse("2025-01-01T00:00:00.000Z"),
      stepMs: 0,
      runId: "r",
    });
    expect(replay(events).winner!.groups[0]!.agentIds).toEqual(["alice", "bob", "agent9"]);
  });
});
