/**
 * What the failure events (`events/failure-events.ts`) do to the view model: an agent's last
 * error (and its removal when fatal or cut as a straggler), the budget limits reached, and the
 * retries counted.
 */
import { addRetry } from "./counters.js";
import { countFor, type FamilyReducers, updateAgent } from "./reducer-table.js";

/** The reducers of `agent-error`, `limit-reached`, `straggler-cut` and `retry`. */
export const failureReducers = {
  "agent-error": (state, event, at) => ({
    ...state,
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      status: event.fatal ? "removed" : "error",
      activeTool: null,
      lastError: {
        message: event.message,
        ...(event.provider === undefined ? {} : { provider: event.provider }),
        ...(event.status === undefined ? {} : { status: event.status }),
        retryable: event.retryable,
        fatal: event.fatal,
        ...(event.cause === undefined ? {} : { cause: event.cause }),
        round: event.round,
        time: at,
      },
    })),
  }),
  "limit-reached": (state, event) => ({
    ...state,
    limitsReached: [
      ...state.limitsReached,
      {
        scope: event.scope,
        limit: event.limit,
        used: event.used,
        max: event.max,
        agentId: event.agentId ?? null,
        message: event.message,
      },
    ],
  }),
  "straggler-cut": (state, event, at) => ({
    ...state,
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      status: "removed",
      activeTool: null,
      lastError: {
        message: event.message,
        retryable: false,
        fatal: true,
        round: event.round,
        time: at,
      },
    })),
  }),
  retry: (state, event) => countFor(state, event.agentId, (counters) => addRetry(counters, event)),
} satisfies FamilyReducers;
