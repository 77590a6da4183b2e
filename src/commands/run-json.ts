/**
 * `coord --json "<question>"`: the run's result as one JSON object on stdout (as `claude -p
 * --output-format json` and `gemini --output-format json`), nothing else there. Built from the
 * run's state only (CONTRIBUTING.md rule 1).
 */
import { priceDataLabel } from "../backends/index.js";
import {
  limitsReachedJson,
  type LimitReachedJson,
  type RunState,
  wallTimeMs,
  type WinnerGroupJson,
  winnerGroupsJson,
} from "../session/index.js";

/** The JSON result of one run (docs/scripting.md "The JSON result of a run"). */
export interface RunResultJson {
  /** `completed`, `failed`, `timeout`, `interrupted` or `shutdown`. */
  status: string;
  /** The process exit code that goes with it. */
  exit_code: number;
  question: string;
  /** The final answer; null when the run ended without one. */
  answer: string | null;
  /** Why the run failed, when it did: the run's error, with advice that fits the cause. */
  error: string | null;
  /**
   * Why the answer (or the failure) is degraded, one line per reason: agents removed and what
   * their model did, a budget limit, the orchestrator timeout. Empty for a clean run; a run with
   * an answer keeps status `completed` and exit code 0.
   */
  degraded: string[];
  /** Budget limits reached: `scope` run (it ended the run) or agent (`agent_id` removed). */
  limits_reached: LimitReachedJson[];
  /** The coordination mode: voting, decomposition, single, quick. */
  mode: string | null;
  /**
   * The winning agent's real id and its answer label, with how it was chosen: `tie_basis` says
   * what broke a tie (null without one), `conclusion` is the winner's normalised conclusion (null
   * for a free-form answer) and `groups` the answers grouped by conclusion, best first
   * (docs/selection.md).
   */
  winner: {
    agent_id: string | null;
    label: string;
    votes: number;
    basis: string;
    tie_basis: string | null;
    conclusion: string | null;
    groups: WinnerGroupJson[];
  } | null;
  /** The valid votes on the last answer set. */
  votes: { voter: string; for: string; label: string; reason: string }[];
  agents: {
    id: string;
    backend: string;
    model: string;
    status: string;
    answers: number;
    error: string | null;
    /** What failed: `provider`, `protocol` (the model misbehaved), `budget` or `context`. */
    error_cause: string | null;
  }[];
  /**
   * Tokens, model calls and cost of the whole run (USD; `cost_complete` false when a model has no
   * price). `model_calls` is every request sent, failed ones and retries included;
   * `failed_model_calls` how many of them failed.
   */
  usage: {
    input_tokens: number;
    output_tokens: number;
    reasoning_tokens: number;
    cached_input_tokens: number;
    model_calls: number;
    failed_model_calls: number;
  };
  cost_usd: number;
  cost_complete: boolean;
  /**
   * The agents whose calls had no price (their model is not in the price data and the config
   * sets no `backend.pricing`): `calls` answered calls each, left out of `cost_usd`.
   */
  unpriced_models: { agent_id: string; backend: string; model: string; calls: number }[];
  /** Where the prices come from: `@pydantic/genai-prices 0.1.8` (the package and its version). */
  price_data: string;
  duration_ms: number;
  /** The run's log directory; null with `--no-logs`. */
  log_dir: string | null;
  /** The memory session (continue with `coord --session-id ID`). */
  session_id: string;
}

/** The JSON result of a finished run. */
export function runResultJson(
  state: RunState,
  context: { exitCode: number; logDir: string | undefined; sessionId: string; error?: string },
): RunResultJson {
  const usage = state.totals.usage;
  const reason = state.endReason ?? "failed";
  return {
    status: reason,
    exit_code: context.exitCode,
    question: state.question,
    answer: reason === "completed" ? state.finalAnswer : null,
    error: context.error ?? null,
    degraded: [...state.degraded],
    limits_reached: limitsReachedJson(state),
    mode: state.mode,
    winner: state.winner && {
      agent_id: state.winner.agentId,
      label: state.winner.label,
      votes: state.winner.votes,
      basis: state.winner.basis,
      tie_basis: state.winner.tieBroken ? (state.winner.tieBasis ?? "config order") : null,
      conclusion: state.winner.conclusion ?? null,
      groups: winnerGroupsJson(state.winner),
    },
    votes: state.votes.map((vote) => ({
      voter: vote.voterId,
      for: vote.targetAgentId,
      label: vote.label,
      reason: vote.reason,
    })),
    agents: state.agents.map((agent) => ({
      id: agent.id,
      backend: agent.backend,
      model: agent.model,
      status: agent.status,
      answers: agent.answerCount,
      error: agent.lastError?.message ?? null,
      error_cause: agent.lastError ? (agent.lastError.cause ?? "provider") : null,
    })),
    usage: {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      reasoning_tokens: usage.reasoningTokens,
      cached_input_tokens: usage.cachedInputTokens,
      model_calls: usage.modelCalls,
      failed_model_calls: usage.failedCalls,
    },
    cost_usd: usage.pricedCostUsd,
    cost_complete: usage.unpricedCalls === 0,
    unpriced_models: state.agents
      .filter((agent) => agent.counters.usage.unpricedCalls > 0)
      .map((agent) => ({
        agent_id: agent.id,
        backend: agent.backend,
        model: agent.model,
        calls: agent.counters.usage.unpricedCalls,
      })),
    price_data: priceDataLabel(),
    duration_ms: wallTimeMs(state),
    log_dir: context.logDir ?? null,
    session_id: context.sessionId,
  };
}
