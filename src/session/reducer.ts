/**
 * The one reducer (docs/architecture.md "One stream", CONTRIBUTING.md rule 3): folds the
 * CoordEvent stream into the view model every consumer shares — the terminal UI, the web UI, the
 * viewer's replay, `coord logs`, and the log writer's status.json / metrics.json.
 *
 * Pure and cheap: no clock, no IO; `reduceRun` never mutates its input and copies only what an
 * event touches (the top-level state, the agents array and the one agent; append-only arrays are
 * copied only on the rare events that grow them), so replaying thousands of events from a
 * 50-agent run stays linear.
 *
 * This module is the dispatch: each event type has one reducer in {@link REDUCERS}, written per
 * event family as the events are (`events/*-events.ts`): the run's own events in reduce-run.ts, an
 * agent's round in reduce-round.ts, answers, votes and the winner in reduce-answers.ts, the modes
 * beyond voting in reduce-modes.ts (plans in plan-state.ts), failures in reduce-failures.ts.
 *
 * The view model is in run-state.ts, the usage/round/tool counters in counters.ts, and its
 * status.json / metrics.json renderings in status-json.ts / metrics-json.ts; this module
 * re-exports them all.
 */
import type { CoordEvent, CoordEventType } from "../events/index.js";
import { answerReducers } from "./reduce-answers.js";
import { failureReducers } from "./reduce-failures.js";
import { modeReducers } from "./reduce-modes.js";
import { roundReducers } from "./reduce-round.js";
import { runReducers } from "./reduce-run.js";
import type { EventReducer, EventReducers } from "./reducer-table.js";
import { initialRunState, type RunState } from "./run-state.js";

export type { Counters, RoundCounts, ToolStats, UsageTotals } from "./counters.js";
export { costUsdOf } from "./counters.js";
export type { MetricsCountersJson, MetricsJson } from "./metrics-json.js";
export { toMetricsJson } from "./metrics-json.js";
export type {
  AgentErrorInfo,
  AgentState,
  AgentStatus,
  AnswerRecord,
  LimitRecord,
  RunPhase,
  RunState,
  VoteRecord,
  WarningRecord,
  WinnerGroup,
  WinnerInfo,
} from "./run-state.js";
export { initialRunState, STREAM_TEXT_CAP, wallTimeMs } from "./run-state.js";
export { agentIndexOf } from "./reducer-table.js";
export type { StatusAgentJson, StatusJson, UsageSummaryJson } from "./status-json.js";
export { SUMMARY_SCHEMA_VERSION, toStatusJson, usageSummaryJson } from "./status-json.js";

/** Feeds events, oldest first, through {@link reduceRun} from {@link initialRunState}. */
export function replay(events: Iterable<CoordEvent>): RunState {
  let state = initialRunState();
  for (const event of events) state = reduceRun(state, event);
  return state;
}

/**
 * Applies one event. Pure: returns a new state (sharing unchanged parts) and never mutates
 * `state`. Events about an agent not named in `run-start` still count in `totals`.
 */
export function reduceRun(state: RunState, event: CoordEvent): RunState {
  const at = Date.parse(event.time);
  const base: RunState = {
    ...state,
    lastSeq: event.seq,
    eventCount: state.eventCount + 1,
    lastEventAt: Number.isNaN(at) ? state.lastEventAt : at,
  };
  return applyEvent(base, event, Number.isNaN(at) ? (state.lastEventAt ?? 0) : at);
}

/**
 * The reducer of every event type. Typed so that a new event type without its reducer does not
 * compile; an event that changes nothing has `unchanged`.
 */
const REDUCERS: EventReducers<CoordEventType> = {
  ...runReducers,
  ...roundReducers,
  ...answerReducers,
  ...modeReducers,
  ...failureReducers,
};

function applyEvent(state: RunState, event: CoordEvent, at: number): RunState {
  // An unknown type (a log newer than this reader, bypassing its check) changes nothing.
  if (!Object.hasOwn(REDUCERS, event.type)) return state;
  // TypeScript cannot pair `event` with its own entry of the table; the table's type does.
  const reduce = REDUCERS[event.type] as EventReducer<CoordEventType>;
  return reduce(state, event, at);
}
