/**
 * Run states for component tests, built the only way states are built: by feeding events to the
 * shared reducer (CONTRIBUTING.md rule 3). `teamState(n)` starts a run of `n` agents; `step`
 * applies event bodies with a fixed clock (1 s apart from 2025-01-01T00:00:00Z), stamped by the one
 * test event builder (test/support/events.ts).
 */
import type { CoordinationMode, EventBody } from "../../events/index.js";
import { initialRunState, reduceRun, type RunState } from "../../session/index.js";
import { eventOf } from "../../../test/support/events.js";

const START = Date.parse("2025-01-01T00:00:00.000Z");

/** Applies event bodies to `state` (seq and time continue from it). */
export function step(state: RunState, ...bodies: EventBody[]): RunState {
  let next = state;
  for (const body of bodies) {
    const event = eventOf(body, next.lastSeq + 1, {
      start: START,
      stepMs: 1000,
      runId: "log_20250101_000000",
    });
    next = reduceRun(next, event);
  }
  return next;
}

/** Agent ids of {@link teamState}: alice, bob, carol, then agent_4, agent_5, … */
export function agentIds(count: number): string[] {
  const names = ["alice", "bob", "carol"];
  return Array.from({ length: count }, (_, index) => names[index] ?? `agent_${index + 1}`);
}

/** A run of `count` agents (voting unless `mode` says otherwise), every agent in round 1. */
export function teamState(
  count: number,
  options: { historyTurns?: number; mode?: CoordinationMode } = {},
): RunState {
  const ids = agentIds(count);
  return step(
    initialRunState(),
    {
      type: "run-start",
      question: "What is 2+2?",
      mode: options.mode ?? "voting",
      historyTurns: options.historyTurns ?? 0,
      agents: ids.map((id, index) => ({
        id,
        anonId: `agent${index + 1}`,
        backend: "openai",
        model: index % 2 === 0 ? "gpt-4o" : "gpt-4o-mini",
      })),
    },
    ...ids.map((id): EventBody => ({
      type: "round-start",
      agentId: id,
      round: 1,
      attempt: 1,
      kind: "coordinate",
      answersSeen: [],
    })),
  );
}

/** `agentId` answers `content` (label `agent<N>.1`, N its position). */
export function answered(state: RunState, agentId: string, content: string): RunState {
  const index = state.agentIndex[agentId]!;
  return step(
    state,
    {
      type: "answer",
      agentId,
      round: 1,
      label: `agent${index + 1}.1`,
      anonId: `agent${index + 1}`,
      content,
    },
    { type: "round-end", agentId, round: 1, outcome: "answer", durationMs: 1000 },
  );
}

/** `voter` votes for `target`'s first answer. */
export function voted(state: RunState, voter: string, target: string, reason: string): RunState {
  const index = state.agentIndex[target]!;
  return step(state, {
    type: "vote",
    agentId: voter,
    round: 2,
    targetAgentId: target,
    targetAnonId: `agent${index + 1}`,
    label: `agent${index + 1}.1`,
    reason,
  });
}
