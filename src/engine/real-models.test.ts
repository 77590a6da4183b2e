/**
 * Models that do not follow the protocol (docs/real-models.md), as protocol traces on a virtual
 * clock: plain text, unknown tools, cut-off JSON, two answers in one reply, a model that never
 * votes, the run budget, answers kept when every agent is removed, and a prompt that outgrows the
 * context.
 */
import { describe, expect, test } from "vitest";
import type { Backend, BackendChunk } from "../backends/index.js";
import { BackendError, emptyUsage } from "../backends/index.js";
import type { CoordEvent } from "../events/index.js";
import { runScripted, trace } from "./test-helpers.js";
import { defaultTextCall } from "./text-protocol.js";
import { newAnswerTool, voteTool } from "./workflow-tools.js";

const ofType = <T extends CoordEvent["type"]>(events: readonly CoordEvent[], type: T) =>
  events.filter((event): event is Extract<CoordEvent, { type: T }> => event.type === type);

describe("models that answer in text", () => {
  test("plain text is refused once, then heard as the agent's answer", async () => {
    const { events, backends } = await runScripted({
      a: [{ answer: "18" }, { vote: "agent2", reason: "same" }],
      b: [
        { text: "Sure! The answer is 18." },
        { text: "Sure! The answer is 18.", expect_prompt_contains: "plain text" },
        { text: "**VOTE: agent2** — it is right" },
        { text: "The answer is 18." },
      ],
    });
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(ofType(events, "answer").map((event) => [event.agentId, event.content])).toEqual([
      ["a", "18"],
      ["b", "Sure! The answer is 18."],
    ]);
    // b was heard in text once, so its next text is heard at once: a vote line is a vote, with the
    // rest of the text as its reason.
    expect(ofType(events, "vote")).toMatchObject([
      { agentId: "a", targetAnonId: "agent2" },
      { agentId: "b", targetAnonId: "agent2", reason: "** — it is right" },
    ]);
    expect(ofType(events, "warning").map((event) => event.message)).toContain(
      "b answered in plain text; the text was taken as its answer (text protocol)",
    );
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });

  test("vote lines as models write them; a hostile reply of blank lines is read in linear time", () => {
    const offered = [voteTool(["agent1", "agent2"]), newAnswerTool()];
    const voteOf = (text: string) => {
      const call = defaultTextCall(text, offered, "t");
      return call?.kind === "vote" ? call.agentId : call?.kind;
    };
    expect(voteOf("VOTE: agent2")).toBe("agent2");
    expect(voteOf("**My vote is agent 1** because")).toBe("agent1");
    expect(voteOf("I vote for agent2.")).toBe("agent2");
    expect(voteOf("> vote for : agent1")).toBe("agent1");
    expect(voteOf("Agent2 is right, the answer is 18")).toBe("new_answer");
    // The first pattern's adjacent whitespace quantifiers took over two minutes on 200 blank
    // lines, `vote` and 200 spaces; this is 100,000 of each.
    expect(voteOf(`${"\n".repeat(100_000)}vote${" ".repeat(100_000)}x`)).toBe("new_answer");
  });

  test("in quick and single-agent modes text is an answer at once", async () => {
    for (const mode of ["quick", "single"] as const) {
      const { events } = await runScripted({ a: [{ text: "18" }] }, { mode });
      expect(ofType(events, "workflow-invalid")).toHaveLength(0);
      expect(ofType(events, "final-answer")).toMatchObject([{ content: "18" }]);
    }
  });

  test("an unknown tool costs an attempt, is told the tools that exist, and its text is heard", async () => {
    const finalAnswer = { name: "final_answer", input: { answer: "18" } };
    const { events } = await runScripted(
      { a: [{ tool_calls: [finalAnswer] }, { tool_calls: [finalAnswer] }] },
      { mode: "single" },
    );
    // Single mode hears text at once: the unknown tool's `answer` is the answer.
    expect(ofType(events, "tool-result")[0]).toMatchObject({
      toolName: "final_answer",
      isError: true,
      output: "Unknown tool final_answer (not one of: new_answer).",
    });
    expect(ofType(events, "final-answer")).toMatchObject([{ content: "18" }]);
  });

  test("an agent that only calls unknown tools fails its round in 3 attempts, with a diagnosis", async () => {
    const nothing = { name: "final_answer", input: {} };
    const { events } = await runScripted({
      a: [{ answer: "4" }, { vote: "agent1", reason: "r" }, { text: "4" }],
      b: Array.from({ length: 6 }, () => ({ tool_calls: [nothing] })),
    });
    expect(ofType(events, "agent-error").map((event) => [event.message, event.fatal])).toEqual([
      ["called the unknown tool final_answer 3 times", false],
      ["called the unknown tool final_answer 3 times", true],
    ]);
    expect(ofType(events, "usage").filter((event) => event.agentId === "b")).toHaveLength(6);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });
});

/** A backend whose replies are given chunk lists, in order. */
function chunkBackend(replies: BackendChunk[][]): Backend & { requests: unknown[] } {
  const requests: unknown[] = [];
  return {
    type: "fake",
    model: "m",
    requests,
    async *stream(request) {
      requests.push(request);
      const reply = replies.shift();
      if (reply === undefined) throw new Error("no reply left");
      yield* reply;
    },
  };
}

const finish: BackendChunk = { type: "finish", finishReason: "tool-calls", usage: emptyUsage() };

describe("malformed tool calls", () => {
  test("repaired cut-off JSON is used and the user is told", async () => {
    const backend = chunkBackend([
      [
        {
          type: "tool-call",
          toolCallId: "c1",
          toolName: "new_answer",
          input: { content: "The answer is 18" },
          repaired: true,
        },
        finish,
      ],
    ]);
    const { events } = await runScripted({ a: [] }, { mode: "single", wrapBackend: () => backend });
    expect(ofType(events, "warning").map((event) => event.message)).toContain(
      "a sent cut-off or malformed JSON arguments for new_answer; coord repaired them (jsonrepair) and used what they hold",
    );
    expect(ofType(events, "final-answer")).toMatchObject([{ content: "The answer is 18" }]);
  });

  test("cut-off JSON is refused naming the malformed JSON; two answers in a reply: the last counts", async () => {
    const backend = chunkBackend([
      [
        {
          type: "tool-call",
          toolCallId: "c1",
          toolName: "new_answer",
          input: '{"content": "The answer is 1',
          inputError: "Unexpected end of JSON input",
        },
        finish,
      ],
      [
        { type: "tool-call", toolCallId: "c2", toolName: "new_answer", input: { content: "17" } },
        { type: "tool-call", toolCallId: "c3", toolName: "new_answer", input: { content: "18" } },
        finish,
      ],
    ]);
    const { events } = await runScripted({ a: [] }, { mode: "single", wrapBackend: () => backend });
    expect(ofType(events, "workflow-invalid")[0]?.message).toMatch(
      /arguments were cut-off or malformed JSON \(Unexpected end of JSON input\)/,
    );
    expect(ofType(events, "warning").map((event) => event.message)).toContain(
      "a made 2 workflow calls in one reply (new_answer, new_answer); the last one counts",
    );
    expect(ofType(events, "final-answer")).toMatchObject([{ content: "18" }]);
  });
});

describe("the run budget", () => {
  test("a team that never votes ends at its call limit with the best answer so far", async () => {
    const never = (name: string) =>
      Array.from({ length: 20 }, (_, index) => ({ answer: `${name} answer ${index}` }));
    const { events } = await runScripted(
      { a: never("a"), b: never("b") },
      { budget: { maxCalls: 5 } },
    );
    const calls = ofType(events, "usage").length;
    expect(calls).toBeLessThanOrEqual(5 + 1); // the limit plus the other agent's call in flight
    expect(ofType(events, "limit-reached")).toMatchObject([
      { scope: "run", limit: "calls", max: 5 },
    ]);
    // No presentation call after the budget: the winning answer is shown as is.
    expect(ofType(events, "final-answer")).toMatchObject([{ source: "answer" }]);
    expect(ofType(events, "winner")).toMatchObject([{ basis: "partial" }]);
    expect(events.at(-1)).toMatchObject({
      type: "run-end",
      reason: "completed",
      degraded: [
        "the run's budget of 5 model calls was reached (budget.max_calls); the best answer so far is presented",
      ],
    });
  });

  test("without a budget, a model that never votes stops at the default answer cap", async () => {
    const never = (name: string) =>
      Array.from({ length: 40 }, (_, index) => ({ answer: `${name} answer ${index}` }));
    const { events } = await runScripted({ a: never("a"), b: never("b") });
    // 5 answers each (DEFAULT_MAX_ANSWERS_PER_AGENT), then 3 refused attempts per round, twice.
    expect(ofType(events, "answer").length).toBeLessThanOrEqual(10);
    expect(ofType(events, "usage").length).toBeLessThanOrEqual(30);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    expect(ofType(events, "final-answer")).toHaveLength(1);
  });

  test("an agent over its own limit leaves the team; the others finish", async () => {
    const { events } = await runScripted(
      {
        a: [{ answer: "4" }, { vote: "agent1", reason: "r" }, { text: "4" }],
        b: Array.from({ length: 10 }, () => ({})),
      },
      { budget: { perAgent: { maxCalls: 4 } } },
    );
    expect(ofType(events, "limit-reached")).toMatchObject([
      { scope: "agent", agentId: "b", limit: "calls" },
    ]);
    expect(ofType(events, "usage").filter((event) => event.agentId === "b")).toHaveLength(4);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });
});

describe("no accepted answer is thrown away", () => {
  test("every agent removed after answering: the answer in hand is presented, degraded", async () => {
    const bad = { error: { status: 500, message: "upstream exploded" } };
    const { events } = await runScripted({
      a: [{ answer: "18" }, bad, bad],
      b: [{ answer: "20" }, bad, bad],
    });
    expect(trace(events).slice(-3)).toEqual([
      "a winner agent1 agent1.1 votes=0 partial",
      "a final-answer agent1.final answer: 18",
      "- run-end completed",
    ]);
    expect(events.at(-1)).toMatchObject({
      degraded: ["a removed: upstream exploded", "b removed: upstream exploded"],
    });
  });
});

describe("context that fits", () => {
  test("a context-length error shortens the other answers and the round goes on", async () => {
    const long = "x".repeat(5000);
    const overflow = new BackendError({
      message: "This model's maximum context length is 1000 tokens. However, you requested 2100",
      provider: "openai",
      status: 400,
      retryable: false,
    });
    const { events, backends } = await runScripted({
      a: [{ answer: long }, { vote: "agent1", reason: "r" }, { text: "done" }],
      b: [
        { delay_ms: 5, answer: "short" },
        { error: { status: 400, message: overflow.message, retryable: false } },
        { vote: "agent1", reason: "r", expect_prompt_contains: "cut to fit the model's context" },
      ],
    });
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(ofType(events, "warning").map((event) => event.message)).toContainEqual(
      expect.stringContaining("the prompt exceeded the model's context"),
    );
    expect(ofType(events, "agent-error")).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });
});

describe("a presentation that outgrows the context", () => {
  test("is asked again with the answers shortened", async () => {
    const overflow = "This model's maximum context length is 1200 tokens.";
    const { events, backends } = await runScripted({
      a: [
        { answer: "y".repeat(6000) },
        { vote: "agent1", reason: "r" },
        { error: { status: 400, message: overflow, retryable: false } },
        { text: "The final answer.", expect_prompt_contains: "cut to fit the model's context" },
      ],
      b: [
        { delay_ms: 5, answer: "z".repeat(6000) },
        { vote: "agent1", reason: "r" },
      ],
    });
    for (const backend of Object.values(backends)) backend.assertDone();
    expect(ofType(events, "final-answer")).toMatchObject([
      { source: "presentation", content: "The final answer." },
    ]);
    expect(events.at(-1)).not.toHaveProperty("degraded");
  });
});

describe("planning and decomposition degrade gracefully", () => {
  test("a plan written as text becomes the plan, its list items the tasks", async () => {
    const plan = "Plan:\n1. Read the question\n2. Compute 9 × 2\n3. Write the answer";
    const { events } = await runScripted(
      { a: [{ text: plan }, { text: plan }] },
      { mode: "planning", settings: { planning: { depth: "dynamic", broadcast: false } } },
    );
    expect(ofType(events, "plan")[0]?.tasks.map((task) => task.description)).toEqual([
      "Read the question",
      "Compute 9 × 2",
      "Write the answer",
    ]);
  });

  test("identical parts are agreement, not copies", async () => {
    const { events } = await runScripted(
      {
        a: [{ answer: "18" }, { answer: "18" }, { text: "18" }],
        b: [{ delay_ms: 5, answer: "18" }],
      },
      { mode: "decomposition", agentFields: { a: { subtask: "All" }, b: { subtask: "All" } } },
    );
    expect(ofType(events, "workflow-invalid")).toHaveLength(0);
    expect(
      ofType(events, "stop").map((event) => [event.agentId, event.cause, event.summary]),
    ).toEqual([
      ["b", "answer-cap", "gave agent1's part word for word: agreement, nothing left to split"],
      ["a", "answer-cap", "re-submitted its part unchanged (heard as stop: complete)"],
    ]);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  });
});
