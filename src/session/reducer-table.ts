/**
 * The shape of the reducer's table (`./reducer.ts`): one pure function per event type, written
 * per event family in `./reduce-*.ts`, and the helpers those functions share to change one agent.
 */
import type { CoordEvent, CoordEventType, EventOf } from "../events/index.js";
import type { Counters } from "./counters.js";
import type { AgentState, RunState } from "./run-state.js";

/**
 * What one event type does to the state: pure, returns a new state sharing unchanged parts.
 * @param at the event's time (ms since the epoch), or the last valid one when its `time` is bad.
 */
export type EventReducer<T extends CoordEventType> = (
  state: RunState,
  event: EventOf<T>,
  at: number,
) => RunState;

/** One {@link EventReducer} for each event type of `T`. */
export type EventReducers<T extends CoordEventType> = { readonly [K in T]: EventReducer<K> };

/** The entries of one event family: checked against their event types, keys kept exact. */
export type FamilyReducers = Partial<EventReducers<CoordEventType>>;

/** The reducer of an event that changes nothing in the view model. */
export function unchanged(state: RunState, _event: CoordEvent): RunState {
  return state;
}

/** Index of a known agent, or undefined (own properties only, so "constructor" is not found). */
export function agentIndexOf(state: RunState, agentId: string | undefined): number | undefined {
  if (agentId === undefined || !Object.hasOwn(state.agentIndex, agentId)) return undefined;
  return state.agentIndex[agentId];
}

/**
 * The agents with one of them replaced by `update(agent)`; the same array when `agentId` is not
 * an agent of the run (an event about an unknown agent changes no agent).
 */
export function updateAgent(
  state: RunState,
  agentId: string | undefined,
  update: (agent: AgentState) => AgentState,
): readonly AgentState[] {
  const index = agentIndexOf(state, agentId);
  const agent = index === undefined ? undefined : state.agents[index];
  if (index === undefined || agent === undefined) return state.agents;
  const agents = state.agents.slice();
  agents[index] = update(agent);
  return agents;
}

/**
 * The state with `add` applied to the run's totals and to the agent's counters (a model call, a
 * tool result, a retry: each counts for both), and `patch` to that agent's other fields.
 */
export function countFor(
  state: RunState,
  agentId: string | undefined,
  add: (counters: Counters) => Counters,
  patch: (agent: AgentState) => Partial<AgentState> = () => ({}),
): RunState {
  return {
    ...state,
    totals: add(state.totals),
    agents: updateAgent(state, agentId, (agent) => ({
      ...agent,
      ...patch(agent),
      counters: add(agent.counters),
    })),
  };
}
