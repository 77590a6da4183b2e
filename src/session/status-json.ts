/**
 * status.json: the snapshot of a run the log writer rewrites while it goes on, rendered from the
 * reducer's {@link RunState} by {@link toStatusJson} (docs/architecture.md "Files on disk").
 */
import type { CoordinationMode, RunEndReason } from "../events/index.js";
import { costUsdOf, type UsageTotals } from "./counters.js";
import {
  wallTimeMs,
  type AgentStatus,
  type LimitRecord,
  type RunPhase,
  type RunState,
  type WinnerInfo,
} from "./run-state.js";
import { type WinnerGroupJson, winnerGroupsJson } from "./winner-view.js";

/** Version of the status.json and metrics.json shapes, written as `schema_version`. */
export const SUMMARY_SCHEMA_VERSION = 1;

/**
 * Tokens and cost of one agent or of the run, as status.json and metrics.json write them.
 * `tokens` are tokens (`total` = input + output; cached input is part of input, reasoning part
 * of output); `cost_usd` is USD, or `null` when unknown: `unpriced_model_calls` of the calls
 * had no price in the table (e.g. a self-hosted or unlisted model). Never a partial sum.
 * `model_calls` counts every request sent to a provider, failed ones and retries included;
 * `failed_model_calls` says how many of them failed (an HTTP error, the network, a timeout).
 */
export interface UsageSummaryJson {
  tokens: { input: number; output: number; reasoning: number; cached_input: number; total: number };
  model_calls: number;
  failed_model_calls: number;
  cost_usd: number | null;
  unpriced_model_calls: number;
}

/** The {@link UsageSummaryJson} of summed usage. Pure. */
export function usageSummaryJson(usage: UsageTotals): UsageSummaryJson {
  return {
    tokens: {
      input: usage.inputTokens,
      output: usage.outputTokens,
      reasoning: usage.reasoningTokens,
      cached_input: usage.cachedInputTokens,
      total: usage.inputTokens + usage.outputTokens,
    },
    model_calls: usage.modelCalls,
    failed_model_calls: usage.failedCalls,
    cost_usd: costUsdOf(usage),
    unpriced_model_calls: usage.unpricedCalls,
  };
}

/** One agent in status.json; its tokens and cost so far are the {@link UsageSummaryJson} fields. */
export interface StatusAgentJson extends UsageSummaryJson {
  id: string;
  anon_id: string;
  backend: string;
  model: string;
  status: AgentStatus;
  /** Current 1-based round; 0 before the first. */
  round: number;
  answer_count: number;
  /** `agent<N>.<M>` or null. */
  current_answer: string | null;
  vote: { target_agent_id: string; target_anon_id: string; label: string; reason: string } | null;
  /** `cause`: provider, protocol (what the model did), budget or context; null in old logs. */
  last_error: {
    message: string;
    fatal: boolean;
    retryable: boolean;
    cause: string | null;
    round: number;
  } | null;
}

/**
 * A budget limit reached, as status.json, metrics.json and `coord --json` write it: `scope` run
 * (the run ended on it) or agent (`agent_id` was removed); `used` and `max` in the limit's unit
 * (model calls, tokens, or USD for `cost`).
 */
export interface LimitReachedJson {
  scope: LimitRecord["scope"];
  limit: LimitRecord["limit"];
  used: number;
  max: number;
  agent_id: string | null;
  message: string;
}

/** The {@link LimitReachedJson} list of a state, oldest first. Pure. */
export function limitsReachedJson(state: RunState): LimitReachedJson[] {
  return state.limitsReached.map((limit) => ({
    scope: limit.scope,
    limit: limit.limit,
    used: limit.used,
    max: limit.max,
    agent_id: limit.agentId,
    message: limit.message,
  }));
}

/**
 * status.json: a snapshot of the run, rewritten atomically while it goes on.
 *
 * ```
 * { schema_version: 1, run_id: string|null, question: string, mode: string|null,
 *   phase: "starting"|"coordinating"|"presenting"|"done",
 *   started_at / updated_at / ended_at: ISO-8601 UTC | null  (updated_at = latest event),
 *   elapsed_ms: number (ms, see wallTimeMs), last_seq: number, event_count: number,
 *   end_reason: "completed"|"failed"|"timeout"|"interrupted"|null, error: string|null,
 *   degraded: string[] (why the answer or failure is degraded, one line each; [] when clean),
 *   limits_reached: LimitReachedJson[] (budget limits reached, oldest first),
 *   agents: StatusAgentJson[] (config order; each with tokens, model_calls, failed_model_calls,
 *     cost_usd (USD|null), unpriced_model_calls),
 *   totals: {tokens, model_calls, failed_model_calls, cost_usd, unpriced_model_calls} (the whole
 *     run; cost_usd null = unknown because some call had no price),
 *   answer_count: number, answers: [{label, agent_id, anon_id, round}] (oldest first, no content),
 *   votes: [{voter_id, voter_anon_id, target_agent_id, target_anon_id, label, reason}],
 *   vote_tally: {<real agent id>: votes}, votes_reset_count: number,
 *   winner: {agent_id, anon_id, label, votes, tally, tie_broken, basis, tie_basis (string|null),
 *     conclusion (string|null), groups: WinnerGroupJson[] (by conclusion, best first)} | null,
 *   presenter_id: string|null, final_answer_label: string|null, has_final_answer: boolean }
 * ```
 */
export interface StatusJson {
  schema_version: number;
  run_id: string | null;
  question: string;
  mode: CoordinationMode | null;
  phase: RunPhase;
  started_at: string | null;
  updated_at: string | null;
  ended_at: string | null;
  elapsed_ms: number;
  last_seq: number;
  event_count: number;
  end_reason: RunEndReason | null;
  error: string | null;
  degraded: string[];
  limits_reached: LimitReachedJson[];
  agents: StatusAgentJson[];
  /** Tokens and cost of the whole run (also counts calls not attributed to a known agent). */
  totals: UsageSummaryJson;
  answer_count: number;
  answers: { label: string; agent_id: string; anon_id: string; round: number }[];
  votes: {
    voter_id: string;
    voter_anon_id: string;
    target_agent_id: string;
    target_anon_id: string;
    label: string;
    reason: string;
  }[];
  vote_tally: Record<string, number>;
  votes_reset_count: number;
  winner: {
    agent_id: string | null;
    anon_id: string;
    label: string;
    votes: number;
    tally: Record<string, number>;
    tie_broken: boolean;
    basis: WinnerInfo["basis"];
    /** What broke a tie of the conclusion groups; null without a tie. */
    tie_basis: WinnerInfo["tieBasis"];
    /** The winning answer's conclusion; null for a free-form answer. */
    conclusion: string | null;
    /** The answers grouped by conclusion, best first (`./winner-view.ts`). */
    groups: WinnerGroupJson[];
  } | null;
  presenter_id: string | null;
  final_answer_label: string | null;
  has_final_answer: boolean;
}

/** The status.json object for a state (shape: {@link StatusJson}). Pure. */
export function toStatusJson(state: RunState): StatusJson {
  const tally: Record<string, number> = {};
  for (const vote of state.votes) {
    tally[vote.targetAgentId] =
      (Object.hasOwn(tally, vote.targetAgentId) ? tally[vote.targetAgentId]! : 0) + 1;
  }
  const winner = state.winner;
  return {
    schema_version: SUMMARY_SCHEMA_VERSION,
    run_id: state.runId,
    question: state.question,
    mode: state.mode,
    phase: state.phase,
    started_at: isoTime(state.startedAt),
    updated_at: isoTime(state.lastEventAt),
    ended_at: isoTime(state.endedAt),
    elapsed_ms: wallTimeMs(state),
    last_seq: state.lastSeq,
    event_count: state.eventCount,
    end_reason: state.endReason,
    error: state.error,
    degraded: [...state.degraded],
    limits_reached: limitsReachedJson(state),
    agents: state.agents.map((agent) => ({
      id: agent.id,
      anon_id: agent.anonId,
      backend: agent.backend,
      model: agent.model,
      status: agent.status,
      round: agent.round,
      answer_count: agent.answerCount,
      current_answer: agent.currentAnswerLabel,
      vote:
        agent.vote === null
          ? null
          : {
              target_agent_id: agent.vote.targetAgentId,
              target_anon_id: agent.vote.targetAnonId,
              label: agent.vote.label,
              reason: agent.vote.reason,
            },
      last_error:
        agent.lastError === null
          ? null
          : {
              message: agent.lastError.message,
              fatal: agent.lastError.fatal,
              retryable: agent.lastError.retryable,
              cause: agent.lastError.cause ?? null,
              round: agent.lastError.round,
            },
      ...usageSummaryJson(agent.counters.usage),
    })),
    totals: usageSummaryJson(state.totals.usage),
    answer_count: state.answers.length,
    answers: state.answers.map((answer) => ({
      label: answer.label,
      agent_id: answer.agentId,
      anon_id: answer.anonId,
      round: answer.round,
    })),
    votes: state.votes.map((vote) => ({
      voter_id: vote.voterId,
      voter_anon_id: vote.voterAnonId,
      target_agent_id: vote.targetAgentId,
      target_anon_id: vote.targetAnonId,
      label: vote.label,
      reason: vote.reason,
    })),
    vote_tally: tally,
    votes_reset_count: state.votesResetCount,
    winner:
      winner === null
        ? null
        : {
            agent_id: winner.agentId,
            anon_id: winner.anonId,
            label: winner.label,
            votes: winner.votes,
            tally: { ...winner.tally },
            tie_broken: winner.tieBroken,
            basis: winner.basis,
            tie_basis: winner.tieBasis,
            conclusion: winner.conclusion,
            groups: winnerGroupsJson(winner),
          },
    presenter_id: state.presenterId,
    final_answer_label: state.finalAnswerLabel,
    has_final_answer: state.finalAnswer !== null && state.finalAnswer !== "",
  };
}

function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}
