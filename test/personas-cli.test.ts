/**
 * Personas end to end: the built CLI against the fake OpenAI server on 127.0.0.1 (the real SDK
 * over a real socket). `--personas perspective` must put three different personas into the three
 * agents' system messages as captured from the requests, softened once answers are visible; with
 * `persist_across_turns` turn 2 of the session reuses them without a persona call.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  summarizeRequest,
  type FakeOpenAIServer,
  type RequestSummary,
} from "./support/fake-openai-server.js";

/** The three agents, each on its own model so the requests say whose they are. */
const MODELS = { a: "gpt-4.1-mini", b: "gpt-4o-mini", c: "gpt-4.1-nano" } as const;

const PERSONAS = {
  agent1: "You are a careful engineer who checks every claim.",
  agent2: "You are a teacher who explains with one vivid example.",
  agent3: "You are a skeptic who looks for what could go wrong.",
};

function config(url: string, persist: boolean): string {
  const agent = (id: keyof typeof MODELS) =>
    `  - id: ${id}\n    backend: { type: openai, model: ${MODELS[id]}, base_url: "${url}", api_key: sk-test }`;
  return [
    "agents:",
    agent("a"),
    agent("b"),
    agent("c"),
    ...(persist
      ? [
          "orchestrator:",
          "  coordination:",
          "    persona_generator:",
          "      persist_across_turns: true",
        ]
      : []),
    "",
  ].join("\n");
}

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAIServer(
    coordinationHandler({
      plan: (_tool, anonId) => PERSONAS[anonId as keyof typeof PERSONAS],
      answer: (summary) => `${summary.model} says: 2+2=4.`,
      finalAnswer: "Final: 4.",
    }),
  );
  return server;
}

/** The model-call requests (in order) summarized, with the agent each belongs to. */
function calls(from: FakeOpenAIServer, skip = 0): Array<RequestSummary & { agent: string }> {
  return from.requests
    .slice(skip)
    .filter((request) => request.method === "POST")
    .map((request) => {
      const summary = summarizeRequest(request);
      const agent = Object.entries(MODELS).find(([, model]) => model === summary.model)?.[0];
      return { ...summary, agent: agent ?? "?" };
    });
}

describe("--personas through the CLI and the fake OpenAI server", () => {
  test("three different personas in the three agents' system messages, softened once answers are visible", async () => {
    const fake = await start();
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), config(fake.url, false));
    const result = await runCli(
      ["--config", "team.yaml", "--personas", "perspective", "--no-display", "What is 2+2?"],
      box,
    );
    expect(result.stderr).not.toContain("warning");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Final: 4.\n");
    // The progress lines and the log summary show each persona.
    const logs = await runCli(["logs"], box);
    for (const [index, id] of ["a", "b", "c"].entries()) {
      const persona = Object.values(PERSONAS)[index]!;
      expect(result.stderr).toContain(`[${id}] Persona: ${persona}`);
      expect(logs.stdout).toContain(`  ${id}  ${persona}`);
    }
    expect(logs.stdout).toContain("Personas:");

    const all = calls(fake);
    const personaCalls = all.filter((call) => call.toolNames.includes("assign_personas"));
    expect(personaCalls).toHaveLength(1);
    expect(personaCalls[0]!.agent).toBe("a");
    expect(personaCalls[0]!.system).toContain("differ in perspective");

    const coordination = all.filter((call) => call.toolNames.includes("new_answer"));
    for (const [index, id] of ["a", "b", "c"].entries()) {
      const persona = Object.values(PERSONAS)[index]!;
      const rounds = coordination.filter((call) => call.agent === id);
      expect(rounds.length, id).toBe(2); // an answer, then a vote
      // Round 1: no answer visible yet: the persona opens the system message as is.
      expect(rounds[0]!.system.startsWith(persona), id).toBe(true);
      for (const other of Object.values(PERSONAS).filter((text) => text !== persona))
        expect(rounds[0]!.system, id).not.toContain(other);
      // Round 2: the others' answers are visible: softened.
      expect(rounds[1]!.system, id).toContain(`Your starting perspective was:\n${persona}`);
      expect(rounds[1]!.system, id).toContain("judge every answer on its merits");
    }
  });

  test("persist_across_turns: turn 2 of the session reuses turn 1's personas without a call", async () => {
    const fake = await start();
    const box = await makeSandbox();
    await writeFile(join(box.cwd, "team.yaml"), config(fake.url, true));
    const first = await runCli(
      ["--config", "team.yaml", "--personas", "perspective", "--no-display", "What is 2+2?"],
      box,
    );
    expect(first.code).toBe(0);
    const sessionId = /Session: (session_\S+)/.exec(first.stderr)?.[1];
    expect(sessionId).toBeDefined();
    const turn = JSON.parse(
      await readFile(join(box.home, ".coord", "sessions", sessionId!, "turn_1.json"), "utf8"),
    ) as { personas?: Record<string, string> };
    expect(turn.personas).toEqual({ a: PERSONAS.agent1, b: PERSONAS.agent2, c: PERSONAS.agent3 });

    const before = fake.requests.length;
    const second = await runCli(
      [
        "--config",
        "team.yaml",
        "--personas",
        "perspective",
        "--session-id",
        sessionId!,
        "--no-display",
        "And 3+3?",
      ],
      box,
    );
    expect(second.code).toBe(0);
    expect(second.stderr).toContain(`[b] Persona (from the session): ${PERSONAS.agent2}`);
    const turnTwo = calls(fake, before);
    expect(turnTwo.some((call) => call.toolNames.includes("assign_personas"))).toBe(false);
    for (const [index, id] of ["a", "b", "c"].entries()) {
      const firstRound = turnTwo.find(
        (call) => call.agent === id && call.toolNames.includes("new_answer"),
      )!;
      expect(firstRound.system.startsWith(Object.values(PERSONAS)[index]!), id).toBe(true);
      expect(firstRound.text, id).toContain("What is 2+2?"); // the history, too
    }
  });

  test("persona_generator.backend: the persona call runs on that model, attributed to no agent", async () => {
    const fake = await start();
    const box = await makeSandbox();
    const generator = `{ type: openai, model: gpt-4o, base_url: "${fake.url}", api_key: sk-test }`;
    await writeFile(
      join(box.cwd, "team.yaml"),
      config(fake.url, false) +
        `orchestrator:\n  coordination:\n    persona_generator:\n      enabled: true\n      backend: ${generator}\n`,
    );
    const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], box);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("[orchestrator] Planning: personas for the team");
    const personaCalls = fake.requests
      .filter((request) => request.method === "POST")
      .map(summarizeRequest)
      .filter((call) => call.toolNames.includes("assign_personas"));
    expect(personaCalls.map((call) => call.model)).toEqual(["gpt-4o"]);
    expect(result.stderr).toContain(`[c] Persona: ${PERSONAS.agent3}`);
  });

  test("--personas with an unknown mode exits 1 naming the choices", async () => {
    const box = await makeSandbox();
    const result = await runCli(
      ["--config", "@examples/scripted_team", "--personas", "wild", "q"],
      box,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("perspective");
    expect(result.stderr).toContain("methodology");
  });
});
