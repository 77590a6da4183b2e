/**
 * How the winner is chosen (docs/coordination.md; ./selection.ts): scripted teams on a virtual
 * clock, the `winner` and `final-answer` events they end with, and the ranking itself on hand-made
 * runs.
 */
import { describe, expect, test } from "vitest";
import type { CoordEvent, EventOf } from "../events/index.js";
import { selectAnswer } from "./selection.js";
import { runScripted } from "./test-helpers.js";

const only = <T extends CoordEvent["type"]>(events: readonly CoordEvent[], type: T) =>
  events.filter((event): event is Extract<CoordEvent, { type: T }> => event.type === type);
const winnerOf = (events: readonly CoordEvent[]): EventOf<"winner"> => only(events, "winner")[0]!;
const finalOf = (events: readonly CoordEvent[]) => only(events, "final-answer")[0]!;
// The counting rule alone: no tie round (`./tie-break.test.ts` tests that).
const skip = { settings: { skip_final_presentation: true, tie_break: "none" as const } };

describe("votes by conclusion", () => {
  test("votes split between equal numbers count for one group: it beats the answer voted for alone", async () => {
    // Per answer the votes are 1–1–1 and the tie would go to agent1's 20; by conclusion 18 has 2 of 3.
    const { events } = await runScripted(
      {
        a: [{ answer: "Work.\nAnswer: 20" }, { vote: "agent1", reason: "mine" }],
        b: [{ answer: "Work.\nAnswer: 18" }, { vote: "agent2", reason: "mine" }],
        c: [{ answer: "Other work.\nThe answer is $18.00." }, { vote: "agent3", reason: "mine" }],
      },
      skip,
    );
    const winner = winnerOf(events);
    expect(winner).toMatchObject({ agentId: "b", label: "agent2.1", votes: 2, tieBroken: false });
    expect(winner.conclusion).toBe("18");
    expect(winner.groups).toEqual([
      { conclusion: "18", labels: ["agent2.1", "agent3.1"], votes: 2, agents: 2, firstAnswers: 2 },
      { conclusion: "20", labels: ["agent1.1"], votes: 1, agents: 1, firstAnswers: 1 },
    ]);
    expect(finalOf(events).content).toBe("Work.\nAnswer: 18");
  });

  test("a wrong answer with two votes loses to a conclusion three agents reached with split votes", async () => {
    const { events } = await runScripted(
      {
        a: [{ answer: "Answer: 20" }, { vote: "agent1", reason: "mine" }],
        b: [{ answer: "Answer: 18" }, { vote: "agent2", reason: "mine" }],
        c: [{ answer: "Answer: 18.0" }, { vote: "agent3", reason: "mine" }],
        d: [{ answer: "Answer: 18 apples" }, { vote: "agent1", reason: "persuaded" }],
      },
      skip,
    );
    const winner = winnerOf(events);
    // 2–2 by group, no majority: score 18 = 2 votes + 3 agents, 20 = 2 votes + 1 agent.
    expect(winner).toMatchObject({ anonId: "agent2", conclusion: "18", tieBroken: false });
    expect(winner.tally).toEqual({ a: 2, b: 1, c: 1 });
    expect(winner.groups?.map((group) => [group.conclusion, group.votes, group.agents])).toEqual([
      ["18", 2, 3],
      ["20", 2, 1],
    ]);
  });

  test("the agent's short_answer puts a free-form answer in the group of its number", async () => {
    const { events } = await runScripted(
      {
        a: [
          {
            tool_calls: [
              {
                name: "new_answer",
                input: { content: "Twenty, by counting.", short_answer: "20" },
              },
            ],
          },
          { vote: "agent1", reason: "mine" },
        ],
        b: [{ answer: "Answer: 18" }, { vote: "agent2", reason: "mine" }],
        c: [{ answer: "It is 20 in all.\n#### 20" }, { vote: "agent3", reason: "mine" }],
      },
      skip,
    );
    expect(winnerOf(events)).toMatchObject({
      anonId: "agent1",
      conclusion: "20",
      tieBroken: false,
    });
    expect(winnerOf(events).groups?.[0]?.labels).toEqual(["agent1.1", "agent3.1"]);
  });
});

describe("no votes at all", () => {
  test("the run's budget ends it after the first answers: the conclusion more agents reached wins", async () => {
    const { events } = await runScripted(
      {
        a: [{ answer: "Answer: 20" }],
        b: [{ answer: "Answer: 18" }],
        c: [{ answer: "Work.\n#### 18" }],
      },
      { budget: { maxCalls: 3 } },
    );
    expect(winnerOf(events)).toMatchObject({
      anonId: "agent2",
      basis: "partial",
      votes: 0,
      conclusion: "18",
    });
    expect(finalOf(events)).toMatchObject({ source: "answer", content: "Answer: 18" });
  });
});

describe("ties broken on evidence", () => {
  test("1–1–1 self-votes on three conclusions: a tie, broken by the earliest answer and reported", async () => {
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
      skip,
    );
    // agent2 answered first (a and c were slower): config order would have chosen agent1.
    expect(winnerOf(events)).toMatchObject({
      anonId: "agent2",
      tieBroken: true,
      tieBasis: "earliest answer",
    });
  });

  test("2–2 between two conclusions with equal evidence: the earlier answer, reported as a tie", async () => {
    const { events } = await runScripted(
      {
        a: [{ answer: "Answer: 20" }, { vote: "agent1", reason: "mine" }],
        b: [{ answer: "Answer: 18" }, { vote: "agent3", reason: "better" }],
        c: [{ answer: "Answer: 19" }, { vote: "agent3", reason: "mine" }],
        d: [{ answer: "Answer: 17" }, { vote: "agent1", reason: "better" }],
      },
      skip,
    );
    // 20 and 19: 2 votes + 1 agent each, one first answer, one vote from outside; 20 came first.
    expect(winnerOf(events)).toMatchObject({
      anonId: "agent1",
      tieBroken: true,
      tieBasis: "earliest answer",
    });
  });

  test("the ranking: first answers, then votes from outside, then the earliest answer", () => {
    const answer = (label: string, conclusion: string, current = true) => ({
      label,
      anonId: label.split(".")[0]!,
      conclusion,
      current,
    });
    // No votes: 20 and 18 both score 1 (one agent each), one first answer each: the earlier wins.
    const byOrder = selectAnswer([answer("agent1.1", "20"), answer("agent2.1", "18")], []);
    expect(byOrder).toMatchObject({
      label: "agent1.1",
      rule: "evidence",
      tieBroken: true,
      tieBasis: "earliest answer",
    });

    // One vote is a majority of the votes cast, even against a conclusion more agents reached.
    expect(
      selectAnswer(
        [answer("agent1.1", "20"), answer("agent2.1", "18"), answer("agent3.1", "18")],
        [{ voterAnonId: "agent3", label: "agent1.1" }],
      ),
    ).toMatchObject({ label: "agent1.1", rule: "majority", tieBroken: false });

    const firstAnswers = selectAnswer(
      [
        answer("agent1.1", "20"),
        answer("agent2.1", "18"),
        answer("agent3.1", "18", false),
        answer("agent3.2", "19"),
      ],
      [
        { voterAnonId: "agent1", label: "agent1.1" },
        { voterAnonId: "agent3", label: "agent3.2" },
      ],
    );
    // 20: 1 vote + 1 agent = 2; 18: 0 votes + 2 agents = 2 with 2 first answers; 19: 1 + 1 = 2.
    expect(firstAnswers).toMatchObject({
      label: "agent2.1",
      tieBroken: true,
      tieBasis: "first answers",
    });

    const outside = selectAnswer(
      [answer("agent1.1", "20"), answer("agent2.1", "18")],
      [
        { voterAnonId: "agent1", label: "agent1.1" },
        { voterAnonId: "agent3", label: "agent2.1" },
      ],
    );
    // 1–1, no majority; scores 2 and 2; first answers 1 and 1; 18 has the vote from outside.
    expect(outside).toMatchObject({
      label: "agent2.1",
      tieBroken: true,
      tieBasis: "votes from outside",
    });

    // A superseded answer's group cannot win: nobody holds it to present.
    expect(
      selectAnswer(
        [
          answer("agent1.1", "18", false),
          answer("agent2.1", "18", false),
          answer("agent1.2", "20"),
        ],
        [],
      ),
    ).toMatchObject({ label: "agent1.2", group: { conclusion: "20" } });
    expect(selectAnswer([], [])).toBeUndefined();
  });
});

describe("the presentation keeps the winner's conclusion", () => {
  const team = (final: string) => ({
    a: [{ answer: "Work.\nAnswer: 18" }, { vote: "agent1", reason: "right" }, { text: final }],
    b: [{ answer: "Work.\nAnswer: 20" }, { vote: "agent1", reason: "right" }],
    c: [{ answer: "Work.\nAnswer: 18" }, { vote: "agent1", reason: "right" }],
  });

  test("a presenter that writes another number: the winning answer is final, with a warning", async () => {
    const { events, backends } = await runScripted(team("The majority says 20.\nFinal answer: 20"));
    backends.a!.assertDone();
    expect(finalOf(events)).toMatchObject({ source: "answer", content: "Work.\nAnswer: 18" });
    expect(only(events, "warning").map((event) => event.message)).toEqual([
      "the presentation concluded 20, not the winning answer's 18; the winning answer is the final answer (orchestrator.presentation: keep_conclusion)",
    ]);
  });

  test("a presentation that keeps the number, in other words, is the final answer", async () => {
    const { events } = await runScripted(team("She earns $18.00 a day, as 9 × 2 = 18."));
    expect(finalOf(events)).toMatchObject({ source: "presentation" });
    expect(only(events, "warning")).toEqual([]);
  });

  test("orchestrator.presentation: free keeps the presenter's text", async () => {
    const { events } = await runScripted(team("Final answer: 20"), {
      settings: { presentation: "free" },
    });
    expect(finalOf(events)).toMatchObject({ source: "presentation", content: "Final answer: 20" });
    expect(only(events, "warning")).toEqual([]);
  });

  test("the presenter is told to present the winning answer", async () => {
    const { backends } = await runScripted(team("Final answer: 18"));
    const request = backends.a!.requests.at(-1)!;
    expect(request.system).toContain("Your answer (marked yours) was chosen");
    expect(request.system).toContain(
      "your answer with its conclusion (result, choice or short answer) kept",
    );
    expect(JSON.stringify(request.messages)).toContain('<answer agent=\\"a\\" yours>');
  });
});
