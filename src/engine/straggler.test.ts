/**
 * The straggler rule (docs/coordination.md "Limits and failures"): with the config's
 * default timeouts, one agent whose provider never answers no longer holds the run for the
 * orchestrator timeout: once the others are done and a winner could be chosen, it is cut after
 * `straggler_timeout_seconds` (virtual clock), with a `straggler-cut` event, and the run ends
 * with the other agents' answer.
 */
import { describe, expect, test } from "vitest";
import type { Backend, BackendChunk } from "../backends/backend.js";
import { createVirtualClock } from "../clock.js";
import { TimeoutSettings } from "../config/index.js";
import type { CoordEvent } from "../events/index.js";
import { runCoordination } from "./run.js";
import { DEFAULT_SETTINGS, scriptedTeam, trace } from "./test-helpers.js";

/** A provider that never answers: its stream waits until the call is aborted. */
function hangingBackend(): Backend & { calls: number } {
  const backend = {
    type: "fake",
    model: "hangs",
    calls: 0,
    // eslint-disable-next-line require-yield
    async *stream(
      _request: unknown,
      { signal }: { signal: AbortSignal },
    ): AsyncGenerator<BackendChunk> {
      backend.calls++;
      await new Promise((_resolve, reject) => {
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
      });
    },
  };
  return backend;
}

const defaults = TimeoutSettings.parse({});

async function run(
  scripts: Parameters<typeof scriptedTeam>[0],
  options: { stragglerTimeoutMs?: number | undefined; hangingAt?: number } = {},
) {
  const clock = createVirtualClock();
  const { agents, backends } = scriptedTeam(scripts, clock);
  const hanging = hangingBackend();
  const team = [...agents];
  team.splice(options.hangingAt ?? team.length, 0, { id: "slow", backend: hanging });
  const started = clock.now();
  const events: CoordEvent[] = [];
  for await (const event of runCoordination({
    runId: "run_test",
    question: "What is 2+2?",
    mode: "voting",
    settings: DEFAULT_SETTINGS,
    orchestratorTimeoutMs: defaults.orchestrator_timeout_seconds * 1000,
    stragglerTimeoutMs: options.stragglerTimeoutMs,
    clock,
    agents: team,
  })) {
    events.push(event);
  }
  for (const backend of Object.values(backends)) backend.assertDone();
  return { events, elapsedMs: clock.now() - started, hanging };
}

describe("the straggler rule", () => {
  test("default settings: a hanging provider is cut after straggler_timeout_seconds; the others' answer wins", async () => {
    expect(defaults.straggler_timeout_seconds).toBe(60);
    const { events, elapsedMs, hanging } = await run(
      {
        a: [{ answer: "4" }, { vote: "agent1", reason: "correct" }, { text: "The answer is 4." }],
        b: [{ answer: "Four" }, { vote: "agent1", reason: "same" }],
      },
      { stragglerTimeoutMs: defaults.straggler_timeout_seconds * 1000 },
    );
    expect(hanging.calls).toBe(1);
    const cut = events.find((event) => event.type === "straggler-cut");
    expect(cut).toMatchObject({ agentId: "slow", round: 1, waitedMs: 60_000 });
    expect(elapsedMs).toBe(60_000); // every other call is instant on the virtual clock
    const lines = trace(events);
    expect(lines.slice(lines.indexOf("slow straggler-cut"))).toEqual([
      "slow straggler-cut",
      "slow round-end r1 aborted",
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
      "a final The answer is 4.",
      "a usage r3",
      "a round-end r3 final",
      "a final-answer agent1.final presentation: The answer is 4.",
      "- run-end completed",
    ]);
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "run-end", reason: "completed", durationMs: 60_000 });
    expect(events.find((event) => event.type === "final-answer")).toMatchObject({
      content: "The answer is 4.",
    });
  });

  test("a straggler in the middle of the team, voting round: cut once the others have voted", async () => {
    const { events } = await run(
      {
        a: [{ answer: "4" }, { vote: "agent1", reason: "ok" }, { text: "4." }],
        b: [{ answer: "Four" }, { vote: "agent1", reason: "ok" }],
      },
      { stragglerTimeoutMs: 5000, hangingAt: 1 },
    );
    expect(events.filter((event) => event.type === "straggler-cut")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed", durationMs: 5000 });
  });

  test("no answer anywhere yet: nobody is cut (no winner could be chosen); the orchestrator timeout ends it", async () => {
    const { events, elapsedMs } = await run({}, { stragglerTimeoutMs: 5000 });
    expect(events.some((event) => event.type === "straggler-cut")).toBe(false);
    expect(elapsedMs).toBe(defaults.orchestrator_timeout_seconds * 1000);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "timeout" });
  });

  test("without the rule the hanging agent holds the run until the orchestrator timeout", async () => {
    const { events, elapsedMs } = await run(
      {
        a: [{ answer: "4" }, { text: "4." }],
        b: [{ answer: "Four" }],
      },
      { stragglerTimeoutMs: undefined },
    );
    expect(events.some((event) => event.type === "straggler-cut")).toBe(false);
    expect(elapsedMs).toBe(defaults.orchestrator_timeout_seconds * 1000);
  });
});
