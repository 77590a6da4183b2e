/**
 * What the events of an agent's round (`events/round-events.ts`) do to the view model: the
 * agent's status, round and attempt, its streamed text and reasoning (capped), the tool it is
 * running, and the counters of model calls, tools and rounds (the agent's and the run's totals).
 */
import type { AgentStatus } from "./run-state.js";
import type { RoundOutcome } from "../events/index.js";
import { addRound, addTool, addUsage } from "./counters.js";
import { countFor, type FamilyReducers, unchanged, updateAgent } from "./reducer-table.js";
import { STREAM_TEXT_CAP } from "./run-state.js";

/** The reducers of `round-start` to `round-end`. */
export const roundReducers = {
  "round-start": (state, event) => ({
    ...(state.phase === "starting" ? { ...state, phase: "coordinating" } : state),
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      status: event.kind === "final" ? "presenting" : "thinking",
      round: event.round,
      attempt: event.attempt,
      roundKind: event.kind,
      activeTool: null,
      // A new coordination round means the agent works again (woken from its stop).
      ...(event.kind === "coordinate" ? { stop: null } : {}),
      ...(event.attempt === 1 ? { text: "", reasoning: "" } : {}),
    })),
  }),
  "text-start": unchanged,
  "text-delta": (state, event) => ({
    ...state,
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      text: appendCapped(agent.text, event.text),
    })),
  }),
  "text-end": unchanged,
  "reasoning-start": unchanged,
  "reasoning-delta": (state, event) => ({
    ...state,
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      reasoning: appendCapped(agent.reasoning, event.text),
    })),
  }),
  "reasoning-end": unchanged,
  "tool-call": (state, event) => ({
    ...state,
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      activeTool: event.toolName,
      status: agent.status === "thinking" ? "tool" : agent.status,
    })),
  }),
  "tool-result": (state, event) =>
    countFor(
      state,
      event.agentId,
      (counters) => addTool(counters, event),
      (agent) => ({
        activeTool: null,
        status: agent.status === "tool" ? "thinking" : agent.status,
      }),
    ),
  "workflow-invalid": unchanged,
  "update-injected": unchanged,
  usage: (state, event) => countFor(state, event.agentId, (counters) => addUsage(counters, event)),
  "round-end": (state, event) =>
    countFor(
      state,
      event.agentId,
      (counters) => addRound(counters, event.outcome, event.durationMs),
      (agent) => ({
        activeTool: null,
        status: isActive(agent.status) ? statusAfterRound(event.outcome) : agent.status,
      }),
    ),
} satisfies FamilyReducers;

function isActive(status: AgentStatus): boolean {
  return status === "thinking" || status === "tool" || status === "presenting";
}

function statusAfterRound(outcome: RoundOutcome): AgentStatus {
  switch (outcome) {
    case "answer":
      return "answered";
    case "vote":
      return "voted";
    case "stop":
      return "stopped";
    case "final":
      return "done";
    case "plan":
      return "waiting";
    case "error":
      return "error";
    case "invalid":
    case "aborted":
      return "waiting";
  }
}

/** Appends and keeps the last {@link STREAM_TEXT_CAP} characters, never half a surrogate pair. */
function appendCapped(previous: string, text: string): string {
  const joined = previous + text;
  if (joined.length <= STREAM_TEXT_CAP) return joined;
  let start = joined.length - STREAM_TEXT_CAP;
  const code = joined.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start++;
  return joined.slice(start);
}
