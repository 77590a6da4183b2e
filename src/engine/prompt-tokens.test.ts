/**
 * What the prompts carry, on scripted teams on the virtual clock: each answer
 * once per prompt, shortened only where the mode allows (a later answer with an earlier one's
 * number named, a very long one bounded, the presenter's own answer and free-form answers whole),
 * and a refused call's retry that does not grow per attempt.
 */
import { describe, expect, test } from "vitest";
import type { ModelRequest } from "../backends/index.js";
import { boundedAnswer, MAX_SHOWN_ANSWER_CHARS } from "./answer-excerpt.js";
import { staleVoteMessage, updateMessage } from "./prompts.js";
import { runScripted } from "./test-helpers.js";

/** A worked answer of about 330 characters ending in `#### value`. */
const worked = (who: string, value: number) =>
  `${who} reads the question carefully. Janet's ducks lay 16 eggs; she eats 3 and bakes with 4, so ${16 - 3 - 4} are left to sell. ` +
  `Each sells for $2, so the day's income is the eggs left times the price. ${who} checks the sum twice and writes it down.\n#### ${value}`;
const FREE_FORM =
  "A free-form answer with no single number: it discusses the trade-offs of keeping ducks, the cost of feed, the market days and the weather, at some length, so that it is longer than the bound below which answers are never shortened, and it ends without any conclusion line.";

const text = (request: ModelRequest) =>
  [request.system, ...request.messages.map((message) => message.content)].join("\n");
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

function team(presentation?: "free") {
  const a = worked("Agent a", 18);
  const b = worked("Agent b", 18);
  const c = worked("Agent c", 20);
  return {
    answers: { a, b, c },
    run: runScripted(
      {
        a: [{ answer: a }, { vote: "agent1", reason: "right" }, { text: "Final answer: 18" }],
        b: [{ answer: b }, { vote: "agent1", reason: "right" }],
        c: [{ answer: c }, { vote: "agent1", reason: "mine is wrong" }],
        d: [{ answer: FREE_FORM }, { vote: "agent1", reason: "right" }],
      },
      presentation ? { settings: { presentation } } : {},
    ),
  };
}

describe("prompt tokens: each answer once, shortened only where the mode allows", () => {
  test("a voter sees one full working per conclusion, the free-form answer whole, nothing twice", async () => {
    const { answers, run } = team();
    const { backends } = await run;
    for (const id of ["a", "b", "c", "d"]) {
      const vote = backends[id]!.requests[1]!;
      const prompt = text(vote);
      expect(vote.messages).toHaveLength(1); // the opening alone: no history of earlier rounds
      expect(count(prompt, answers.a)).toBe(1);
      expect(count(prompt, answers.c)).toBe(1);
      expect(count(prompt, FREE_FORM)).toBe(1);
      // agent2's answer reaches agent1's number: named, its working left out.
      expect(prompt).not.toContain("Agent b reads");
      expect(prompt).toContain("<agent2>\nSame conclusion as agent1: 18 (its working left out).");
      expect(count(prompt, "<ORIGINAL MESSAGE>")).toBe(1);
    }
    // A first answer's prompt says nothing about votes or other answers, and has no empty
    // answers block: the question alone, as a single agent's.
    const first = backends.a!.requests[0]!;
    expect(first.messages).toEqual([
      { role: "user", content: "<ORIGINAL MESSAGE>\nWhat is 2+2?\n</ORIGINAL MESSAGE>" },
    ]);
    expect(first.system).toContain("You are one of 4 agents answering the same message.");
    expect(first.system).not.toMatch(/vote|answers/);
  });

  test("the presenter has its answer whole, the same number's working, the free-form answer, vote counts", async () => {
    const { answers, run } = team();
    const { backends } = await run;
    const present = text(backends.a!.requests.at(-1)!);
    expect(count(present, answers.a)).toBe(1);
    expect(count(present, answers.b)).toBe(1); // the same conclusion: its working may help
    // 20 cannot go into an answer that keeps 18: that answer is left out, and so is its number.
    expect(present).not.toContain('agent="c"');
    expect(present).not.toContain("Agent c reads");
    expect(count(present, FREE_FORM)).toBe(1);
    // Votes as counts per shown answer, without their reasons.
    expect(present).toContain("Votes: a 4.");
    expect(present).not.toMatch(/mine is wrong|voted for/);
  });

  test("the presenter sees one other working of its conclusion; later ones are named", async () => {
    const [a, b, c] = [worked("Agent a", 18), worked("Agent b", 18), worked("Agent c", 18)];
    const { backends } = await runScripted({
      a: [{ answer: a }, { vote: "agent1", reason: "right" }, { text: "Final answer: 18" }],
      b: [{ answer: b }, { vote: "agent3", reason: "clearest" }],
      c: [{ answer: c }, { vote: "agent1", reason: "right" }],
      d: [{ answer: worked("Agent d", 20) }, { vote: "agent1", reason: "right" }],
    });
    const present = text(backends.a!.requests.at(-1)!);
    expect(count(present, a)).toBe(1);
    expect(count(present, b)).toBe(1);
    expect(present).not.toContain("Agent c reads");
    expect(present).toContain("Also concluding 18 (working left out): c.");
    expect(present).toContain("Votes: a 3, c 1.");
  });

  test("orchestrator.presentation: free shows the presenter every answer whole", async () => {
    const { answers, run } = team("free");
    const { backends } = await run;
    const present = text(backends.a!.requests.at(-1)!);
    for (const answer of [answers.a, answers.b, answers.c, FREE_FORM])
      expect(count(present, answer)).toBe(1);
  });

  test("a very long answer with a number is bounded, its beginning and end kept; free-form stays whole", () => {
    const long = `Start of the working.\n${"x = x + 1\n".repeat(400)}The last step: 9 × 2.\n#### 18`;
    const shown = boundedAnswer(long);
    expect(shown.length).toBeLessThan(MAX_SHOWN_ANSWER_CHARS + 120);
    expect(shown.startsWith("Start of the working.")).toBe(true);
    expect(shown.endsWith("The last step: 9 × 2.\n#### 18")).toBe(true);
    expect(shown).toMatch(/\[… \d+ characters of its working left out; its conclusion: 18 …\]/);
    const free = `${"A long discussion. ".repeat(200)}No conclusion.`;
    expect(boundedAnswer(free)).toBe(free);
  });

  test("an update or a refused stale vote repeats only the answers the conversation lacks", () => {
    const answers = [
      { anonId: "agent1", label: "agent1.1", content: "Old answer one: 18" },
      { anonId: "agent2", label: "agent2.2", content: "Revised answer two: 20" },
    ];
    const shown = new Set(["agent1.1", "agent2.1"]);
    for (const message of [updateMessage(answers, shown), staleVoteMessage(answers, shown)]) {
      expect(message).not.toContain("Old answer one");
      expect(count(message, "Revised answer two: 20")).toBe(1);
      expect(message).toContain("Unchanged, as shown before: agent1.");
    }
    expect(updateMessage(answers)).toContain("Old answer one"); // nothing shown yet: all
  });

  test("a refused call's retry does not grow per attempt: only the latest refusal is kept", async () => {
    const unknownTool = { tool_calls: [{ name: "lookup", input: { q: "eggs" } }] };
    const { backends } = await runScripted({
      a: [unknownTool, unknownTool, { answer: "4" }, { vote: "agent1" }, { text: "4" }],
      // b answers after a's attempts (virtual clock), so no update comes between them.
      b: [{ answer: "2+2=4", delay_ms: 1000 }, { vote: "agent1" }],
    });
    const [first, second, third] = backends.a!.requests;
    expect(first!.messages).toHaveLength(1);
    const refusedOnce = ["user", "assistant", "tool", "user"]; // opening, reply, its result, refusal
    expect(second!.messages.map((message) => message.role)).toEqual(refusedOnce);
    // Without the bound the third attempt would carry both refused replies (7 messages).
    expect(third!.messages.map((message) => message.role)).toEqual(refusedOnce);
    expect(JSON.stringify(third!.messages).length).toBe(JSON.stringify(second!.messages).length);
  });
});
