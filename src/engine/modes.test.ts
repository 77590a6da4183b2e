/**
 * docs/coordination.md "Other modes" and "Limits and failures": quick, single agent, the
 * orchestrator timeout and interrupts.
 */
import { describe, expect, test } from "vitest";
import { createVirtualClock } from "../clock.js";
import { RunStopped } from "./stop-reason.js";
import type { Backend } from "../backends/backend.js";
import type { CoordEvent } from "../events/events.js";
import { runCoordination } from "./run.js";
import { blocks, DEFAULT_SETTINGS, runScripted, trace } from "./test-helpers.js";

describe("quick mode", () => {
  test("one answer each, no votes, the presenter writes the final answer from all answers", async () => {
    const { events, backends } = await runScripted(
      {
        a: [{ answer: "4" }],
        b: [
          { answer: "Four" },
          { text: "Four (4).", expect_prompt_contains: ['agent="a"', "Four"] },
        ],
      },
      { mode: "quick", settings: { presenter_agent: "b" } },
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(backends.a!.requests[0]!.tools.map((tool) => tool.name)).toEqual(["new_answer"]);
    expect(events.some((event) => event.type === "vote")).toBe(false);
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start quick agent1,agent2",
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
        "b winner agent2 agent2.1 votes=0 quick",
        "b round-start r2.1 final [agent1.1,agent2.1]",
        "b final Four (4).",
        "b usage r2",
        "b round-end r2 final",
        "b final-answer agent2.final presentation: Four (4).",
        "- run-end completed",
      ]
    `);
  });

  test("without presenter_agent the first agent presents", async () => {
    const { events, backends } = await runScripted(
      { a: [{ answer: "4" }, { text: "4." }], b: [{ answer: "Four" }] },
      { mode: "quick" },
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(events.find((event) => event.type === "final-answer")).toMatchObject({
      agentId: "a",
      content: "4.",
    });
  });
});

describe("quick mode with agreeing agents", () => {
  test("identical answers are all accepted: 3 answers + 1 final = 4 model calls, nobody removed", async () => {
    const { events, backends } = await runScripted(
      {
        a: [{ answer: "4" }, { text: "4." }],
        b: [{ answer: "4" }],
        c: [{ answer: "4" }],
      },
      { mode: "quick" },
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(events.filter((event) => event.type === "usage")).toHaveLength(4);
    expect(events.filter((event) => event.type === "answer").map((event) => event.agentId)).toEqual(
      ["a", "b", "c"],
    );
    expect(events.some((event) => event.type === "workflow-invalid")).toBe(false);
    expect(events.some((event) => event.type === "agent-error")).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });
});

describe("streamed blocks", () => {
  test("reasoning, text and the final answer open, stream and close as blocks with their own ids", async () => {
    const { events } = await runScripted(
      {
        a: [
          { reasoning: "Two pairs.", text: "Counting…", answer: "4" },
          { vote: "agent1", reason: "r" },
          { text: "It is 4." },
        ],
        b: [{ answer: "Four" }, { vote: "agent1", reason: "r" }],
      },
      {},
    );
    expect(blocks(events)).toEqual([
      "a reasoning b1: Two pairs.",
      "a text b2: Counting…",
      "a final b3: It is 4.",
    ]);
    // Each block closes before the call's usage event.
    const end = events.findIndex((event) => event.type === "text-end");
    expect(events[end + 1]).toMatchObject({ type: "usage", agentId: "a", round: 1 });
  });

  test("a call cut off mid-stream still closes its block", async () => {
    const clock = createVirtualClock();
    const stop = new AbortController();
    void clock.sleep(5_000).then(() => stop.abort());
    // Streams a word, then waits for more that never comes.
    const stalling: Backend = {
      type: "fake",
      model: "stalls",
      async *stream(_request, { signal }) {
        yield { type: "text-delta", text: "partial" };
        await clock.sleep(100_000, signal);
      },
    };
    const events: CoordEvent[] = [];
    for await (const event of runCoordination({
      runId: "r",
      question: "q",
      agents: [{ id: "a", backend: stalling }],
      mode: "single",
      settings: DEFAULT_SETTINGS,
      orchestratorTimeoutMs: 1_800_000,
      clock,
      signal: stop.signal,
    }))
      events.push(event);
    expect(blocks(events)).toEqual(["a text b1: partial"]);
    // No usage event: the call never finished.
    expect(trace(events).slice(-3)).toEqual([
      "a text partial",
      "a round-end r1 aborted",
      "- run-end interrupted: interrupted by the user",
    ]);
  });
});

describe("stop reasons", () => {
  const slow = { a: [{ delay_ms: 100_000, answer: "late" }] };

  test("a RunStopped abort ends the run with its reason: shutdown", async () => {
    const clock = createVirtualClock();
    const stop = new AbortController();
    void clock.sleep(1_000).then(() => stop.abort(new RunStopped("shutdown")));
    const { events } = await runScripted(slow, { mode: "single", clock, signal: stop.signal });
    expect(trace(events).slice(-2)).toEqual([
      "a round-end r1 aborted",
      "- run-end shutdown: the server is shutting down",
    ]);
  });

  test("a TimeoutError abort (a caller's time limit) ends the run as timeout, without a winner", async () => {
    const clock = createVirtualClock();
    const stop = new AbortController();
    void clock
      .sleep(1_000)
      .then(() => stop.abort(new DOMException("the time limit passed", "TimeoutError")));
    const { events } = await runScripted(
      { a: [{ answer: "4" }], b: [{ delay_ms: 100_000, answer: "late" }] },
      { mode: "quick", clock, signal: stop.signal },
    );
    expect(events.some((event) => event.type === "winner")).toBe(false);
    expect(events.at(-1)).toMatchObject({
      type: "run-end",
      reason: "timeout",
      error: "stopped by the caller's time limit",
    });
  });
});

describe("single agent", () => {
  test("the one answer is final, with no vote and no presentation", async () => {
    const { events, backends } = await runScripted(
      { a: [{ reasoning: "2 and 2", answer: "4" }] },
      { mode: "single" },
    );
    backends.a!.assertDone();
    expect(backends.a!.requests[0]!.system).not.toContain("one of 1 agents");
    expect(trace(events)).toMatchInlineSnapshot(`
      [
        "- run-start single agent1",
        "a round-start r1.1 coordinate []",
        "a reasoning 2 and 2",
        "a usage r1",
        "a tool-call new_answer",
        "a answer agent1.1",
        "a tool-result new_answer",
        "a round-end r1 answer",
        "a winner agent1 agent1.1 votes=0 single",
        "a final-answer agent1.final answer: 4",
        "- run-end completed",
      ]
    `);
  });
});

describe("limits", () => {
  test("on timeout the winner comes from the current votes and presents at once", async () => {
    const { events, backends } = await runScripted(
      {
        a: [{ answer: "4" }, { vote: "agent2", reason: "r" }],
        b: [
          { answer: "Four" },
          { delay_ms: 100_000, vote: "agent2", reason: "r" },
          { text: "Four." },
        ],
        c: [{ answer: "2+2=4" }, { delay_ms: 100_000, vote: "agent2", reason: "r" }],
      },
      { orchestratorTimeoutMs: 60_000 },
    );
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(trace(events).slice(-11)).toMatchInlineSnapshot(`
      [
        "a tool-result vote",
        "a round-end r2 vote",
        "b round-end r2 aborted",
        "c round-end r2 aborted",
        "b winner agent2 agent2.1 votes=1 timeout",
        "b round-start r3.1 final [agent1.1,agent2.1,agent3.1]",
        "b final Four.",
        "b usage r3",
        "b round-end r3 final",
        "b final-answer agent2.final presentation: Four.",
        "- run-end completed",
      ]
    `);
  });

  test("on timeout without votes the first agent with an answer wins", async () => {
    const { events } = await runScripted(
      {
        a: [{ delay_ms: 100_000, answer: "late" }],
        b: [{ answer: "Four" }, { text: "Four." }],
      },
      { orchestratorTimeoutMs: 60_000 },
    );
    expect(events.find((event) => event.type === "winner")).toMatchObject({
      agentId: "b",
      basis: "timeout",
      votes: 0,
    });
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  test("a timeout with no answer at all ends the run with reason timeout", async () => {
    const { events } = await runScripted(
      { a: [{ delay_ms: 100_000, answer: "late" }] },
      { orchestratorTimeoutMs: 60_000, mode: "single" },
    );
    expect(trace(events).slice(-2)).toMatchInlineSnapshot(`
      [
        "a round-end r1 aborted",
        "- run-end timeout: no answer before the orchestrator timeout (60 s)",
      ]
    `);
  });

  test("an interrupt aborts every round and ends the run as interrupted", async () => {
    const clock = createVirtualClock();
    const interrupt = new AbortController();
    void clock.sleep(5_000).then(() => interrupt.abort());
    const { events } = await runScripted(
      {
        a: [{ answer: "4" }, { delay_ms: 100_000, vote: "agent1", reason: "r" }],
        b: [{ answer: "Four" }, { delay_ms: 100_000, vote: "agent1", reason: "r" }],
      },
      { clock, signal: interrupt.signal },
    );
    expect(trace(events).slice(-3)).toMatchInlineSnapshot(`
      [
        "a round-end r2 aborted",
        "b round-end r2 aborted",
        "- run-end interrupted: interrupted by the user",
      ]
    `);
    expect(clock.pending).toBe(0);
  });
});
