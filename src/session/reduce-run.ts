/**
 * What the run's own events (`events/run-events.ts`) do to the view model: `run-start` names the
 * question and the team, `run-end` closes the run, `warning` and `workspace-snapshot` are listed.
 */
import type { EventOf } from "../events/index.js";
import { ZERO_COUNTERS } from "./counters.js";
import type { FamilyReducers } from "./reducer-table.js";
import type { AgentState, WarningRecord } from "./run-state.js";

/** The reducers of `run-start`, `workspace-snapshot`, `warning` and `run-end`. */
export const runReducers = {
  "run-start": (state, event, at) => ({
    ...state,
    runId: event.runId,
    question: event.question,
    mode: event.mode,
    historyTurns: event.historyTurns,
    startedAt: at,
    agents: event.agents.map((agent) => newAgent(agent)),
    agentIndex: Object.fromEntries(event.agents.map((agent, index) => [agent.id, index])),
  }),
  "workspace-snapshot": (state, event) => ({
    ...state,
    snapshots: [
      ...state.snapshots,
      {
        agentId: event.agentId ?? "",
        label: event.label,
        workspace: event.workspace,
        files: event.files,
        bytes: event.bytes,
        logPath: event.logPath ?? null,
      },
    ],
  }),
  warning: (state, event) => ({ ...state, warnings: addWarning(state.warnings, event) }),
  "run-end": (state, event, at) => ({
    ...state,
    phase: "done",
    endedAt: at,
    durationMs: event.durationMs,
    endReason: event.reason,
    error: event.error ?? null,
    degraded: event.degraded ?? [],
  }),
} satisfies FamilyReducers;

/** Adds a warning, or counts it again when the same source already said the same. */
function addWarning(
  warnings: readonly WarningRecord[],
  event: EventOf<"warning">,
): readonly WarningRecord[] {
  const index = warnings.findIndex(
    (warning) => warning.source === event.source && warning.message === event.message,
  );
  if (index < 0) {
    return [
      ...warnings,
      { source: event.source, message: event.message, agentId: event.agentId ?? null, count: 1 },
    ];
  }
  const updated = warnings.slice();
  updated[index] = { ...warnings[index]!, count: warnings[index]!.count + 1 };
  return updated;
}

function newAgent(info: EventOf<"run-start">["agents"][number]): AgentState {
  return {
    id: info.id,
    anonId: info.anonId,
    backend: info.backend,
    model: info.model,
    status: "waiting",
    round: 0,
    attempt: 0,
    roundKind: null,
    answerCount: 0,
    currentAnswerLabel: null,
    vote: null,
    stop: null,
    persona: null,
    subtask: null,
    text: "",
    reasoning: "",
    activeTool: null,
    lastError: null,
    counters: ZERO_COUNTERS,
  };
}
