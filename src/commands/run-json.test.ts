/**
 * `coord --json`'s winner (./run-json.ts): how it was chosen, what broke a tie and the answers
 * grouped by conclusion, read from a real scripted run through the reducer.
 */
import { describe, expect, test } from "vitest";
import { runScripted, SPLIT_TEAM_SCRIPTS } from "../engine/test-helpers.js";
import { replay } from "../session/index.js";
import { runResultJson } from "./run-json.js";
import { winnerLine } from "./run-display.js";

const context = { exitCode: 0, logDir: undefined, sessionId: "s1" };

describe("coord --json: the winner", () => {
  test("answers with the same number in different words are one group of two votes", async () => {
    const { events } = await runScripted(SPLIT_TEAM_SCRIPTS);
    const json = runResultJson(replay(events), context);
    expect(json.winner).toMatchObject({
      agent_id: "alice",
      basis: "votes",
      votes: 2,
      tie_basis: null,
      conclusion: "18",
    });
    expect(
      json.winner!.groups.map((group) => [group.conclusion, group.agent_ids, group.won]),
    ).toEqual([
      ["18", ["alice", "bob"], true],
      ["20", ["carol"], false],
    ]);
  });

  test("a tie that stays one says what broke it, in the JSON and on the winner line", async () => {
    const { events } = await runScripted(
      {
        alice: [
          { answer: "The answer is 17." },
          { vote: "agent1", reason: "mine" },
          { text: "17" },
        ],
        bob: [{ answer: "The answer is 18." }, { vote: "agent2", reason: "mine" }],
      },
      { settings: { tie_break: "none" } },
    );
    const state = replay(events);
    const json = runResultJson(state, context);
    expect(json.winner!.tie_basis).toMatch(/^[a-z ]+$/);
    expect(json.winner!.groups).toHaveLength(2);
    expect(winnerLine(state)).toContain(`tie broken by ${json.winner!.tie_basis}`);
  });
});
