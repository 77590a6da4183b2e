import { expect, test } from "vitest";
import { step, teamState } from "../terminal/test-states.js";
import { createAutomationOutput } from "./automation.js";

test("--automation prints the fixed lines and nothing else", () => {
  let text = "";
  const output = createAutomationOutput({ write: (chunk: string) => (text += chunk) });
  output.start({
    logDir: "/l/log_1",
    statusFile: "/l/log_1/turn_1/attempt_1/status.json",
    question: "What\nis 2+2?",
  });
  output.start({ logDir: undefined, statusFile: undefined, question: "again" }); // once only
  const state = step(
    teamState(2),
    {
      type: "winner",
      agentId: "alice",
      anonId: "agent1",
      label: "agent1.1",
      votes: 2,
      tally: { alice: 2 },
      tieBroken: false,
      basis: "votes",
    },
    {
      type: "final-answer",
      agentId: "alice",
      label: "agent1.final",
      content: "4",
      source: "presentation",
    },
    { type: "run-end", reason: "completed", durationMs: 12_345 },
  );
  output.end(state, { answerFile: "/l/log_1/turn_1/attempt_1/final_answer.md" });
  expect(text.split("\n")).toEqual([
    "LOG_DIR: /l/log_1",
    "STATUS: /l/log_1/turn_1/attempt_1/status.json",
    "QUESTION: What is 2+2?",
    "WINNER: alice",
    "ANSWER_FILE: /l/log_1/turn_1/attempt_1/final_answer.md",
    "DURATION: 12.3s",
    "COMPLETED: true",
    "",
  ]);
});

test("a run without an answer: no answer file, COMPLETED: false", () => {
  let text = "";
  const output = createAutomationOutput({ write: (chunk: string) => (text += chunk) });
  const state = step(teamState(1), { type: "run-end", reason: "interrupted", durationMs: 500 });
  output.end(state, { answerFile: "/x/final_answer.md" });
  expect(text).toBe("WINNER: none\nANSWER_FILE: none\nDURATION: 0.5s\nCOMPLETED: false\n");
});

test("decomposition: a SUBTASK line per agent and a STOP line per stop, as they happen", () => {
  let text = "";
  const output = createAutomationOutput({ write: (chunk: string) => (text += chunk) });
  const envelope = { v: 2 as const, seq: 1, time: "2026-01-01T00:00:00.000Z", runId: "r" };
  output.event({
    ...envelope,
    type: "subtask",
    agentId: "alice",
    anonId: "agent1",
    subtask: "Choose\nthe food.",
    source: "config",
  });
  output.event({
    ...envelope,
    type: "stop",
    agentId: "alice",
    round: 2,
    status: "blocked",
    summary: "no menu",
    cause: "agent",
  });
  output.event({ ...envelope, type: "text-start", agentId: "alice", round: 1, blockId: "b1" });
  expect(text).toBe("SUBTASK: alice: Choose the food.\nSTOP: alice blocked: no menu\n");
});

test("a degraded run: a LIMIT line when the budget is reached, a DEGRADED line per reason", () => {
  let text = "";
  const output = createAutomationOutput({ write: (chunk: string) => (text += chunk) });
  const envelope = { v: 2 as const, seq: 1, time: "2026-01-01T00:00:00.000Z", runId: "r" };
  const limit = {
    type: "limit-reached" as const,
    scope: "run" as const,
    limit: "calls" as const,
    used: 7,
    max: 7,
    message: "the run's budget of 7 model calls was reached (budget.max_calls)",
  };
  output.event({ ...envelope, ...limit });
  output.event({
    ...envelope,
    ...limit,
    agentId: "bob",
    scope: "agent",
    limit: "cost",
    used: 0.5012,
    max: 0.5,
  });
  const state = step(teamState(2), limit, {
    type: "run-end",
    reason: "completed",
    durationMs: 1000,
    degraded: ["the run's budget of 7 model calls was reached", "bob removed:\nno answer"],
  });
  output.end(state, { answerFile: "/x/final_answer.md" });
  expect(text.split("\n")).toEqual([
    "LIMIT: run calls 7/7",
    "LIMIT: bob cost $0.5012/$0.5000",
    "DEGRADED: the run's budget of 7 model calls was reached",
    "DEGRADED: bob removed: no answer",
    "WINNER: none",
    "ANSWER_FILE: none",
    "DURATION: 1.0s",
    "COMPLETED: false",
    "",
  ]);
});
