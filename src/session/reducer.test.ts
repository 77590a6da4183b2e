import { describe, expect, it } from "vitest";
import { eventsOf } from "../../test/support/events.js";
import type { CoordEvent, EventBody } from "../events/events.js";
import {
  agentIndexOf,
  initialRunState,
  reduceRun,
  replay,
  STREAM_TEXT_CAP,
  toMetricsJson,
  toStatusJson,
  type RunState,
} from "./reducer.js";

const START = Date.parse("2025-03-01T10:00:00.000Z");

/** Events with a running seq, 100 ms apart from START (test/support/events.ts). */
const script = (bodies: EventBody[]): CoordEvent[] =>
  eventsOf(bodies, { start: START, runId: "run-1" });

const usage = (
  agentId: string,
  round: number,
  input: number,
  output: number,
  extra: { reasoning?: number; cached?: number; ttft?: number; ms?: number } = {},
): EventBody => ({
  type: "usage",
  agentId,
  round,
  backend: "openai",
  model: "gpt-x",
  usage: {
    inputTokens: input,
    outputTokens: output,
    reasoningTokens: extra.reasoning ?? 0,
    cachedInputTokens: extra.cached ?? 0,
  },
  durationMs: extra.ms ?? 1000,
  ...(extra.ttft === undefined ? {} : { timeToFirstTokenMs: extra.ttft }),
  finishReason: "tool-calls",
});

const roundStart = (
  agentId: string,
  round: number,
  kind: "coordinate" | "final" = "coordinate",
  attempt = 1,
): EventBody => ({
  type: "round-start",
  agentId,
  round,
  attempt,
  kind,
  answersSeen: [],
});

/** A 3-agent voting run: c fails and is removed, b refines (votes reset), a and b vote b. */
const threeAgentRun: CoordEvent[] = script([
  {
    type: "run-start",
    question: "What is the capital of France?",
    mode: "voting",
    historyTurns: 0,
    agents: [
      { id: "alpha", anonId: "agent1", backend: "openai", model: "gpt-x" },
      { id: "beta", anonId: "agent2", backend: "openai", model: "gpt-y" },
      { id: "gamma", anonId: "agent3", backend: "anthropic", model: "claude-z" },
    ],
  },
  roundStart("alpha", 1),
  roundStart("beta", 1),
  roundStart("gamma", 1),
  { type: "reasoning-delta", agentId: "alpha", round: 1, blockId: "r1", text: "Thinking about " },
  { type: "reasoning-delta", agentId: "alpha", round: 1, blockId: "r1", text: "France." },
  { type: "text-delta", agentId: "alpha", round: 1, blockId: "t1", text: "Let me " },
  {
    type: "tool-call",
    agentId: "alpha",
    round: 1,
    toolCallId: "t1",
    toolName: "web_search",
    input: { q: "capital of France" },
  },
  {
    type: "tool-result",
    agentId: "alpha",
    round: 1,
    toolCallId: "t1",
    toolName: "web_search",
    output: "Paris",
    isError: false,
    durationMs: 120,
  },
  { type: "text-delta", agentId: "alpha", round: 1, blockId: "t1", text: "check. Paris." },
  usage("alpha", 1, 100, 20, { reasoning: 5, cached: 10, ttft: 50, ms: 500 }),
  {
    type: "answer",
    agentId: "alpha",
    round: 1,
    label: "agent1.1",
    anonId: "agent1",
    content: "Paris",
  },
  { type: "round-end", agentId: "alpha", round: 1, outcome: "answer", durationMs: 600 },
  { type: "text-delta", agentId: "beta", round: 1, blockId: "t1", text: "It is Paris." },
  usage("beta", 1, 110, 30, { ttft: 70, ms: 700 }),
  {
    type: "answer",
    agentId: "beta",
    round: 1,
    label: "agent2.1",
    anonId: "agent2",
    content: "Paris, France.",
  },
  { type: "round-end", agentId: "beta", round: 1, outcome: "answer", durationMs: 800 },
  {
    type: "agent-error",
    agentId: "gamma",
    round: 1,
    message: "429 rate limited",
    provider: "anthropic",
    status: 429,
    retryable: true,
    fatal: false,
  },
  roundStart("gamma", 1, "coordinate", 2),
  {
    type: "agent-error",
    agentId: "gamma",
    round: 1,
    message: "500 server error",
    provider: "anthropic",
    status: 500,
    retryable: true,
    fatal: true,
  },
  { type: "round-end", agentId: "gamma", round: 1, outcome: "error", durationMs: 2000 },
  roundStart("alpha", 2),
  {
    type: "tool-call",
    agentId: "alpha",
    round: 2,
    toolCallId: "t2",
    toolName: "read_file",
    input: { path: "notes.md" },
  },
  {
    type: "tool-result",
    agentId: "alpha",
    round: 2,
    toolCallId: "t2",
    toolName: "read_file",
    output: "ENOENT",
    isError: true,
    durationMs: 30,
  },
  usage("alpha", 2, 300, 10, { ms: 400 }),
  {
    type: "vote",
    agentId: "alpha",
    round: 2,
    targetAgentId: "beta",
    targetAnonId: "agent2",
    label: "agent2.1",
    reason: "more complete",
  },
  { type: "round-end", agentId: "alpha", round: 2, outcome: "vote", durationMs: 450 },
  roundStart("beta", 2),
  usage("beta", 2, 320, 40, { ms: 900 }),
  {
    type: "answer",
    agentId: "beta",
    round: 2,
    label: "agent2.2",
    anonId: "agent2",
    content: "Paris is the capital of France.",
  },
  { type: "votes-reset", causeLabel: "agent2.2", cleared: 1 },
  { type: "round-end", agentId: "beta", round: 2, outcome: "answer", durationMs: 950 },
  { type: "update-injected", agentId: "alpha", round: 3, labels: ["agent2.2"], via: "restart" },
  roundStart("alpha", 3),
  usage("alpha", 3, 400, 12, { ms: 300 }),
  {
    type: "vote",
    agentId: "alpha",
    round: 3,
    targetAgentId: "beta",
    targetAnonId: "agent2",
    label: "agent2.2",
    reason: "complete and correct",
  },
  { type: "round-end", agentId: "alpha", round: 3, outcome: "vote", durationMs: 320 },
  roundStart("beta", 3),
  usage("beta", 3, 420, 8, { ms: 200 }),
  {
    type: "vote",
    agentId: "beta",
    round: 3,
    targetAgentId: "beta",
    targetAnonId: "agent2",
    label: "agent2.2",
    reason: "mine is best",
  },
  { type: "round-end", agentId: "beta", round: 3, outcome: "vote", durationMs: 210 },
  {
    type: "winner",
    agentId: "beta",
    anonId: "agent2",
    label: "agent2.2",
    votes: 2,
    tally: { beta: 2 },
    tieBroken: false,
    basis: "votes",
  },
  { type: "final-start", agentId: "beta", blockId: "f" },
  roundStart("beta", 4, "final"),
  { type: "final-delta", agentId: "beta", blockId: "f", text: "The capital " },
  { type: "final-delta", agentId: "beta", blockId: "f", text: "is Paris" },
  usage("beta", 4, 500, 6, { ttft: 40, ms: 300 }),
  {
    type: "final-answer",
    agentId: "beta",
    label: "agent2.final",
    content: "The capital of France is Paris.",
    source: "presentation",
  },
  { type: "round-end", agentId: "beta", round: 4, outcome: "final", durationMs: 310 },
  { type: "run-end", reason: "completed", durationMs: 5000 },
]);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** Replays with every intermediate state frozen, so any mutation of an input state throws. */
function frozenReplay(events: CoordEvent[]): RunState[] {
  const states = [deepFreeze(initialRunState())];
  for (const event of events) states.push(deepFreeze(reduceRun(states.at(-1)!, event)));
  return states;
}

const stateAfter = (type: string, occurrence = 1): RunState => {
  let seen = 0;
  const index = threeAgentRun.findIndex((event) => event.type === type && ++seen === occurrence);
  return replay(threeAgentRun.slice(0, index + 1));
};

describe("reduceRun", () => {
  it("never mutates its input and replay equals step-by-step reduction", () => {
    const states = frozenReplay(threeAgentRun);
    expect(states.at(-1)).toEqual(replay(threeAgentRun));
  });

  it("tracks phases", () => {
    expect(initialRunState().phase).toBe("starting");
    expect(stateAfter("run-start").phase).toBe("starting");
    expect(stateAfter("round-start").phase).toBe("coordinating");
    expect(stateAfter("winner").phase).toBe("presenting");
    expect(replay(threeAgentRun).phase).toBe("done");
  });

  it("tracks agents through tools, answers and errors", () => {
    const afterToolCall = stateAfter("tool-call");
    expect(afterToolCall.agents[0]).toMatchObject({
      status: "tool",
      activeTool: "web_search",
      text: "Let me ",
      reasoning: "Thinking about France.",
    });
    const afterResult = stateAfter("tool-result");
    expect(afterResult.agents[0]).toMatchObject({ status: "thinking", activeTool: null });

    const afterError = stateAfter("agent-error");
    expect(afterError.agents[2]).toMatchObject({
      status: "error",
      lastError: { message: "429 rate limited", status: 429, fatal: false, retryable: true },
    });
    const afterFatal = stateAfter("agent-error", 2);
    expect(afterFatal.agents[2]!.status).toBe("removed");
    // round-end "error" keeps a removed agent removed
    expect(stateAfter("round-end", 3).agents[2]!.status).toBe("removed");
  });

  it("clears votes on votes-reset and counts resets", () => {
    const afterVote = stateAfter("vote");
    expect(afterVote.votes).toHaveLength(1);
    expect(afterVote.agents[0]).toMatchObject({
      status: "voted",
      vote: { targetAgentId: "beta", label: "agent2.1", reason: "more complete" },
    });
    const afterReset = stateAfter("votes-reset");
    expect(afterReset.votes).toEqual([]);
    expect(afterReset.votesResetCount).toBe(1);
    expect(afterReset.agents[0]).toMatchObject({ status: "waiting", vote: null });
    expect(afterReset.agents[1]).toMatchObject({
      status: "answered",
      answerCount: 2,
      currentAnswerLabel: "agent2.2",
    });
  });

  it("accumulates the final answer from deltas, then replaces it", () => {
    const afterDeltas = stateAfter("final-delta", 2);
    expect(afterDeltas.finalAnswer).toBe("The capital is Paris");
    expect(afterDeltas.agents[1]!.status).toBe("presenting");
    expect(afterDeltas.presenterId).toBe("beta");
    const end = replay(threeAgentRun);
    expect(end.finalAnswer).toBe("The capital of France is Paris.");
    expect(end.finalAnswerLabel).toBe("agent2.final");
    expect(end.finalAnswerSource).toBe("presentation");
  });

  it("ends with the full picture", () => {
    const end = replay(threeAgentRun);
    expect(end).toMatchObject({
      runId: "run-1",
      question: "What is the capital of France?",
      mode: "voting",
      startedAt: START,
      endedAt: START + (threeAgentRun.length - 1) * 100,
      durationMs: 5000,
      endReason: "completed",
      error: null,
      lastSeq: threeAgentRun.length,
      eventCount: threeAgentRun.length,
      votesResetCount: 1,
      winner: { agentId: "beta", anonId: "agent2", label: "agent2.2", votes: 2, basis: "votes" },
    });
    expect(end.agents.map((agent) => [agent.id, agent.status])).toEqual([
      ["alpha", "voted"],
      ["beta", "done"],
      ["gamma", "removed"],
    ]);
    expect(end.answers.map((answer) => [answer.label, answer.agentId])).toEqual([
      ["agent1.1", "alpha"],
      ["agent2.1", "beta"],
      ["agent2.2", "beta"],
    ]);
    expect(end.votes.map((vote) => [vote.voterId, vote.label])).toEqual([
      ["alpha", "agent2.2"],
      ["beta", "agent2.2"],
    ]);
    expect(end.agents[0]!.counters.usage).toEqual({
      inputTokens: 800,
      outputTokens: 42,
      reasoningTokens: 5,
      cachedInputTokens: 10,
      modelCalls: 3,
      failedCalls: 0,
      modelCallMs: 1200,
      ttftMsTotal: 50,
      ttftCount: 1,
      pricedCostUsd: 0,
      unpricedCalls: 3,
    });
    expect(end.totals.usage.modelCalls).toBe(7);
    expect(end.totals.usage.inputTokens).toBe(100 + 110 + 300 + 320 + 400 + 420 + 500);
    expect(end.agents[0]!.counters.tools).toEqual({
      web_search: { calls: 1, failures: 0, totalMs: 120 },
      read_file: { calls: 1, failures: 1, totalMs: 30 },
    });
    expect(end.totals.rounds).toEqual({
      answer: 3,
      vote: 3,
      stop: 0,
      invalid: 0,
      error: 1,
      aborted: 0,
      final: 1,
      plan: 0,
    });
  });

  it("keeps only the last STREAM_TEXT_CAP characters of streamed text, per round", () => {
    const chunk = "x".repeat(1000);
    const events = script([
      {
        type: "run-start",
        question: "q",
        mode: "single",
        historyTurns: 0,
        agents: [{ id: "a", anonId: "agent1", backend: "b", model: "m" }],
      },
      roundStart("a", 1),
      ...Array.from({ length: 5 }, (): EventBody => ({
        type: "text-delta",
        agentId: "a",
        round: 1,
        blockId: "t1",
        text: chunk,
      })),
      { type: "text-delta", agentId: "a", round: 1, blockId: "t1", text: "END" },
    ]);
    const text = replay(events).agents[0]!.text;
    expect(text).toHaveLength(STREAM_TEXT_CAP);
    expect(text.endsWith("END")).toBe(true);
    const next = reduceRun(replay(events), { ...events[1]!, seq: 99, round: 2 } as CoordEvent);
    expect(next.agents[0]!.text).toBe("");
  });

  it("counts usage of events without a known agent in totals only", () => {
    const events = script([
      usage("nobody", 1, 10, 1),
      { ...usage("x", 1, 5, 5), agentId: undefined },
    ]);
    const state = replay(events);
    expect(state.agents).toEqual([]);
    expect(state.totals.usage.inputTokens).toBe(15);
  });

  it("a 50-agent run's deltas each cost the agent list and the text cap, not the events before", () => {
    // Counted, not timed: each text-delta is reduced on its own, and what it built is checked to
    // be O(agents + STREAM_TEXT_CAP): a new top-level record, a new agent list that shares every
    // other agent, one new agent whose text is capped; every other object shared unchanged.
    const agents = Array.from({ length: 50 }, (_, index) => ({
      id: `a${index}`,
      anonId: `agent${index + 1}`,
      backend: "scripted",
      model: "m",
    }));
    const bodies: EventBody[] = [
      { type: "run-start", question: "q", mode: "voting", historyTurns: 0, agents },
    ];
    for (let step = 0; step < 800; step++) {
      for (const agent of agents) {
        bodies.push({
          type: "text-delta",
          agentId: agent.id,
          round: 1,
          blockId: "t1",
          text: "token ",
        });
      }
    }
    const events = script(bodies);
    const rebuilt: string[] = [];
    let state = replay(events.slice(0, 1));
    for (const event of events.slice(1)) {
      const next = reduceRun(state, event);
      const changed = agentIndexOf(next, event.agentId);
      for (const key of Object.keys(next) as Array<keyof RunState>) {
        const [before, after] = [state[key], next[key]];
        if (key === "agents" || Object.is(before, after)) continue;
        if (typeof after === "object" && after !== null) rebuilt.push(`${event.seq} ${key}`);
        if (typeof after === "string") rebuilt.push(`${event.seq} ${key} (a string)`);
      }
      next.agents.forEach((agent, index) => {
        const previous = state.agents[index]!;
        if (index !== changed && agent !== previous) rebuilt.push(`${event.seq} agent ${index}`);
        if (index !== changed) return;
        for (const key of Object.keys(agent) as Array<keyof typeof agent>) {
          const value = agent[key];
          if (typeof value === "object" && value !== null && value !== previous[key])
            rebuilt.push(`${event.seq} agent ${index} ${key}`);
        }
        if (agent.text.length > STREAM_TEXT_CAP) rebuilt.push(`${event.seq} text over the cap`);
      });
      state = next;
    }
    expect(rebuilt.slice(0, 5)).toEqual([]);
    expect(state.eventCount).toBe(40_001);
    expect(state.agents[49]!.text).toHaveLength(STREAM_TEXT_CAP);
  });
});

describe("toStatusJson", () => {
  it("describes the run in snake_case with ISO times", () => {
    const status = toStatusJson(replay(threeAgentRun));
    expect(status).toMatchObject({
      schema_version: 1,
      run_id: "run-1",
      phase: "done",
      started_at: "2025-03-01T10:00:00.000Z",
      elapsed_ms: 5000,
      end_reason: "completed",
      answer_count: 3,
      vote_tally: { beta: 2 },
      votes_reset_count: 1,
      winner: { agent_id: "beta", label: "agent2.2", tie_broken: false, basis: "votes" },
      presenter_id: "beta",
      final_answer_label: "agent2.final",
      has_final_answer: true,
    });
    expect(status.agents[2]).toEqual({
      id: "gamma",
      anon_id: "agent3",
      backend: "anthropic",
      model: "claude-z",
      status: "removed",
      round: 1,
      answer_count: 0,
      current_answer: null,
      vote: null,
      last_error: {
        message: "500 server error",
        fatal: true,
        retryable: true,
        cause: null,
        round: 1,
      },
      tokens: { input: 0, output: 0, reasoning: 0, cached_input: 0, total: 0 },
      model_calls: 0,
      failed_model_calls: 0,
      cost_usd: 0,
      unpriced_model_calls: 0,
    });
    expect(status.agents[0]!.vote).toEqual({
      target_agent_id: "beta",
      target_anon_id: "agent2",
      label: "agent2.2",
      reason: "complete and correct",
    });
    expect(JSON.parse(JSON.stringify(status))).toEqual(status);
  });

  it("is valid before any event", () => {
    expect(toStatusJson(initialRunState())).toMatchObject({
      phase: "starting",
      run_id: null,
      started_at: null,
      elapsed_ms: 0,
      agents: [],
      winner: null,
      has_final_answer: false,
    });
  });
});

describe("toMetricsJson", () => {
  it("gives per-agent and total counters with units in the names", () => {
    const metrics = toMetricsJson(replay(threeAgentRun));
    expect(metrics.wall_time_ms).toBe(5000);
    const alpha = metrics.agents[0]!;
    expect(alpha).toMatchObject({
      id: "alpha",
      answers: 1,
      tokens: { input: 800, output: 42, reasoning: 5, cached_input: 10, total: 842 },
      model_calls: 3,
      model_call_ms: 1200,
      time_to_first_token: { count: 1, total_ms: 50, mean_ms: 50 },
      rounds: { answer: 1, vote: 2, total: 3 },
      round_ms: 600 + 450 + 320,
      tools: {
        web_search: { calls: 1, failures: 0, total_ms: 120, mean_ms: 120 },
        read_file: { calls: 1, failures: 1, total_ms: 30, mean_ms: 30 },
      },
      tool_calls: 2,
      tool_failures: 1,
      tool_ms: 150,
      cost_usd: null,
    });
    expect(metrics.agents[2]).toMatchObject({
      status: "removed",
      model_calls: 0,
      rounds: { error: 1, total: 1 },
      time_to_first_token: { count: 0, mean_ms: null },
    });
    const sum = (pick: (agent: (typeof metrics.agents)[number]) => number) =>
      metrics.agents.reduce((total, agent) => total + pick(agent), 0);
    expect(metrics.totals.tokens.input).toBe(sum((agent) => agent.tokens.input));
    expect(metrics.totals.tokens.output).toBe(sum((agent) => agent.tokens.output));
    expect(metrics.totals.model_calls).toBe(sum((agent) => agent.model_calls));
    expect(metrics.totals.rounds.total).toBe(sum((agent) => agent.rounds.total));
    expect(metrics.totals.tool_calls).toBe(2);
    expect(metrics.totals.cost_usd).toBeNull();
  });
});

describe("straggler-cut", () => {
  it("removes the agent and keeps it removed when its aborted round ends; the trace says why", async () => {
    const events = script([
      {
        type: "run-start",
        question: "q",
        mode: "voting",
        historyTurns: 0,
        agents: [
          { id: "alpha", anonId: "agent1", backend: "openai", model: "gpt-x" },
          { id: "slow", anonId: "agent2", backend: "openai", model: "gpt-y" },
        ],
      },
      roundStart("alpha", 1),
      roundStart("slow", 1),
      {
        type: "straggler-cut",
        agentId: "slow",
        round: 1,
        waitedMs: 60_000,
        message: "still working 60 s after every other agent was done",
      },
      { type: "round-end", agentId: "slow", round: 1, outcome: "aborted", durationMs: 60_000 },
    ]);
    const state = replay(events);
    const slow = state.agents.find((agent) => agent.id === "slow")!;
    expect(slow.status).toBe("removed");
    expect(slow.lastError).toMatchObject({ fatal: true, round: 1 });
    expect(slow.lastError?.message).toContain("60 s after every other agent");
    const { traceText } = await import("../ui/plain/index.js");
    expect(traceText(events).split("\n")).toContain(
      "[orchestrator] slow cut: still working 60 s after every other agent was done",
    );
  });
});
