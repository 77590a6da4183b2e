/**
 * `coord logs summary` as plain data (spec section 4.2): what one attempt of a run asked, who
 * won, what it cost, where the time went. Every number comes from the reducer's replay of the
 * attempt's events rendered by `toMetricsJson` — the function that wrote the run's metrics.json —
 * so the summary and metrics.json cannot disagree (CONTRIBUTING.md rule 3). The one figure the
 * reducer does not keep, refused votes, is a count of `vote-refused` events.
 *
 * The JSON form (`--json`) is exactly {@link LogsSummaryJson}; docs/logs.md documents it.
 */
import type { CoordEvent, RunEndReason } from "../events/index.js";
import {
  chunkProgress,
  limitsReachedJson,
  type LimitReachedJson,
  type MetricsCountersJson,
  type MetricsJson,
  type RunState,
  toMetricsJson,
  type WinnerGroupJson,
  winnerGroupsJson,
} from "../session/index.js";
import type { RunLog } from "../store/index.js";
import type { SelectedRun } from "./select-run.js";
import { sortTools, type ToolRowJson } from "./tool-breakdown.js";
import { LOGS_JSON_VERSION } from "./version.js";

/** How many tools the summary lists (the full table is `coord logs tools`). */
export const TOP_TOOLS = 5;

/** `run-end.reason`, or `incomplete` when the attempt has no `run-end` (crashed or running). */
export type RunStatus = RunEndReason | "incomplete";

/** Rounds by outcome (`round-end.outcome`, as in metrics.json) plus refused votes. */
export interface RoundsJson {
  answer: number;
  vote: number;
  stop: number;
  invalid: number;
  error: number;
  /** Rounds cut short by the orchestrator timeout, an interrupt or the run's end. */
  aborted: number;
  final: number;
  /** Planning calls before coordination (the decomposer, the persona generator). */
  plan: number;
  total: number;
  /** `vote-refused` events: votes on a stale answer set (the round went on). */
  vote_refused: number;
}

/** Token counts (tokens) as in metrics.json: `total` = input + output. */
export interface TokensJson {
  input: number;
  output: number;
  reasoning: number;
  cached_input: number;
  total: number;
}

/** One agent of the summary. */
export interface SummaryAgentJson {
  id: string;
  anon_id: string;
  backend: string;
  model: string;
  /** The reducer's last status (`removed` = dropped after repeated errors). */
  status: string;
  answers: number;
  rounds: RoundsJson;
  tokens: TokensJson;
  /** Every request sent to a provider, failed ones and retries included. */
  model_calls: number;
  /** Of `model_calls`, the requests that failed (HTTP error, network, timeout; retries included). */
  failed_model_calls: number;
  /** USD; null = unknown (no price for some call, or a log from before prices). */
  cost_usd: number | null;
  /** Provider requests retried and the sum of their waits (ms). */
  retries: { count: number; wait_ms: number };
  /** The agent's last error message, if any. */
  last_error: string | null;
  /** What failed: `provider`, `protocol` (the model misbehaved), `budget` or `context`; null without an error. */
  last_error_cause: string | null;
  /** Decomposition mode: the agent's subtask and where it came from (`config`, `decomposer`, `fallback`). */
  subtask: { text: string; source: string } | null;
  /** Decomposition mode: the agent's last `stop`, unless it worked again after it. */
  stop: { status: "complete" | "blocked"; summary: string } | null;
  /** The persona the agent ran with, if any. */
  persona: string | null;
}

/** Model-call timing of one backend and model (agents sharing both are grouped). */
export interface ModelCallTimingJson {
  backend: string;
  model: string;
  /** Agent ids using it, in config order. */
  agents: string[];
  calls: number;
  /** Sum and mean of the calls' wall time, ms; mean null without calls. */
  total_ms: number;
  mean_ms: number | null;
  /** Time to first token over the calls that reported one, ms. */
  time_to_first_token: { count: number; mean_ms: number | null };
}

/**
 * `coord logs summary --json`.
 *
 * Paths are absolute; times ISO-8601 UTC from the events; durations ms.
 */
export interface LogsSummaryJson {
  version: number;
  log_dir: string;
  attempt_dir: string;
  turn: number;
  attempt: number;
  turns: number[];
  attempts: number[];
  run_id: string | null;
  /** The run's OpenTelemetry trace id when it was traced (execution_metadata.yaml), else null. */
  trace_id: string | null;
  /**
   * Where the run's costs were priced from (execution_metadata.yaml `price_data`, e.g.
   * `@pydantic/genai-prices 0.1.8`); absent for logs written before it was recorded.
   */
  price_data?: string;
  question: string;
  mode: string | null;
  status: RunStatus;
  /** `run-end.error`. */
  error: string | null;
  /** Why the answer (or failure) is degraded, one line per reason (`run-end.degraded`); [] when clean. */
  degraded: string[];
  /** Budget limits reached, oldest first. */
  limits_reached: LimitReachedJson[];
  /** True when events.jsonl ends in a cut-off line (the run crashed while writing). */
  truncated: boolean;
  started_at: string | null;
  ended_at: string | null;
  /** `run-end.durationMs`, else first to last event. */
  duration_ms: number;
  event_count: number;
  winner: {
    agent_id: string | null;
    anon_id: string;
    label: string;
    votes: number;
    tie_broken: boolean;
    basis: string;
    /** What broke a tie of the conclusion groups (`first answers`, …); null without a tie. */
    tie_basis: string | null;
    /** The winning answer's conclusion (`18`, `B`); null for a free-form answer. */
    conclusion: string | null;
    /** The answers grouped by conclusion, best first; [] when the log has none. */
    groups: WinnerGroupJson[];
  } | null;
  final_answer: { label: string | null; source: string | null; characters: number } | null;
  agents: SummaryAgentJson[];
  totals: Omit<
    SummaryAgentJson,
    | "id"
    | "anon_id"
    | "backend"
    | "model"
    | "status"
    | "last_error"
    | "last_error_cause"
    | "subtask"
    | "stop"
    | "persona"
  >;
  /** The {@link TOP_TOOLS} tools with the most execution time. */
  top_tools: ToolRowJson[];
  tool_totals: { calls: number; failures: number; total_ms: number };
  model_call_timing: ModelCallTimingJson[];
  /** Distinct `warning` events: who warned, what, how many times. */
  warnings: Array<{ source: string; message: string; agent_id: string | null; count: number }>;
  /** Planning and execution runs (docs/planning.md); null in the other modes. */
  plan: PlanSummaryJson | null;
}

/** A planning or execution run in `coord logs summary`. */
export interface PlanSummaryJson {
  /** Plans accepted during the run (planning mode). */
  plans_submitted: number;
  /** Tasks of the winning plan (planning mode, once there is a winner). */
  winning_tasks: number | null;
  /** Questions asked with `ask_others` and how many got a reply. */
  questions: number;
  questions_answered: number;
  /** Execution mode: the plan, the chunk, and each agent's progress on the chunk. */
  execution: {
    plan_id: string;
    chunk: number;
    chunks: number;
    agents: Array<{ id: string; tasks: number; done: number; verified: number; added: number }>;
  } | null;
}

/**
 * Summarizes one attempt read by `readRunLog`. Pure.
 * @param log the attempt's events and the reducer's state.
 * @param where the attempt chosen and its sibling turns and attempts.
 */
export function summarizeRun(log: RunLog, where: SelectedRun): LogsSummaryJson {
  const { state } = log;
  const metrics = toMetricsJson(state);
  const refused = countVoteRefusals(log.events);
  const totalRefused = [...refused.values()].reduce((sum, count) => sum + count, 0);
  const winner = state.winner;
  return {
    version: LOGS_JSON_VERSION,
    log_dir: where.logDir,
    attempt_dir: where.attemptDir,
    turn: where.turn,
    attempt: where.attempt,
    turns: where.turns,
    attempts: where.attempts,
    run_id: state.runId,
    trace_id: log.traceId ?? null,
    ...(log.priceData !== undefined ? { price_data: log.priceData } : {}),
    question: state.question,
    mode: state.mode,
    status: state.endReason ?? "incomplete",
    error: state.error,
    degraded: [...state.degraded],
    limits_reached: limitsReachedJson(state),
    truncated: log.truncated,
    started_at: isoTime(state.startedAt),
    ended_at: isoTime(state.endedAt),
    duration_ms: metrics.wall_time_ms,
    event_count: state.eventCount,
    winner:
      winner === null
        ? null
        : {
            agent_id: winner.agentId,
            anon_id: winner.anonId,
            label: winner.label,
            votes: winner.votes,
            tie_broken: winner.tieBroken,
            basis: winner.basis,
            tie_basis: winner.tieBasis,
            conclusion: winner.conclusion,
            groups: winnerGroupsJson(winner),
          },
    final_answer:
      state.finalAnswer === null
        ? null
        : {
            label: state.finalAnswerLabel,
            source: state.finalAnswerSource,
            characters: state.finalAnswer.length,
          },
    agents: metrics.agents.map((agent, index) => ({
      id: agent.id,
      anon_id: agent.anon_id,
      backend: agent.backend,
      model: agent.model,
      status: agent.status,
      answers: agent.answers,
      ...countersPart(agent, refused.get(agent.id) ?? 0),
      last_error: state.agents[index]?.lastError?.message ?? null,
      last_error_cause: errorCause(state.agents[index]?.lastError),
      subtask: state.agents[index]?.subtask ?? null,
      stop: state.agents[index]?.stop ?? null,
      persona: state.agents[index]?.persona ?? null,
    })),
    totals: {
      answers: state.answers.length,
      ...countersPart(metrics.totals, totalRefused),
    },
    top_tools: sortTools(metrics.totals.tools, "time").slice(0, TOP_TOOLS),
    tool_totals: {
      calls: metrics.totals.tool_calls,
      failures: metrics.totals.tool_failures,
      total_ms: metrics.totals.tool_ms,
    },
    model_call_timing: modelCallTiming(metrics),
    warnings: state.warnings.map((warning) => ({
      source: warning.source,
      message: warning.message,
      agent_id: warning.agentId,
      count: warning.count,
    })),
    plan: planSummary(state),
  };
}

/** The planning part of the summary; null outside the planning and execution modes. */
export function planSummary(state: RunState): PlanSummaryJson | null {
  if (state.mode !== "planning" && state.mode !== "execution") return null;
  const winner = state.winner;
  const winning =
    winner === null ? undefined : state.plans.find((plan) => plan.label === winner.label);
  const execution = state.execution;
  return {
    plans_submitted: state.plans.length,
    winning_tasks: winning?.tasks.length ?? null,
    questions: state.questions.length,
    questions_answered: state.questions.filter((question) => question.replies.length > 0).length,
    execution:
      execution === null
        ? null
        : {
            plan_id: execution.planId,
            chunk: execution.chunk,
            chunks: execution.chunks,
            agents: state.agents.map((agent) => {
              const progress = chunkProgress(state, agent.id)!;
              return {
                id: agent.id,
                tasks: progress.total,
                done: progress.done,
                verified: progress.verified,
                added: progress.added,
              };
            }),
          },
  };
}

/** `vote-refused` events per real agent id. */
export function countVoteRefusals(events: readonly CoordEvent[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const event of events) {
    if (event.type !== "vote-refused") continue;
    const id = event.agentId ?? "";
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

function countersPart(counters: MetricsCountersJson, voteRefused: number) {
  return {
    rounds: { ...counters.rounds, vote_refused: voteRefused },
    tokens: { ...counters.tokens },
    model_calls: counters.model_calls,
    failed_model_calls: counters.failed_model_calls,
    cost_usd: counters.cost_usd,
    retries: { ...counters.retries },
  };
}

/**
 * Groups the agents' model-call counters by backend and model, in first-seen order. Calls the
 * reducer counted in the totals but not for a known agent form a last `(unattributed)` group.
 */
export function modelCallTiming(metrics: MetricsJson): ModelCallTimingJson[] {
  const groups = new Map<
    string,
    { backend: string; model: string; agents: string[]; calls: number; ms: number; ttft: number[] }
  >();
  const add = (backend: string, model: string, agentId: string | null, c: MetricsCountersJson) => {
    const key = `${backend}\u0000${model}`;
    const group = groups.get(key) ?? { backend, model, agents: [], calls: 0, ms: 0, ttft: [0, 0] };
    if (agentId !== null) group.agents.push(agentId);
    group.calls += c.model_calls;
    group.ms += c.model_call_ms;
    group.ttft[0]! += c.time_to_first_token.count;
    group.ttft[1]! += c.time_to_first_token.total_ms;
    groups.set(key, group);
  };
  for (const agent of metrics.agents) add(agent.backend, agent.model, agent.id, agent);
  const attributed = metrics.agents.reduce((sum, agent) => sum + agent.model_calls, 0);
  if (metrics.totals.model_calls > attributed) {
    const rest = metrics.totals;
    const sum = (pick: (c: MetricsCountersJson) => number) =>
      pick(rest) - metrics.agents.reduce((total, agent) => total + pick(agent), 0);
    add("(unattributed)", "", null, {
      ...rest,
      model_calls: sum((c) => c.model_calls),
      model_call_ms: sum((c) => c.model_call_ms),
      time_to_first_token: {
        count: sum((c) => c.time_to_first_token.count),
        total_ms: sum((c) => c.time_to_first_token.total_ms),
        mean_ms: null,
      },
    });
  }
  return [...groups.values()].map((group) => ({
    backend: group.backend,
    model: group.model,
    agents: group.agents,
    calls: group.calls,
    total_ms: group.ms,
    mean_ms: group.calls === 0 ? null : group.ms / group.calls,
    time_to_first_token: {
      count: group.ttft[0]!,
      mean_ms: group.ttft[0] === 0 ? null : group.ttft[1]! / group.ttft[0]!,
    },
  }));
}

/** An agent error's cause; a log from before causes existed names none: a provider's. */
function errorCause(error: RunState["agents"][number]["lastError"] | undefined): string | null {
  if (error === null || error === undefined) return null;
  return error.cause ?? "provider";
}

function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
