/**
 * Unanimous answers (./unanimous.ts, `orchestrator.unanimous`): scripted teams on the virtual
 * clock, as protocol traces. With `skip_votes`, answers that all reach one conclusion end voting
 * without the vote round (a scripted vote left unplayed would fail `assertDone`, an extra call
 * would fail the script); two conclusions, a free-form answer, an agent still without an answer,
 * or the default `vote` keep the vote round; after a tie round whose fresh answers all agree, the
 * second vote is skipped too.
 */
import { describe, expect, test } from "vitest";
import type { CoordEvent } from "../events/index.js";
import { runScripted, trace } from "./test-helpers.js";

const skipVotes = { settings: { unanimous: "skip_votes" as const } };
const usages = (events: readonly CoordEvent[]) =>
  events.filter((event) => event.type === "usage").length;
const assertAllDone = (backends: Record<string, { assertDone(): void }>) => {
  for (const backend of Object.values(backends)) backend.assertDone();
};

describe("orchestrator.unanimous: skip_votes", () => {
  test("three answers with one number: no vote round, the earliest answer presents (4 calls)", async () => {
    const { events, backends } = await runScripted(
      {
        a: [{ answer: "9 eggs at $2.\nAnswer: 18" }, { text: "She makes $18 a day." }],
        b: [{ delay_ms: 5, answer: "The answer is $18.00." }],
        c: [{ delay_ms: 9, answer: "16 - 3 - 4 = 9; 9 × 2 = 18" }],
      },
      skipVotes,
    );
    assertAllDone(backends);
    expect(usages(events)).toBe(4);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start voting agent1,agent2,agent3",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "c round-start r1.1 coordinate []",
        "a usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "b usage r1",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "c usage r1",
        "c tool-call new_answer",
        "c answer agent3.1",
        "c tool-result new_answer",
        "c round-end r1 answer",
        "- warning orchestrator: every answer concludes 18; voting ends without a vote round (orchestrator.unanimous: skip_votes)",
        "a winner agent1 agent1.1 votes=0 votes",
        "a round-start r2.1 final [agent1.1,agent2.1,agent3.1]",
        "a final She makes $18 a day.",
        "a usage r2",
        "a round-end r2 final",
        "a final-answer agent1.final presentation: She makes $18 a day.",
        "- run-end completed",
      ]
    `);
    // The presenter sees every answer (all reach its number) and no votes block.
    const present = backends.a!.requests.at(-1)!.messages[0]!.content;
    expect(present).toContain('<answer agent="c">\n16 - 3 - 4 = 9; 9 × 2 = 18\n</answer>');
    expect(present).not.toContain("Votes");
  });

  test("two numbers: the team votes as usual", async () => {
    const { events, backends } = await runScripted(
      {
        a: [{ answer: "Answer: 18" }, { vote: "agent1", reason: "right" }, { text: "18" }],
        b: [{ answer: "Answer: 20" }, { vote: "agent1", reason: "I was wrong" }],
        c: [{ answer: "Answer: 18" }, { vote: "agent1", reason: "right" }],
      },
      skipVotes,
    );
    assertAllDone(backends);
    expect(usages(events)).toBe(7);
    expect(events.some((event) => event.type === "warning")).toBe(false);
  });

  test("free-form answers never count as unanimous: the team votes", async () => {
    const essay = (who: string) =>
      `${who}: keeping ducks pays when feed is cheap and the market is near; it depends on the season, the weather and how many eggs the family eats itself.`;
    const { events, backends } = await runScripted(
      {
        a: [{ answer: essay("a") }, { vote: "agent1", reason: "clear" }, { text: "Final." }],
        b: [{ answer: essay("b") }, { vote: "agent1", reason: "clear" }],
      },
      skipVotes,
    );
    assertAllDone(backends);
    expect(usages(events)).toBe(5);
  });

  test("an agent whose first round failed answers again before voting could end", async () => {
    const { events, backends } = await runScripted(
      {
        a: [{ answer: "Answer: 18" }, { text: "18" }],
        b: [
          { delay_ms: 5, error: { status: 500, message: "boom" } },
          { answer: "The answer is 18." },
        ],
      },
      skipVotes,
    );
    assertAllDone(backends);
    // a's answer alone is not unanimity while b, still live, has none: b answers, then no votes.
    expect(trace(events).filter((line) => / (answer|warning|winner) /.test(line))).toEqual([
      "a answer agent1.1",
      "b answer agent2.1",
      "- warning orchestrator: every answer concludes 18; voting ends without a vote round (orchestrator.unanimous: skip_votes)",
      "a winner agent1 agent1.1 votes=0 votes",
    ]);
  });
});

describe("orchestrator.unanimous: skip_votes after a tie round", () => {
  test("fresh answers that all agree: the second vote is skipped too", async () => {
    const { events, backends } = await runScripted(
      {
        a: [
          { answer: "The answer is 18." },
          { vote: "agent1", reason: "mine" },
          { answer: "9 × 2 = 18" },
        ],
        b: [
          { delay_ms: 5, answer: "The answer is 20." },
          { vote: "agent2", reason: "mine" },
          { answer: "Answer: 18" },
        ],
        c: [
          { delay_ms: 9, answer: "The answer is 19." },
          { vote: "agent3", reason: "mine" },
          { answer: "#### 18" },
        ],
      },
      { settings: { unanimous: "skip_votes", skip_final_presentation: true } },
    );
    assertAllDone(backends);
    expect(usages(events)).toBe(9); // 3 answers, 3 votes, 3 fresh answers: no second vote
    expect(trace(events).filter((line) => / (warning|winner|final-answer) /.test(line))).toEqual([
      "- warning orchestrator: the vote is tied between agent1.1 (18), agent2.1 (20), agent3.1 (19); each agent answers the question again without seeing the answers, then the team votes again (orchestrator.tie_break: fresh_answers)",
      "- warning orchestrator: every answer concludes 18; voting ends without a vote round (orchestrator.unanimous: skip_votes)",
      "a winner agent1 agent1.2 votes=0 votes",
      "a final-answer agent1.final answer: 9 × 2 = 18",
    ]);
  });
});

describe("orchestrator.unanimous: vote (the default)", () => {
  test("three answers with one number: the team still votes (7 calls)", async () => {
    const { events, backends } = await runScripted({
      a: [{ answer: "Answer: 18" }, { vote: "agent1", reason: "right" }, { text: "18" }],
      b: [{ answer: "Answer: 18" }, { vote: "agent1", reason: "right" }],
      c: [{ answer: "Answer: 18" }, { vote: "agent1", reason: "right" }],
    });
    assertAllDone(backends);
    expect(usages(events)).toBe(7);
    expect(events.some((event) => event.type === "warning")).toBe(false);
  });
});
