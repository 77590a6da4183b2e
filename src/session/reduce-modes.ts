/**
 * What the events of the modes beyond voting (`events/mode-events.ts`) do to the view model: an
 * agent's persona, subtask and stop; the plans, questions and tasks go to `./plan-state.ts`.
 */
import { applyPlanEvent } from "./plan-state.js";
import { type FamilyReducers, updateAgent } from "./reducer-table.js";

/** The reducers of `stop`, `subtask`, the planning and execution events, and `persona`. */
export const modeReducers = {
  stop: (state, event) => ({
    ...state,
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      status: "stopped",
      stop: { status: event.status, summary: event.summary },
    })),
  }),
  subtask: (state, event) => ({
    ...state,
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      subtask: { text: event.subtask, source: event.source },
    })),
  }),
  plan: applyPlanEvent,
  "broadcast-question": applyPlanEvent,
  "broadcast-reply": applyPlanEvent,
  "plan-execution": applyPlanEvent,
  "task-status": applyPlanEvent,
  "task-added": applyPlanEvent,
  persona: (state, event) => ({
    ...state,
    agents: updateAgent(state, event.agentId, (agent) => ({ ...agent, persona: event.persona })),
  }),
} satisfies FamilyReducers;
