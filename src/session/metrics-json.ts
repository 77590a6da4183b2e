/**
 * metrics.json: the usage summary the log writer writes when a run closes, rendered from the
 * reducer's {@link RunState} by {@link toMetricsJson} (docs/architecture.md "Files on disk").
 */
import type { CoordinationMode, RoundOutcome, RunEndReason } from "../events/index.js";
import type { Counters } from "./counters.js";
import { wallTimeMs, type AgentStatus, type RunState } from "./run-state.js";
import {
  limitsReachedJson,
  type LimitReachedJson,
  SUMMARY_SCHEMA_VERSION,
  usageSummaryJson,
  type UsageSummaryJson,
} from "./status-json.js";

/**
 * Counters of one agent or of the run, as written in metrics.json. From
 * {@link UsageSummaryJson}: `tokens` (tokens; `total` = input + output, cached input is part of
 * input and reasoning part of output: reported, not added), `model_calls` (every request sent,
 * failed ones and retries included) and `failed_model_calls` (those that failed), `cost_usd` (USD from
 * the price table, `null` = unknown because `unpriced_model_calls` calls had no price).
 */
export interface MetricsCountersJson extends UsageSummaryJson {
  /** Sum of model-call wall time, ms. */
  model_call_ms: number;
  /** Time to first token over the calls that reported it, ms; `mean_ms` null when count is 0. */
  time_to_first_token: { count: number; total_ms: number; mean_ms: number | null };
  /** Rounds by outcome, plus `total`. */
  rounds: Record<RoundOutcome | "total", number>;
  /** Sum of round wall time, ms. */
  round_ms: number;
  /** Per tool name: calls, failures (isError results), total and mean duration in ms. */
  tools: Record<string, { calls: number; failures: number; total_ms: number; mean_ms: number }>;
  tool_calls: number;
  tool_failures: number;
  /** Sum of tool durations, ms. */
  tool_ms: number;
  /**
   * Provider requests retried (`retry` events; each is also one of `failed_model_calls`) and the
   * sum of their waits, ms.
   */
  retries: { count: number; wait_ms: number };
}

/**
 * metrics.json: usage summary of a run.
 *
 * ```
 * { schema_version: 1, run_id: string|null, question: string, mode: string|null,
 *   end_reason: string|null, wall_time_ms: number (ms),
 *   degraded: string[] (why the answer or failure is degraded; [] when clean),
 *   limits_reached: [{ scope, limit, used, max, agent_id, message }] (budget limits reached),
 *   agents: [{ id, anon_id, backend, model, status, answers: number, ...MetricsCountersJson }],
 *   totals: MetricsCountersJson }
 * ```
 * Totals also count events not attributed to a known agent, so they are at least the sum of
 * the agents' figures (equal when every event names an agent).
 */
export interface MetricsJson {
  schema_version: number;
  run_id: string | null;
  question: string;
  mode: CoordinationMode | null;
  end_reason: RunEndReason | null;
  wall_time_ms: number;
  degraded: string[];
  limits_reached: LimitReachedJson[];
  agents: (MetricsCountersJson & {
    id: string;
    anon_id: string;
    backend: string;
    model: string;
    status: AgentStatus;
    answers: number;
  })[];
  totals: MetricsCountersJson;
}

/** The metrics.json object for a state (shape: {@link MetricsJson}). Pure. */
export function toMetricsJson(state: RunState): MetricsJson {
  return {
    schema_version: SUMMARY_SCHEMA_VERSION,
    run_id: state.runId,
    question: state.question,
    mode: state.mode,
    end_reason: state.endReason,
    wall_time_ms: wallTimeMs(state),
    degraded: [...state.degraded],
    limits_reached: limitsReachedJson(state),
    agents: state.agents.map((agent) => ({
      id: agent.id,
      anon_id: agent.anonId,
      backend: agent.backend,
      model: agent.model,
      status: agent.status,
      answers: agent.answerCount,
      ...countersJson(agent.counters),
    })),
    totals: countersJson(state.totals),
  };
}

function countersJson(counters: Counters): MetricsCountersJson {
  const { usage, rounds } = counters;
  const tools: MetricsCountersJson["tools"] = {};
  let toolCalls = 0;
  let toolFailures = 0;
  let toolMs = 0;
  for (const [name, stats] of Object.entries(counters.tools)) {
    tools[name] = {
      calls: stats.calls,
      failures: stats.failures,
      total_ms: stats.totalMs,
      mean_ms: stats.calls === 0 ? 0 : stats.totalMs / stats.calls,
    };
    toolCalls += stats.calls;
    toolFailures += stats.failures;
    toolMs += stats.totalMs;
  }
  let roundTotal = 0;
  for (const count of Object.values(rounds)) roundTotal += count;
  return {
    ...usageSummaryJson(usage),
    model_call_ms: usage.modelCallMs,
    time_to_first_token: {
      count: usage.ttftCount,
      total_ms: usage.ttftMsTotal,
      mean_ms: usage.ttftCount === 0 ? null : usage.ttftMsTotal / usage.ttftCount,
    },
    rounds: { ...rounds, total: roundTotal },
    round_ms: counters.roundMs,
    tools,
    tool_calls: toolCalls,
    tool_failures: toolFailures,
    tool_ms: toolMs,
    retries: { count: counters.retries, wait_ms: counters.retryWaitMs },
  };
}
