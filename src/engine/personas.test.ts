/**
 * Persona generation, docs/coordination.md "Other modes": one structured call before coordination,
 * personas before the system message and softened once peers' answers are visible, reuse from an
 * earlier turn, and the fallback to no personas with a warning.
 */
import { describe, expect, test } from "vitest";
import { createScriptedBackend, type ScriptedStep } from "../backends/index.js";
import { createVirtualClock } from "../clock.js";
import type { CoordEvent } from "../events/index.js";
import type { LocalTool } from "../tools/index.js";
import { allAgree } from "./scenarios.js";
import { runScripted, trace } from "./test-helpers.js";

const PERSONAS = {
  agent1: "You value correctness above all.",
  agent2: "You value brevity above all.",
  agent3: "You value the reader's intuition above all.",
};

const personaStep: ScriptedStep = {
  tool_calls: [{ name: "assign_personas", input: PERSONAS }],
};

const ofType = <T extends CoordEvent["type"]>(events: CoordEvent[], type: T) =>
  events.filter((event): event is Extract<CoordEvent, { type: T }> => event.type === type);

describe("personas", () => {
  test("one call by the first agent; each persona opens its agent's prompt, softened once answers are visible", async () => {
    const { events, backends } = await runScripted(
      { ...allAgree, a: [personaStep, ...allAgree.a!] },
      { personas: { diversityMode: "perspective", guidelines: "Keep them short." } },
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(trace(events).slice(0, 9)).toMatchInlineSnapshot(`
      [
        "- run-start voting agent1,agent2,agent3",
        "a round-start r1.1 plan:personas []",
        "a usage r1",
        "a round-end r1 plan",
        "a persona generated: You value correctness above all.",
        "b persona generated: You value brevity above all.",
        "c persona generated: You value the reader's intuition above all.",
        "a round-start r2.1 coordinate []",
        "b round-start r1.1 coordinate []",
      ]
    `);

    const call = backends.a!.requests[0]!;
    expect(call.tools.map((tool) => tool.name)).toEqual(["assign_personas"]);
    expect(call.system).toContain("differ in perspective");
    expect(call.system).toContain("Guidelines from the user: Keep them short.");
    expect(call.messages[0]!.content).toContain("<TASK>\nWhat is 2+2?\n</TASK>");

    // Round 1: no other answer is visible, the persona is stated as is, first.
    const firstRound = backends.b!.requests[0]!.system;
    expect(firstRound.startsWith(PERSONAS.agent2)).toBe(true);
    expect(firstRound).not.toContain("starting perspective");
    // Round 2 (voting): the others' answers are visible, the persona is softened.
    const secondRound = backends.b!.requests[1]!.system;
    expect(secondRound).toContain(`Your starting perspective was:\n${PERSONAS.agent2}`);
    expect(secondRound).toContain("judge every answer on its merits");
    // The presenter's persona is softened too.
    expect(backends.a!.requests[3]!.system).toContain(
      `Your starting perspective was:\n${PERSONAS.agent1}`,
    );
  });

  test("softened within a round too, from the call whose update first shows a peer's answer", async () => {
    const clock = createVirtualClock();
    const lookup: LocalTool = {
      spec: { name: "lookup", description: "Look something up.", inputSchema: { type: "object" } },
      execute: async () => {
        await clock.sleep(50);
        return "lookup result";
      },
    };
    const { backends } = await runScripted(
      {
        a: [{ delay_ms: 10, answer: "4" }, { vote: "agent1", reason: "r" }, { text: "4." }],
        b: [
          { tool_calls: [{ name: "lookup", input: {} }] }, // a answers while this runs
          { answer: "Four" },
          { vote: "agent1", reason: "r" },
        ],
      },
      {
        clock,
        localTools: [lookup],
        personas: { diversityMode: "perspective", reuse: { a: "Persona A.", b: "Persona B." } },
      },
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    const [beforeUpdate, afterUpdate] = backends.b!.requests;
    expect(beforeUpdate!.system.startsWith("Persona B.")).toBe(true);
    expect(afterUpdate!.messages.at(-1)!.content).toContain("UPDATE: the answers changed");
    expect(afterUpdate!.system).toContain("Your starting perspective was:\nPersona B.");
  });

  test("personas of an earlier turn that cover the team are reused without a call", async () => {
    const { events, backends } = await runScripted(allAgree, {
      personas: {
        diversityMode: "perspective",
        reuse: { a: "Persona A.", b: "Persona B.", c: "Persona C." },
      },
    });
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(ofType(events, "persona")).toMatchObject([
      { agentId: "a", persona: "Persona A.", source: "session" },
      { agentId: "b", persona: "Persona B.", source: "session" },
      { agentId: "c", persona: "Persona C.", source: "session" },
    ]);
    expect(ofType(events, "round-start").some((event) => event.kind === "plan")).toBe(false);
    expect(backends.c!.requests[0]!.system.startsWith("Persona C.")).toBe(true);
  });

  test("reused personas that miss an agent are generated anew", async () => {
    const { events } = await runScripted(
      { ...allAgree, a: [personaStep, ...allAgree.a!] },
      { personas: { diversityMode: "perspective", reuse: { a: "Persona A." } } },
    );
    expect(ofType(events, "persona").map((event) => event.source)).toEqual([
      "generated",
      "generated",
      "generated",
    ]);
  });

  test.each<[string, ScriptedStep, string]>([
    [
      "a provider failure",
      { error: { status: 400, message: "model not found" } },
      "the persona call failed (model not found); the agents run without personas",
    ],
    [
      "a reply without the tool",
      { text: "Sure! Here are some personas." },
      "the persona call failed (the model gave no structured output); the agents run without personas",
    ],
    [
      "two equal personas",
      {
        tool_calls: [{ name: "assign_personas", input: { ...PERSONAS, agent3: PERSONAS.agent1 } }],
      },
      "the persona call failed (agent1 and agent3 got the same text); the agents run without personas",
    ],
  ])("%s: no personas, a warning, and the run goes on", async (_name, step, message) => {
    const { events, backends } = await runScripted(
      { ...allAgree, a: [step, ...allAgree.a!] },
      { personas: { diversityMode: "methodology" } },
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(ofType(events, "warning")).toMatchObject([
      { agentId: "a", source: "personas", message },
    ]);
    expect(ofType(events, "persona")).toEqual([]);
    expect(backends.b!.requests[0]!.system.startsWith("You are one of 3 agents")).toBe(true);
    expect(ofType(events, "run-end")[0]!.reason).toBe("completed");
  });

  test("a generator backend of its own: its round belongs to no agent", async () => {
    const clock = createVirtualClock();
    const generator = createScriptedBackend({ steps: [personaStep], name: "generator", clock });
    const { events, backends } = await runScripted(allAgree, {
      clock,
      personas: { diversityMode: "implementation", backend: generator },
    });
    generator.assertDone();
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(trace(events).slice(0, 7)).toMatchInlineSnapshot(`
      [
        "- run-start voting agent1,agent2,agent3",
        "- round-start r1.1 plan:personas []",
        "- usage r1",
        "- round-end r1 plan",
        "a persona generated: You value correctness above all.",
        "b persona generated: You value brevity above all.",
        "c persona generated: You value the reader's intuition above all.",
      ]
    `);
    expect(generator.requests[0]!.system).toContain("differ in implementation");
  });

  test("a JSON object in the text is accepted when the provider did not call the tool", async () => {
    const { events } = await runScripted(
      {
        ...allAgree,
        a: [{ text: `Here you go: ${JSON.stringify(PERSONAS)}` }, ...allAgree.a!],
      },
      { personas: { diversityMode: "perspective" } },
    );
    expect(ofType(events, "persona").map((event) => event.persona)).toEqual(
      Object.values(PERSONAS),
    );
  });
});
