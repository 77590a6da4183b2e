/**
 * Planning mode (docs/planning.md): whole event sequences on the virtual clock — a plan
 * refused for a cycle and corrected, the task-count and chunk targets, the winner's plan as the
 * final answer, a team of one, and `ask_others` to the user and to the team.
 */
import { describe, expect, test } from "vitest";
import type { ScriptedStep } from "../backends/index.js";
import type { CoordEvent } from "../events/index.js";
import type { HumanChannel, HumanQuestion, PlanningSettings } from "./modes/plan-settings.js";
import { runScripted, trace } from "./test-helpers.js";

const task = (id: string, dependsOn: string[] = [], chunk = 1) => ({
  id,
  description: `Do ${id}.`,
  depends_on: dependsOn,
  priority: "high",
  verification: `Check ${id}.`,
  chunk,
});

const plan = (tasks: ReturnType<typeof task>[]): ScriptedStep => ({
  plan: { tasks, requirements: "It works.", design_decisions: "Keep it small." },
});

function runPlanning(
  scripts: Record<string, ScriptedStep[]>,
  planning: Partial<PlanningSettings> = {},
  human?: HumanChannel,
) {
  return runScripted(scripts, {
    mode: "planning",
    question: "Build a tiny site.",
    settings: { planning: { depth: "dynamic", broadcast: false, ...planning } },
    ...(human ? { human } : {}),
  });
}

const ofType = <T extends CoordEvent["type"]>(events: CoordEvent[], type: T) =>
  events.filter((event): event is Extract<CoordEvent, { type: T }> => event.type === type);

describe("planning mode", () => {
  test("a plan with a cycle is refused with the cycle named, corrected, voted on; the winner's plan is final", async () => {
    const { events, backends } = await runPlanning({
      a: [
        plan([task("T1", ["T2"]), task("T2", ["T1"])]),
        plan([task("T1"), task("T2", ["T1"])]),
        { vote: "agent2", reason: "clearer" },
      ],
      b: [plan([task("T1"), task("T2", ["T1"]), task("T3", ["T2"])]), { vote: "agent2" }],
    });
    for (const backend of Object.values(backends)) backend.assertDone();
    const invalid = ofType(events, "workflow-invalid");
    expect(invalid.map((event) => event.message)).toEqual([
      "The plan was not accepted: the dependencies form a cycle: T1 → T2 → T1. Fix it and call submit_plan again with the whole plan.",
    ]);
    // The refusal reached the model as the submit_plan call's tool error.
    const retry = backends.a!.requests[1]!.messages.at(-1)!;
    expect(retry).toMatchObject({ role: "tool", toolName: "submit_plan", isError: true });
    expect(retry.content).toContain("cycle: T1 → T2 → T1");
    expect(trace(events).filter((line) => / (plan|winner|final-answer|run-start) /.test(line)))
      .toMatchInlineSnapshot(`
        [
          "- run-start planning agent1,agent2",
          "a workflow-invalid r1.1 The plan was not accepted",
          "b plan agent2.1 [T1@1,T2@1,T3@1]",
          "a plan agent1.1 [T1@1,T2@1]",
          "b winner agent2 agent2.1 votes=2 votes",
          "b final-answer agent2.final answer: ## Tasks (3)

        - [ ] T1 (chunk 1, high): Do T1. — verify: Check T1.
        - [ ] T2 (chunk 1, high; after T1): Do T2. — verify: Check T2.
        - [ ] T3 (chunk 1, high; after T2): Do T3. — verify: Check T3.

        ## Requirements

        It works.

        ## Design decisions

        Keep it small.",
        ]
      `);
    // Planning agents are told the plan's format and that nothing is executed now.
    expect(backends.b!.requests[0]!.system).toContain("a plan, not the work itself");
    expect(backends.b!.requests[0]!.tools.map((tool) => tool.name)).toEqual(["submit_plan"]);
    expect(backends.b!.requests[1]!.tools.map((tool) => tool.name)).toEqual([
      "submit_plan",
      "vote",
    ]);
  });

  test("--plan-steps and --plan-chunks: a plan off target is refused, saying what is asked", async () => {
    const five = ["T1", "T2", "T3", "T4", "T5"];
    const { events, backends } = await runPlanning(
      {
        a: [
          plan(five.map((id) => task(id)).concat(["T6", "T7", "T8"].map((id) => task(id)))),
          plan(five.map((id, index) => task(id, [], index < 3 ? 1 : 2))),
        ],
      },
      { steps: 5, chunks: 2 },
    );
    backends.a!.assertDone();
    expect(ofType(events, "workflow-invalid").map((event) => event.message)).toEqual([
      "The plan was not accepted: the plan has 8 tasks; --plan-steps asks for 5 (4 to 6); chunk 2 has no task (--plan-chunks 2: give every chunk at least one). Fix it and call submit_plan again with the whole plan.",
    ]);
    expect(backends.a!.requests[0]!.system).toContain("Make 5 tasks (4 to 6 are accepted).");
    expect(backends.a!.requests[0]!.system).toContain("exactly 2 chunks");
    // A team of one: done once it has a plan, no vote for itself.
    expect(ofType(events, "winner")).toMatchObject([{ basis: "single", label: "agent1.1" }]);
    expect(ofType(events, "plan")[0]!.tasks.map((entry) => entry.chunk)).toEqual([1, 1, 1, 2, 2]);
  });

  test("--broadcast human: the question reaches the user; the answer is the tool result and in every agent's next prompt", async () => {
    const asked: HumanQuestion[] = [];
    const human: HumanChannel = {
      ask: async (question) => {
        asked.push(question);
        return "Use plain HTML, no framework.";
      },
    };
    const { events, backends } = await runPlanning(
      {
        a: [
          { tool_calls: [{ name: "ask_others", input: { question: "Which framework?" } }] },
          plan([task("T1")]),
          { vote: "agent1" },
        ],
        b: [
          {
            delay_ms: 1000,
            tool_calls: [{ name: "ask_others", input: { question: "" } }],
          },
          plan([task("T1"), task("T2")]),
          { vote: "agent1" },
        ],
      },
      { broadcast: "human" },
      human,
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(asked).toEqual([
      { questionId: "q1", agentId: "a", anonId: "agent1", question: "Which framework?" },
    ]);
    expect(trace(events).filter((line) => line.includes("broadcast"))).toEqual([
      "a broadcast-question q1 to human: Which framework?",
      "- broadcast-reply q1 from human: Use plain HTML, no framework.",
    ]);
    expect(backends.a!.requests[1]!.messages.at(-1)).toMatchObject({
      role: "tool",
      toolName: "ask_others",
      content: "The user answered: Use plain HTML, no framework.",
    });
    // b asked an empty question (a tool error), and its next prompt carries the user's answer.
    expect(backends.b!.requests[1]!.system).toContain(
      "Q (agent1): Which framework?\nA: Use plain HTML, no framework.",
    );
    expect(backends.b!.requests[0]!.tools.map((tool) => tool.name)).toContain("ask_others");
  });

  test("--broadcast agents: the others reply in side calls; the replies are the tool result", async () => {
    const { events, backends } = await runPlanning(
      {
        a: [
          {
            delay_ms: 10,
            tool_calls: [{ name: "ask_others", input: { question: "One chunk or two?" } }],
          },
          plan([task("T1")]),
          { vote: "agent1" },
        ],
        b: [plan([task("T1"), task("T2")]), { text: "Two: build, then test." }, { vote: "agent1" }],
      },
      { broadcast: "agents" },
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(trace(events).filter((line) => line.includes("broadcast"))).toEqual([
      "a broadcast-question q1 to agents: One chunk or two?",
      "b broadcast-reply q1 from b: Two: build, then test.",
    ]);
    // The side call: no tools, the question and b's own plan; its text is not streamed.
    const side = backends.b!.requests[1]!;
    expect(side.tools).toEqual([]);
    expect(side.messages[0]!.content).toContain("<QUESTION>\nOne chunk or two?\n</QUESTION>");
    expect(side.messages[0]!.content).toContain("<YOUR PLAN>");
    expect(ofType(events, "text-delta").filter((event) => event.agentId === "b")).toEqual([]);
    const result = backends.a!.requests[1]!.messages.find((message) => message.role === "tool");
    expect(result?.content).toBe("Replies:\nagent2: Two: build, then test.");
  });
});
