/**
 * Voting mode, docs/coordination.md "Voting mode" steps 1–7: whole event sequences (as one-line
 * traces) for the protocol's cases, plus what really reached each model.
 */
import { describe, expect, test } from "vitest";
import type { LocalTool } from "../tools/tool.js";
import { createVirtualClock } from "../clock.js";
import { allAgree } from "./scenarios.js";
import { runScripted, trace } from "./test-helpers.js";

const assertAllDone = (backends: Record<string, { assertDone(): void }>) => {
  for (const backend of Object.values(backends)) backend.assertDone();
};

describe("voting mode", () => {
  test("all agree: 7 model calls, agent1 wins and presents", async () => {
    const { events, backends } = await runScripted(allAgree);
    assertAllDone(backends);
    expect(events.filter((event) => event.type === "usage")).toHaveLength(7);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start voting agent1,agent2,agent3",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "c round-start r1.1 coordinate []",
        "a usage r1",
        "b usage r1",
        "c usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "c tool-call new_answer",
        "c answer agent3.1",
        "c tool-result new_answer",
        "c round-end r1 answer",
        "a update-injected restart [agent2.1,agent3.1]",
        "a round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "b update-injected restart [agent1.1,agent3.1]",
        "b round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "c update-injected restart [agent1.1,agent2.1]",
        "c round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "a usage r2",
        "b usage r2",
        "c usage r2",
        "a tool-call vote",
        "a vote agent1 (agent1.1)",
        "a tool-result vote",
        "a round-end r2 vote",
        "b tool-call vote",
        "b vote agent1 (agent1.1)",
        "b tool-result vote",
        "b round-end r2 vote",
        "c tool-call vote",
        "c vote agent1 (agent1.1)",
        "c tool-result vote",
        "c round-end r2 vote",
        "a winner agent1 agent1.1 votes=3 votes",
        "a round-start r3.1 final [agent1.1,agent2.1,agent3.1]",
        "a final The answer is 4.",
        "a usage r3",
        "a round-end r3 final",
        "a final-answer agent1.final presentation: The answer is 4.",
        "- run-end completed",
      ]
    `);
  });

  test("agents see anonymous ids only, and the answers in tagged blocks", async () => {
    const { backends } = await runScripted(allAgree);
    const voteRound = backends.b!.requests[1]!;
    const prompt = JSON.stringify(voteRound);
    expect(prompt).toContain("<agent1>\\n4\\n</agent1>");
    expect(prompt).toContain("<agent3>\\n2+2=4\\n</agent3>");
    for (const realId of ['"a"', '"c"', "scripted"]) expect(voteRound.system).not.toContain(realId);
    expect(voteRound.tools.map((tool) => tool.name)).toEqual(["new_answer", "vote"]);
    expect(voteRound.tools[1]!.inputSchema).toMatchObject({
      properties: { agent_id: { enum: ["agent1", "agent2", "agent3"] } },
    });
    // Round 1: nothing to vote for, so vote is not offered.
    expect(backends.b!.requests[0]!.tools.map((tool) => tool.name)).toEqual(["new_answer"]);
    // The presentation sees real ids and, keeping the number 4, the vote counts; no tools.
    const presentation = backends.a!.requests[2]!;
    expect(presentation.tools).toEqual([]);
    expect(presentation.messages[0]!.content).toContain('agent="c"');
    expect(presentation.messages[0]!.content).toContain("Votes: a 3.");
  });

  test("a late better answer resets the votes and everyone re-votes", async () => {
    const { events, backends } = await runScripted({
      a: [{ answer: "4" }, { vote: "agent1", reason: "r" }, { vote: "agent3", reason: "better" }],
      b: [
        { answer: "Four" },
        { vote: "agent1", reason: "r" },
        { vote: "agent3", reason: "better" },
      ],
      c: [
        { answer: "2+2=4" },
        { delay_ms: 10, answer: "2+2=4 because two pairs make four" },
        { vote: "agent3", reason: "mine" },
        { text: "4, since two pairs make four." },
      ],
    });
    assertAllDone(backends);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start voting agent1,agent2,agent3",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "c round-start r1.1 coordinate []",
        "a usage r1",
        "b usage r1",
        "c usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "c tool-call new_answer",
        "c answer agent3.1",
        "c tool-result new_answer",
        "c round-end r1 answer",
        "a update-injected restart [agent2.1,agent3.1]",
        "a round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "b update-injected restart [agent1.1,agent3.1]",
        "b round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "c update-injected restart [agent1.1,agent2.1]",
        "c round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "a usage r2",
        "b usage r2",
        "a tool-call vote",
        "a vote agent1 (agent1.1)",
        "a tool-result vote",
        "a round-end r2 vote",
        "b tool-call vote",
        "b vote agent1 (agent1.1)",
        "b tool-result vote",
        "b round-end r2 vote",
        "c usage r2",
        "c tool-call new_answer",
        "c answer agent3.2",
        "- votes-reset by agent3.2 cleared 2",
        "c tool-result new_answer",
        "c round-end r2 answer",
        "a update-injected restart [agent3.2]",
        "a round-start r3.1 coordinate [agent1.1,agent2.1,agent3.2]",
        "b update-injected restart [agent3.2]",
        "b round-start r3.1 coordinate [agent1.1,agent2.1,agent3.2]",
        "c round-start r3.1 coordinate [agent1.1,agent2.1,agent3.2]",
        "a usage r3",
        "b usage r3",
        "c usage r3",
        "a tool-call vote",
        "a vote agent3 (agent3.2)",
        "a tool-result vote",
        "a round-end r3 vote",
        "b tool-call vote",
        "b vote agent3 (agent3.2)",
        "b tool-result vote",
        "b round-end r3 vote",
        "c tool-call vote",
        "c vote agent3 (agent3.2)",
        "c tool-result vote",
        "c round-end r3 vote",
        "c winner agent3 agent3.2 votes=3 votes",
        "c round-start r4.1 final [agent1.1,agent2.1,agent3.2]",
        "c final 4, since two pairs make four.",
        "c usage r4",
        "c round-end r4 final",
        "c final-answer agent3.final presentation: 4, since two pairs make four.",
        "- run-end completed",
      ]
    `);
  });

  test("a stale vote is refused with the new answers and the agent re-votes in the same round", async () => {
    const { events, backends } = await runScripted({
      a: [{ answer: "4" }, { vote: "agent1", reason: "r" }, { vote: "agent3", reason: "better" }],
      b: [
        { answer: "Four" },
        { delay_ms: 20, vote: "agent1", reason: "r" },
        {
          vote: "agent3",
          reason: "after update",
          expect_prompt_contains: ["Vote refused", "two pairs"],
        },
      ],
      c: [
        { answer: "2+2=4" },
        { delay_ms: 10, answer: "2+2=4 because two pairs make four" },
        { vote: "agent3", reason: "mine" },
        { text: "final" },
      ],
    });
    assertAllDone(backends);
    // The refusal is a tool result in the same conversation, not a new one.
    const retry = backends.b!.requests[2]!;
    expect(retry.messages.at(-1)).toMatchObject({ role: "tool", toolName: "vote", isError: true });
    expect(retry.messages[0]).toEqual(backends.b!.requests[1]!.messages[0]);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start voting agent1,agent2,agent3",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "c round-start r1.1 coordinate []",
        "a usage r1",
        "b usage r1",
        "c usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "c tool-call new_answer",
        "c answer agent3.1",
        "c tool-result new_answer",
        "c round-end r1 answer",
        "a update-injected restart [agent2.1,agent3.1]",
        "a round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "b update-injected restart [agent1.1,agent3.1]",
        "b round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "c update-injected restart [agent1.1,agent2.1]",
        "c round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "a usage r2",
        "a tool-call vote",
        "a vote agent1 (agent1.1)",
        "a tool-result vote",
        "a round-end r2 vote",
        "c usage r2",
        "c tool-call new_answer",
        "c answer agent3.2",
        "- votes-reset by agent3.2 cleared 1",
        "c tool-result new_answer",
        "c round-end r2 answer",
        "a update-injected restart [agent3.2]",
        "a round-start r3.1 coordinate [agent1.1,agent2.1,agent3.2]",
        "c round-start r3.1 coordinate [agent1.1,agent2.1,agent3.2]",
        "a usage r3",
        "c usage r3",
        "a tool-call vote",
        "a vote agent3 (agent3.2)",
        "a tool-result vote",
        "a round-end r3 vote",
        "c tool-call vote",
        "c vote agent3 (agent3.2)",
        "c tool-result vote",
        "c round-end r3 vote",
        "b usage r2",
        "b tool-call vote",
        "b vote-refused agent1",
        "b tool-result vote error",
        "b update-injected vote-refused [agent3.2]",
        "b usage r2",
        "b tool-call vote",
        "b vote agent3 (agent3.2)",
        "b tool-result vote",
        "b round-end r2 vote",
        "c winner agent3 agent3.2 votes=3 votes",
        "c round-start r4.1 final [agent1.1,agent2.1,agent3.2]",
        "c final final",
        "c usage r4",
        "c round-end r4 final",
        "c final-answer agent3.final presentation: final",
        "- run-end completed",
      ]
    `);
  });

  test("an update reaches the model at the next step boundary of a round using tools", async () => {
    const clock = createVirtualClock();
    const lookup: LocalTool = {
      spec: { name: "lookup", description: "Look something up.", inputSchema: { type: "object" } },
      execute: async () => {
        await clock.sleep(50);
        return "lookup result";
      },
    };
    const { events, backends } = await runScripted(
      {
        a: [{ answer: "4" }, { vote: "agent2", reason: "r" }, { vote: "agent3", reason: "r" }],
        b: [
          { answer: "Four" },
          { tool_calls: [{ name: "lookup", input: {} }] },
          {
            vote: "agent3",
            reason: "updated",
            expect_prompt_contains: "UPDATE: the answers changed",
          },
        ],
        c: [
          { answer: "2+2=4" },
          { delay_ms: 10, answer: "4, as two and two make four" },
          { vote: "agent3", reason: "r" },
          { text: "final" },
        ],
      },
      { clock, localTools: [lookup] },
    );
    assertAllDone(backends);
    const injected = events.find(
      (event) => event.type === "update-injected" && event.via === "step",
    );
    expect(injected).toMatchObject({ agentId: "b", labels: ["agent3.2"] });
    const afterTool = backends.b!.requests[2]!.messages;
    expect(afterTool.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(trace(events).filter((line) => line.startsWith("b "))).toMatchInlineSnapshot(`
      [
        "b round-start r1.1 coordinate []",
        "b usage r1",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "b update-injected restart [agent1.1,agent3.1]",
        "b round-start r2.1 coordinate [agent1.1,agent2.1,agent3.1]",
        "b usage r2",
        "b tool-call lookup",
        "b tool-result lookup",
        "b update-injected step [agent3.2]",
        "b usage r2",
        "b tool-call vote",
        "b vote agent3 (agent3.2)",
        "b tool-result vote",
        "b round-end r2 vote",
      ]
    `);
  });

  test("an answer identical to an existing one is heard as a vote for it", async () => {
    // b writes a's answer word for word: agreement, not a refusal (docs/real-models.md). b had not
    // seen agent1.1 yet, so the vote is first refused as stale and b votes again in the same round.
    const { events, backends } = await runScripted({
      a: [{ answer: "4" }, { vote: "agent1", reason: "r" }, { text: "final" }],
      b: [
        { delay_ms: 1, answer: "4" },
        { vote: "agent1", reason: "r", expect_prompt_contains: "agent1" },
      ],
    });
    assertAllDone(backends);
    expect(events.filter((event) => event.type === "workflow-invalid")).toHaveLength(0);
    expect(events.filter((event) => event.type === "answer")).toHaveLength(1);
    expect(events.filter((event) => event.type === "vote")).toMatchObject([
      { agentId: "b", targetAnonId: "agent1" },
      { agentId: "a", targetAnonId: "agent1" },
    ]);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  test("a re-submitted answer with nothing new to vote on is a vote at once", async () => {
    const { events, backends } = await runScripted({
      a: [{ answer: "4" }, { answer: "4" }, { text: "final" }],
      b: [
        { delay_ms: 5, answer: "Four" },
        { vote: "agent1", reason: "r" },
      ],
    });
    assertAllDone(backends);
    expect(events.filter((event) => event.type === "vote")).toMatchObject([
      {
        agentId: "a",
        targetAnonId: "agent1",
        reason: "re-submitted this answer word for word (heard as a vote)",
      },
      { agentId: "b", targetAnonId: "agent1" },
    ]);
    expect(events.filter((event) => event.type === "answer")).toHaveLength(2);
  });

  test("three invalid attempts end the round; the agent is removed after a second failure", async () => {
    const { events, backends } = await runScripted({
      a: [{ answer: "4" }, { vote: "agent1", reason: "r" }, { text: "final" }],
      b: [{}, {}, {}, {}, {}, {}],
    });
    assertAllDone(backends);
    expect(events.filter((event) => event.type === "workflow-invalid")).toHaveLength(6);
    expect(
      events
        .filter((event) => event.type === "agent-error")
        .map((event) => event.type === "agent-error" && [event.fatal, event.cause, event.message]),
    ).toEqual([
      [false, "protocol", "sent an empty reply 3 times"],
      [true, "protocol", "sent an empty reply 3 times"],
    ]);
    expect(events.at(-1)).toMatchObject({
      type: "run-end",
      reason: "completed",
      degraded: ["b removed: sent an empty reply 3 times"],
    });
  });

  test("an agent that always errors is removed and the run still ends", async () => {
    const { events, backends } = await runScripted({
      a: [{ answer: "4" }, { vote: "agent1", reason: "r" }, { text: "final" }],
      b: [{ answer: "Four" }, { vote: "agent1", reason: "r" }],
      c: [
        { error: { status: 500, message: "upstream exploded" } },
        { error: { status: 500, message: "upstream exploded again" } },
      ],
    });
    assertAllDone(backends);
    const errors = events.filter((event) => event.type === "agent-error");
    expect(errors).toMatchObject([
      { agentId: "c", status: 500, message: "upstream exploded", fatal: false, retryable: true },
      { agentId: "c", status: 500, message: "upstream exploded again", fatal: true },
    ]);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start voting agent1,agent2,agent3",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "c round-start r1.1 coordinate []",
        "c usage r1",
        "c round-end r1 error",
        "c agent-error retry 500",
        "c round-start r2.1 coordinate []",
        "c usage r2",
        "a usage r1",
        "b usage r1",
        "c round-end r2 error",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "c agent-error fatal 500",
        "a update-injected restart [agent2.1]",
        "a round-start r2.1 coordinate [agent1.1,agent2.1]",
        "b update-injected restart [agent1.1]",
        "b round-start r2.1 coordinate [agent1.1,agent2.1]",
        "a usage r2",
        "b usage r2",
        "a tool-call vote",
        "a vote agent1 (agent1.1)",
        "a tool-result vote",
        "a round-end r2 vote",
        "b tool-call vote",
        "b vote agent1 (agent1.1)",
        "b tool-result vote",
        "b round-end r2 vote",
        "a winner agent1 agent1.1 votes=2 votes",
        "a round-start r3.1 final [agent1.1,agent2.1]",
        "a final final",
        "a usage r3",
        "a round-end r3 final",
        "a final-answer agent1.final presentation: final",
        "- run-end completed",
      ]
    `);
  });

  test("every agent failing ends the run as failed", async () => {
    const { events, backends } = await runScripted({
      a: [
        { error: { status: 401, message: "bad key" } },
        { error: { status: 401, message: "bad key" } },
      ],
      b: [
        { error: { message: "socket hang up", retryable: true } },
        { error: { message: "socket hang up", retryable: true } },
      ],
    });
    assertAllDone(backends);
    expect(events.some((event) => event.type === "winner" || event.type === "final-answer")).toBe(
      false,
    );
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start voting agent1,agent2",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "a usage r1",
        "b usage r1",
        "a round-end r1 error",
        "b round-end r1 error",
        "a agent-error retry 401",
        "a round-start r2.1 coordinate []",
        "b agent-error retry",
        "b round-start r2.1 coordinate []",
        "a usage r2",
        "b usage r2",
        "a round-end r2 error",
        "b round-end r2 error",
        "a agent-error fatal 401",
        "b agent-error fatal",
        "- run-end failed: every agent failed before giving an answer (a: bad key; b: socket hang up); see the agent-error events for the providers' messages",
      ]
    `);
  });

  test("without a tie round, ties go to the earliest answer", async () => {
    const { events, backends } = await runScripted(
      {
        a: [{ answer: "4" }, { vote: "agent2", reason: "r" }],
        b: [{ answer: "Four" }, { vote: "agent1", reason: "r" }],
      },
      { settings: { skip_final_presentation: true, tie_break: "none" } },
    );
    assertAllDone(backends);
    expect(trace(events).slice(-3)).toMatchInlineSnapshot(`
      [
        "a winner agent1 agent1.1 votes=1 votes tie-broken",
        "a final-answer agent1.final answer: 4",
        "- run-end completed",
      ]
    `);
  });

  test("deferral off restores the eager protocol (more model calls)", async () => {
    const { events, backends } = await runScripted(
      {
        a: [
          { answer: "4" },
          { vote: "agent1", reason: "r" },
          { vote: "agent1", reason: "r" },
          { text: "f" },
        ],
        b: [
          { delay_ms: 5, answer: "Four" },
          { vote: "agent1", reason: "r" },
        ],
      },
      { settings: { defer_voting_until_all_answered: false } },
    );
    assertAllDone(backends);
    expect(events.filter((event) => event.type === "usage")).toHaveLength(6);
    expect(events.filter((event) => event.type === "votes-reset")).toHaveLength(1);
  });
});
