/**
 * The tie round (./tie-break.ts, `orchestrator.tie_break`): scripted teams on a
 * virtual clock whose vote ends 1–1–1, as protocol traces; what the tie round's requests offered
 * and showed; a tie that stays a tie; the budget reached before the round; an agent that
 * misbehaves in it.
 */
import { describe, expect, test } from "vitest";
import type { CoordEvent, EventOf } from "../events/index.js";
import { runScripted, trace } from "./test-helpers.js";

const only = <T extends CoordEvent["type"]>(events: readonly CoordEvent[], type: T) =>
  events.filter((event): event is Extract<CoordEvent, { type: T }> => event.type === type);
const winnerOf = (events: readonly CoordEvent[]): EventOf<"winner"> => only(events, "winner")[0]!;
const assertAllDone = (backends: Record<string, { assertDone(): void }>) => {
  for (const backend of Object.values(backends)) backend.assertDone();
};

/** Three different numbers, each agent voting for its own: the 1–1–1 tie. */
const tied = {
  a: [{ answer: "The answer is 18." }, { vote: "agent1", reason: "mine" }],
  b: [
    { delay_ms: 5, answer: "The answer is 20." },
    { vote: "agent2", reason: "mine" },
  ],
  c: [
    { delay_ms: 9, answer: "The answer is 19." },
    { vote: "agent3", reason: "mine" },
  ],
};

describe("tie_break: revote", () => {
  const revote = { settings: { skip_final_presentation: true, tie_break: "revote" as const } };

  test("a 1–1–1 tie: each agent votes once more between the tied answers; the new votes decide", async () => {
    const { events, backends } = await runScripted(
      {
        a: [...tied.a, { vote: "agent1", reason: "still mine" }],
        b: [...tied.b, { vote: "agent1", reason: "18 is right after all" }],
        c: [...tied.c, { vote: "agent3", reason: "still mine" }],
      },
      revote,
    );
    assertAllDone(backends);
    expect(trace(events).slice(-22)).toMatchInlineSnapshot(`
      [
        "- warning orchestrator: the vote is tied between agent1.1 (18), agent2.1 (20), agent3.1 (19); each agent votes once more between them (orchestrator.tie_break: revote)",
        "a round-start r3.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "b round-start r3.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "c round-start r3.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "a usage r3",
        "b usage r3",
        "c usage r3",
        "a tool-call vote",
        "a vote agent1 (agent1.1)",
        "a tool-result vote",
        "a round-end r3 vote",
        "b tool-call vote",
        "b vote agent1 (agent1.1)",
        "b tool-result vote",
        "b round-end r3 vote",
        "c tool-call vote",
        "c vote agent3 (agent3.1)",
        "c tool-result vote",
        "c round-end r3 vote",
        "a winner agent1 agent1.1 votes=2 votes",
        "a final-answer agent1.final answer: The answer is 18.",
        "- run-end completed",
      ]
    `);
    expect(winnerOf(events)).toMatchObject({ anonId: "agent1", votes: 2, tieBroken: false });
    // The tie round offers only vote, for the tied answers, and says the vote is tied.
    const request = backends.b!.requests[2]!;
    expect(request.tools.map((tool) => tool.name)).toEqual(["vote"]);
    expect(request.tools[0]!.inputSchema).toMatchObject({
      properties: { agent_id: { enum: ["agent1", "agent2", "agent3"] } },
    });
    expect(request.messages[0]!.content).toContain(
      "The vote is tied between agent1, agent2 and agent3.",
    );
    expect(request.system).not.toContain("new_answer");
  });

  test("a tie that stays a tie: one tie round only, then the earliest answer, reported as a tie", async () => {
    const { events, backends } = await runScripted(
      {
        a: [...tied.a, { vote: "agent1", reason: "mine" }],
        b: [...tied.b, { vote: "agent2", reason: "mine" }],
        c: [...tied.c, { vote: "agent3", reason: "mine" }],
      },
      revote,
    );
    assertAllDone(backends);
    expect(only(events, "usage")).toHaveLength(9);
    expect(only(events, "warning").map((event) => event.message)).toEqual([
      "the vote is tied between agent1.1 (18), agent2.1 (20), agent3.1 (19); each agent votes once more between them (orchestrator.tie_break: revote)",
    ]);
    expect(winnerOf(events)).toMatchObject({
      anonId: "agent1",
      tieBroken: true,
      tieBasis: "earliest answer",
    });
  });

  test("an agent that replies in plain text in the tie round: three attempts at most, its old vote stands", async () => {
    const { events, backends } = await runScripted(
      {
        a: [...tied.a, { vote: "agent2", reason: "20 it is" }],
        b: [...tied.b, { vote: "agent2", reason: "mine" }],
        c: [...tied.c, { text: "Hard to say." }, { text: "Still thinking." }, { text: "Hmm." }],
      },
      revote,
    );
    assertAllDone(backends);
    const calls = only(events, "usage");
    expect(calls.filter((event) => event.agentId === "c")).toHaveLength(5);
    expect(calls).toHaveLength(11);
    expect(only(events, "agent-error")).toMatchObject([
      { agentId: "c", fatal: false, cause: "protocol" },
    ]);
    // 20: a's and b's votes (a majority of 3 with c's old vote for 19).
    expect(winnerOf(events)).toMatchObject({ anonId: "agent2", votes: 2, tieBroken: false });
    expect(winnerOf(events).tally).toEqual({ b: 2, c: 1 });
    expect(only(events, "run-end")[0]).toMatchObject({ reason: "completed" });
  });
});

describe("tie_break: fresh_answers (the default)", () => {
  test("a 1–1–1 tie: each agent answers again without seeing the answers, then the team votes again", async () => {
    const { events, backends } = await runScripted(
      {
        a: [...tied.a, { answer: "Answer: 18" }, { vote: "agent1", reason: "18" }],
        b: [...tied.b, { answer: "So the answer is 18." }, { vote: "agent1", reason: "18 twice" }],
        c: [...tied.c, { answer: "Final answer: 17" }, { vote: "agent3", reason: "mine" }],
      },
      { settings: { skip_final_presentation: true } },
    );
    assertAllDone(backends);
    expect(trace(events).slice(-40)).toMatchInlineSnapshot(`
      [
        "a usage r3",
        "b usage r3",
        "c usage r3",
        "a tool-call new_answer",
        "a answer agent1.2",
        "- votes-reset by agent1.2 cleared 3",
        "a tool-result new_answer",
        "a round-end r3 answer",
        "b tool-call new_answer",
        "b answer agent2.2",
        "b tool-result new_answer",
        "b round-end r3 answer",
        "c tool-call new_answer",
        "c answer agent3.2",
        "c tool-result new_answer",
        "c round-end r3 answer",
        "a update-injected restart [agent2.2,agent3.2]",
        "a round-start r4.1 coordinate [agent1.2,agent2.2,agent3.2]",
        "b update-injected restart [agent1.2,agent3.2]",
        "b round-start r4.1 coordinate [agent1.2,agent2.2,agent3.2]",
        "c update-injected restart [agent1.2,agent2.2]",
        "c round-start r4.1 coordinate [agent1.2,agent2.2,agent3.2]",
        "a usage r4",
        "b usage r4",
        "c usage r4",
        "a tool-call vote",
        "a vote agent1 (agent1.2)",
        "a tool-result vote",
        "a round-end r4 vote",
        "b tool-call vote",
        "b vote agent1 (agent1.2)",
        "b tool-result vote",
        "b round-end r4 vote",
        "c tool-call vote",
        "c vote agent3 (agent3.2)",
        "c tool-result vote",
        "c round-end r4 vote",
        "a winner agent1 agent1.2 votes=2 votes",
        "a final-answer agent1.final answer: Answer: 18",
        "- run-end completed",
      ]
    `);
    expect(winnerOf(events)).toMatchObject({ conclusion: "18", votes: 2, tieBroken: false });
    // The fresh answer's request: the question alone, only new_answer offered.
    const request = backends.c!.requests[2]!;
    expect(request.tools.map((tool) => tool.name)).toEqual(["new_answer"]);
    const prompt = JSON.stringify(request.messages);
    expect(prompt).toContain("What is 2+2?");
    for (const shown of ["18", "20", "<agent1>", "CURRENT ANSWERS"])
      expect(prompt).not.toContain(shown);
  });

  test("a tie with a free-form answer gets a re-vote instead (fresh free-form answers never add up)", async () => {
    const essay = "Eggs are sold by the dozen in most shops, so the question needs care.";
    const { events, backends } = await runScripted(
      {
        a: [...tied.a, { vote: "agent2", reason: "the essay is right" }],
        b: [{ delay_ms: 5, answer: essay }, tied.b[1]!, { vote: "agent2", reason: "mine" }],
        c: [...tied.c, { vote: "agent3", reason: "mine" }],
      },
      { settings: { skip_final_presentation: true } },
    );
    assertAllDone(backends);
    expect(only(events, "warning").map((event) => event.message)).toEqual([
      "the vote is tied between agent1.1 (18), agent2.1, agent3.1 (19); each agent votes once more between them (orchestrator.tie_break: fresh_answers, a free-form answer is tied: a re-vote instead)",
    ]);
    expect(backends.a!.requests[2]!.tools.map((tool) => tool.name)).toEqual(["vote"]);
    expect(winnerOf(events)).toMatchObject({ anonId: "agent2", votes: 2, tieBroken: false });
  });

  test("an answer the agent gave before is a sample like any other (no novelty refusal)", async () => {
    const { events, backends } = await runScripted(
      {
        a: [...tied.a, { answer: "The answer is 18." }, { vote: "agent1", reason: "18" }],
        b: [...tied.b, { answer: "The answer is 20." }, { vote: "agent2", reason: "20" }],
        c: [...tied.c, { answer: "The answer is 18." }, { vote: "agent1", reason: "18" }],
      },
      { settings: { skip_final_presentation: true } },
    );
    assertAllDone(backends);
    expect(only(events, "workflow-invalid")).toEqual([]);
    expect(only(events, "answer").map((event) => event.label)).toEqual([
      "agent1.1",
      "agent2.1",
      "agent3.1",
      "agent1.2",
      "agent2.2",
      "agent3.2",
    ]);
    expect(winnerOf(events)).toMatchObject({ conclusion: "18", votes: 2, tieBroken: false });
  });
});

describe("the tie round and the budget", () => {
  test("a budget reached by the last vote: no tie round, no call past the budget", async () => {
    const { events, backends } = await runScripted(tied, {
      settings: { skip_final_presentation: true },
      budget: { maxCalls: 6 },
    });
    assertAllDone(backends);
    expect(only(events, "usage")).toHaveLength(6);
    expect(only(events, "warning")).toEqual([]);
    expect(only(events, "limit-reached")).toHaveLength(1);
    expect(winnerOf(events)).toMatchObject({ anonId: "agent1", basis: "partial" });
  });

  test("the tie round's calls count in the budget: reaching it mid-round ends coordination", async () => {
    const { events } = await runScripted(
      {
        a: [...tied.a, { answer: "I get 18." }],
        b: [...tied.b, { delay_ms: 50, answer: "It is 18." }],
        c: [...tied.c, { delay_ms: 50, answer: "Surely 17." }],
      },
      { settings: { skip_final_presentation: true }, budget: { maxCalls: 7 } },
    );
    // The 7th call (a's fresh answer) reaches the limit; b's and c's calls in flight are aborted.
    expect(only(events, "usage").filter((event) => event.failed !== true)).toHaveLength(7);
    expect(only(events, "limit-reached")).toHaveLength(1);
    expect(winnerOf(events)).toMatchObject({ basis: "partial" });
    expect(only(events, "run-end")[0]).toMatchObject({ reason: "completed" });
  });
});
