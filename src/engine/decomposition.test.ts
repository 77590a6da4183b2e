/**
 * Decomposition mode, docs/coordination.md "Other modes": whole event sequences (as one-line
 * traces) on the virtual clock — subtasks assigned, stop and wake-up, the answers-without-news cap,
 * a blocked agent, the decomposer call and its fallback — plus what really reached each model.
 */
import { describe, expect, test } from "vitest";
import type { ScriptedStep } from "../backends/index.js";
import type { CoordEvent } from "../events/index.js";
import { runScripted, trace } from "./test-helpers.js";

const assertAllDone = (backends: Record<string, { assertDone(): void }>) => {
  for (const backend of Object.values(backends)) backend.assertDone();
};

/** A decomposition run of scripted agents with fixed subtasks (`subtasks[id]`). */
function runDecomposition(
  scripts: Record<string, ScriptedStep[]>,
  subtasks: Record<string, string> = {},
  settings: NonNullable<Parameters<typeof runScripted>[1]>["settings"] = {},
) {
  return runScripted(scripts, {
    mode: "decomposition",
    question: "Plan a picnic.",
    settings,
    agentFields: Object.fromEntries(
      Object.entries(subtasks).map(([id, subtask]) => [id, { subtask }]),
    ),
  });
}

const ofType = <T extends CoordEvent["type"]>(events: CoordEvent[], type: T) =>
  events.filter((event): event is Extract<CoordEvent, { type: T }> => event.type === type);

describe("decomposition mode", () => {
  test("subtasks from the config; each agent answers, reads the others, stops; the presenter integrates", async () => {
    const { events, backends } = await runDecomposition(
      {
        a: [
          { answer: "Food: sandwiches and fruit." },
          { stop: { status: "complete", summary: "food planned" } },
          { text: "Bring sandwiches and fruit to the park at noon." },
        ],
        b: [
          { answer: "Place: the park, at noon." },
          { stop: { status: "complete", summary: "place and time set" } },
        ],
      },
      { a: "Choose the food.", b: "Choose the place and time." },
    );
    assertAllDone(backends);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start decomposition agent1,agent2",
        "a subtask agent1 config: Choose the food.",
        "b subtask agent2 config: Choose the place and time.",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "a usage r1",
        "b usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "a update-injected restart [agent2.1]",
        "a round-start r2.1 coordinate [agent1.1,agent2.1]",
        "b update-injected restart [agent1.1]",
        "b round-start r2.1 coordinate [agent1.1,agent2.1]",
        "a usage r2",
        "b usage r2",
        "a tool-call stop",
        "a stop complete: food planned",
        "a tool-result stop",
        "a round-end r2 stop",
        "b tool-call stop",
        "b stop complete: place and time set",
        "b tool-result stop",
        "b round-end r2 stop",
        "a winner agent1 agent1.1 votes=0 decomposition",
        "a round-start r3.1 final [agent1.1,agent2.1]",
        "a final Bring sandwiches and fruit to the park at noon.",
        "a usage r3",
        "a round-end r3 final",
        "a final-answer agent1.final presentation: Bring sandwiches and fruit to the park at noon.",
        "- run-end completed",
      ]
    `);

    // Each round states the agent's own subtask and the others'; the tools are new_answer and stop.
    const first = backends.b!.requests[0]!;
    expect(first.system).toContain("You are agent2");
    expect(first.system).toContain("Your subtask: Choose the place and time.");
    expect(first.system).toContain("- agent1: Choose the food.");
    expect(first.tools.map((tool) => tool.name)).toEqual(["new_answer", "stop"]);
    // The second round shows the other's part in a tagged block.
    expect(backends.b!.requests[1]!.messages[0]!.content).toContain(
      "<agent1>\nFood: sandwiches and fruit.\n</agent1>",
    );
    // The presenter gets every part with its subtask and stop, no tools.
    const integration = backends.a!.requests[2]!;
    expect(integration.tools).toEqual([]);
    expect(integration.system).toContain("Integrate every part");
    const parts = integration.messages[0]!.content;
    expect(parts).toContain(
      '<part agent="a" label="agent1.1" status="complete" yours>\nSubtask: Choose the food.\nFood: sandwiches and fruit.\nSummary: food planned\n</part>',
    );
    expect(parts).toContain(
      '<part agent="b" label="agent2.1" status="complete">\nSubtask: Choose the place and time.\nPlace: the park, at noon.\nSummary: place and time set\n</part>',
    );
  });

  test("a stopped agent is woken by a new answer and stops again", async () => {
    const { events, backends } = await runDecomposition(
      {
        a: [
          { answer: "Food: sandwiches." },
          { stop: { status: "complete", summary: "food done" } },
          // Woken by b's second answer: it must see it.
          {
            expect_prompt_contains: "Place: the park by the lake, at noon.",
            stop: { status: "complete", summary: "still fits" },
          },
          { text: "Sandwiches at the park by the lake, at noon." },
        ],
        b: [
          { answer: "Place: the park." },
          { delay_ms: 50, answer: "Place: the park by the lake, at noon." },
          { stop: { status: "complete", summary: "place set" } },
        ],
      },
      { a: "Food.", b: "Place and time." },
    );
    assertAllDone(backends);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start decomposition agent1,agent2",
        "a subtask agent1 config: Food.",
        "b subtask agent2 config: Place and time.",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "a usage r1",
        "b usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "a update-injected restart [agent2.1]",
        "a round-start r2.1 coordinate [agent1.1,agent2.1]",
        "b update-injected restart [agent1.1]",
        "b round-start r2.1 coordinate [agent1.1,agent2.1]",
        "a usage r2",
        "a tool-call stop",
        "a stop complete: food done",
        "a tool-result stop",
        "a round-end r2 stop",
        "b usage r2",
        "b tool-call new_answer",
        "b answer agent2.2",
        "b tool-result new_answer",
        "b round-end r2 answer",
        "a update-injected restart [agent2.2]",
        "a round-start r3.1 coordinate [agent1.1,agent2.2]",
        "b round-start r3.1 coordinate [agent1.1,agent2.2]",
        "a usage r3",
        "b usage r3",
        "a tool-call stop",
        "a stop complete: still fits",
        "a tool-result stop",
        "a round-end r3 stop",
        "b tool-call stop",
        "b stop complete: place set",
        "b tool-result stop",
        "b round-end r3 stop",
        "a winner agent1 agent1.1 votes=0 decomposition",
        "a round-start r4.1 final [agent1.1,agent2.2]",
        "a final Sandwiches at the park by the lake, at noon.",
        "a usage r4",
        "a round-end r4 final",
        "a final-answer agent1.final presentation: Sandwiches at the park by the lake, at noon.",
        "- run-end completed",
      ]
    `);
  });

  test("an agent that keeps answering without news is stopped by the cap", async () => {
    const { events, backends } = await runDecomposition(
      {
        a: [
          { answer: "a1" },
          { delay_ms: 10, answer: "a2" }, // news: b's first answer
          { delay_ms: 10, answer: "a3" }, // no news: 2 in a row, the cap
          { text: "final" },
        ],
        b: [
          { answer: "b1" },
          { stop: { status: "complete", summary: "b done" } },
          { stop: { status: "complete", summary: "b still done" } }, // woken by a2
          { stop: { status: "complete", summary: "b done again" } }, // woken by a3
        ],
      },
      { a: "Part A.", b: "Part B." },
      { max_new_answers_per_agent: 2 },
    );
    assertAllDone(backends);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start decomposition agent1,agent2",
        "a subtask agent1 config: Part A.",
        "b subtask agent2 config: Part B.",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "a usage r1",
        "b usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "b tool-call new_answer",
        "b answer agent2.1",
        "b tool-result new_answer",
        "b round-end r1 answer",
        "a update-injected restart [agent2.1]",
        "a round-start r2.1 coordinate [agent1.1,agent2.1]",
        "b update-injected restart [agent1.1]",
        "b round-start r2.1 coordinate [agent1.1,agent2.1]",
        "b usage r2",
        "b tool-call stop",
        "b stop complete: b done",
        "b tool-result stop",
        "b round-end r2 stop",
        "a usage r2",
        "a tool-call new_answer",
        "a answer agent1.2",
        "a tool-result new_answer",
        "a round-end r2 answer",
        "a round-start r3.1 coordinate [agent1.2,agent2.1]",
        "b update-injected restart [agent1.2]",
        "b round-start r3.1 coordinate [agent1.2,agent2.1]",
        "b usage r3",
        "b tool-call stop",
        "b stop complete: b still done",
        "b tool-result stop",
        "b round-end r3 stop",
        "a usage r3",
        "a tool-call new_answer",
        "a answer agent1.3",
        "a stop complete (answer cap): gave 2 answers in a row without news from the other agents (max_new_answers_per_agent: 2)",
        "a tool-result new_answer",
        "a round-end r3 answer",
        "b update-injected restart [agent1.3]",
        "b round-start r4.1 coordinate [agent1.3,agent2.1]",
        "b usage r4",
        "b tool-call stop",
        "b stop complete: b done again",
        "b tool-result stop",
        "b round-end r4 stop",
        "a winner agent1 agent1.3 votes=0 decomposition",
        "a round-start r4.1 final [agent1.3,agent2.1]",
        "a final final",
        "a usage r4",
        "a round-end r4 final",
        "a final-answer agent1.final presentation: final",
        "- run-end completed",
      ]
    `);
  });

  test("a blocked agent: its reason reaches the presenter, the others' parts are integrated", async () => {
    const { events, backends } = await runDecomposition(
      {
        a: [
          { delay_ms: 10, answer: "Food: sandwiches." },
          { stop: { status: "complete", summary: "food done" } },
          { text: "Sandwiches; the place is still open." },
        ],
        b: [
          // complete without an answer is refused; blocked with a reason is accepted
          { stop: { status: "complete", summary: "nothing to do" } },
          { stop: { status: "blocked", summary: "no map of the town" } },
          { stop: { status: "blocked", summary: "still no map" } }, // woken by a's answer
        ],
      },
      { a: "Food.", b: "Place." },
    );
    assertAllDone(backends);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start decomposition agent1,agent2",
        "a subtask agent1 config: Food.",
        "b subtask agent2 config: Place.",
        "a round-start r1.1 coordinate []",
        "b round-start r1.1 coordinate []",
        "b usage r1",
        "b tool-call stop",
        "b tool-result stop error",
        "b workflow-invalid r1.1 You have no answer yet",
        "b round-start r1.2 coordinate []",
        "b usage r1",
        "b tool-call stop",
        "b stop blocked: no map of the town",
        "b tool-result stop",
        "b round-end r1 stop",
        "a usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "a round-start r2.1 coordinate [agent1.1]",
        "b update-injected restart [agent1.1]",
        "b round-start r2.1 coordinate [agent1.1]",
        "a usage r2",
        "b usage r2",
        "a tool-call stop",
        "a stop complete: food done",
        "a tool-result stop",
        "a round-end r2 stop",
        "b tool-call stop",
        "b stop blocked: still no map",
        "b tool-result stop",
        "b round-end r2 stop",
        "a winner agent1 agent1.1 votes=0 decomposition",
        "a round-start r3.1 final [agent1.1]",
        "a final Sandwiches; the place is still open.",
        "a usage r3",
        "a round-end r3 final",
        "a final-answer agent1.final presentation: Sandwiches; the place is still open.",
        "- run-end completed",
      ]
    `);
    const parts = backends.a!.requests[2]!.messages[0]!.content;
    expect(parts).toContain(
      '<part agent="b" status="blocked">\nSubtask: Place.\n(no answer)\nBlocked: still no map\n</part>',
    );
  });

  test("skip_final_presentation: the parts joined in config order are the final answer", async () => {
    const { events, backends } = await runDecomposition(
      {
        a: [{ answer: "Part one." }, { stop: { status: "complete", summary: "ok" } }],
        b: [{ answer: "Part two." }, { stop: { status: "complete", summary: "ok" } }],
      },
      { a: "One.", b: "Two." },
      { skip_final_presentation: true },
    );
    assertAllDone(backends);
    expect(ofType(events, "final-answer")[0]).toMatchObject({
      agentId: "a",
      source: "answer",
      content: "Part one.\n\nPart two.",
    });
  });

  test("every agent blocked without an answer: the run fails and says why", async () => {
    const { events, backends } = await runDecomposition(
      {
        a: [{ stop: { status: "blocked", summary: "no data" } }],
        b: [{ stop: { status: "blocked", summary: "no data either" } }],
      },
      { a: "One.", b: "Two." },
    );
    assertAllDone(backends);
    expect(ofType(events, "run-end")[0]).toMatchObject({
      reason: "failed",
      error: "coordination ended without any answer; see the stop events",
    });
  });
});

describe("the decomposer", () => {
  test("one call by the first agent assigns the subtasks the config leaves open", async () => {
    const { events, backends } = await runDecomposition(
      {
        a: [
          {
            tool_calls: [
              {
                name: "assign_subtasks",
                input: { agent1: "Choose the food.", agent3: "Invite the guests." },
              },
            ],
          },
          { answer: "Sandwiches." },
          { stop: { status: "complete", summary: "ok" } },
          { text: "Sandwiches in the park; everyone invited." },
        ],
        b: [{ answer: "The park." }, { stop: { status: "complete", summary: "ok" } }],
        c: [{ answer: "Everyone." }, { stop: { status: "complete", summary: "ok" } }],
      },
      { b: "Choose the place." },
    );
    assertAllDone(backends);
    expect(trace(events).slice(0, 9)).toMatchInlineSnapshot(`
      [
        "- run-start decomposition agent1,agent2,agent3",
        "a round-start r1.1 plan:subtasks []",
        "a usage r1",
        "a round-end r1 plan",
        "a subtask agent1 decomposer: Choose the food.",
        "b subtask agent2 config: Choose the place.",
        "c subtask agent3 decomposer: Invite the guests.",
        "a round-start r2.1 coordinate []",
        "b round-start r1.1 coordinate []",
      ]
    `);
    const call = backends.a!.requests[0]!;
    expect(call.tools.map((tool) => tool.name)).toEqual(["assign_subtasks"]);
    expect(call.tools[0]!.inputSchema).toMatchObject({ required: ["agent1", "agent3"] });
    expect(call.toolChoice).toBe("required");
    expect(call.messages[0]!.content).toContain("<TASK>\nPlan a picnic.\n</TASK>");
    expect(call.messages[0]!.content).toContain("- agent2: Choose the place.");
    expect(backends.c!.requests[0]!.system).toContain("Your subtask: Invite the guests.");
  });

  test("a decomposer reply without the structured output falls back, with a warning", async () => {
    const { events, backends } = await runDecomposition({
      a: [
        { text: "I would rather not split this." },
        { answer: "A whole plan." },
        { stop: { status: "complete", summary: "ok" } },
        { text: "The plan." },
      ],
      b: [{ answer: "Another plan." }, { stop: { status: "complete", summary: "ok" } }],
    });
    assertAllDone(backends);
    expect(trace(events).slice(0, 8)).toMatchInlineSnapshot(`
      [
        "- run-start decomposition agent1,agent2",
        "a round-start r1.1 plan:subtasks []",
        "a text I would rather not split this.",
        "a usage r1",
        "a round-end r1 invalid",
        "a warning decomposer: the decomposer call failed (the model gave no structured output); a, b work on the whole task instead",
        "a subtask agent1 fallback: The whole task (it could not be split): read the other agents' answers and concentrate on what they leave out.",
        "b subtask agent2 fallback: The whole task (it could not be split): read the other agents' answers and concentrate on what they leave out.",
      ]
    `);
    expect(backends.b!.requests[0]!.system).toContain(
      "Your subtask: The whole task (it could not be split)",
    );
  });

  test("a decomposer that gives two agents the same subtask falls back, with a warning", async () => {
    const { events, backends } = await runDecomposition({
      a: [
        {
          tool_calls: [{ name: "assign_subtasks", input: { agent1: "Do it.", agent2: "do it." } }],
        },
        { answer: "A whole plan." },
        { stop: { status: "complete", summary: "ok" } },
        { text: "The plan." },
      ],
      b: [{ answer: "Another plan." }, { stop: { status: "complete", summary: "ok" } }],
    });
    assertAllDone(backends);
    expect(ofType(events, "warning").map((event) => event.message)).toEqual([
      "the decomposer call failed (agent1 and agent2 got the same text); a, b work on the whole task instead",
    ]);
    expect(ofType(events, "subtask").map((event) => event.source)).toEqual([
      "fallback",
      "fallback",
    ]);
  });

  test("a decomposer call that fails at the provider falls back, with a warning", async () => {
    const { events, backends } = await runDecomposition({
      a: [
        { error: { status: 400, message: "bad request" } },
        { answer: "A whole plan." },
        { stop: { status: "complete", summary: "ok" } },
        { text: "The plan." },
      ],
      b: [{ answer: "Another plan." }, { stop: { status: "complete", summary: "ok" } }],
    });
    assertAllDone(backends);
    expect(ofType(events, "warning")).toMatchObject([
      {
        agentId: "a",
        source: "decomposer",
        message: "the decomposer call failed (bad request); a, b work on the whole task instead",
      },
    ]);
    expect(ofType(events, "subtask").map((event) => event.source)).toEqual([
      "fallback",
      "fallback",
    ]);
    expect(ofType(events, "run-end")[0]!.reason).toBe("completed");
  });
});
