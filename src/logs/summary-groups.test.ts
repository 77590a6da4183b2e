/**
 * `coord logs summary` (text and JSON) of the winner's conclusion groups on real
 * scripted runs: what broke a tie, free-form answers, and logs from before groups.
 */
import { describe, expect, test } from "vitest";
import type { CoordEvent, EventBody } from "../events/index.js";
import { runScripted } from "../engine/test-helpers.js";
import { replay } from "../session/reducer.js";
import { renderLogsSummary } from "../ui/plain/logs-summary.js";
import { summarizeRun } from "./run-summary.js";
import type { SelectedRun } from "./select-run.js";
import { eventsOf } from "../../test/support/events.js";

const WHERE: SelectedRun = {
  logDir: "/logs/log_x",
  attemptDir: "/logs/log_x/turn_1/attempt_1",
  turn: 1,
  attempt: 1,
  turns: [1],
  attempts: [1],
};

function summary(events: CoordEvent[]) {
  const json = summarizeRun(
    { dir: WHERE.attemptDir, events, truncated: false, state: replay(events) },
    WHERE,
  );
  const text = renderLogsSummary(json, { cwd: "/logs" }).split("\n");
  const at = text.findIndex((line) => line.startsWith("Winner:"));
  return {
    json,
    winnerLines: text
      .slice(at)
      .filter((line, index) => index === 0 || /^(Groups:| {10})/.test(line)),
  };
}

describe("coord logs summary: conclusion groups", () => {
  test("a 1–1–1 tie says what broke it; each group on its line", async () => {
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
    const { json, winnerLines } = summary(events);
    expect(winnerLines).toEqual([
      "Winner:   b (agent2.1, 1 vote, tie broken by earliest answer)",
      "Groups:   ★ 18: 1 vote; b (agent2.1)",
      "            20: 1 vote; a (agent1.1)",
      "            19: 1 vote; c (agent3.1)",
    ]);
    expect(json.winner).toMatchObject({
      tie_broken: true,
      tie_basis: "earliest answer",
      conclusion: "18",
    });
  });

  test("free-form answers show as (free-form); a lone free-form answer has no Groups line", async () => {
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
    expect(summary(events).winnerLines).toEqual([
      "Winner:   a (agent1.1, 2 votes)",
      "Groups:   ★ (free-form): 2 votes; a (agent1.1)",
      "            (free-form): 0 votes; b (agent2.1)",
    ]);
    const single = await runScripted(
      { a: [{ answer: "Plant tomatoes in spring.\nWater them daily." }] },
      { settings: { skip_final_presentation: true } },
    );
    const lone = summary(single.events);
    expect(lone.winnerLines).toHaveLength(1);
    expect(lone.json.winner!.groups).toHaveLength(1);
  });

  test("a log from before groups: no Groups line, empty groups, a tie by config order", () => {
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
    const { json, winnerLines } = summary(events);
    expect(winnerLines).toEqual(["Winner:   alice (agent1.1, 1 vote, tie broken by config order)"]);
    expect(json.winner).toMatchObject({ groups: [], conclusion: null, tie_basis: null });
  });
});
