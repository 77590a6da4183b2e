/**
 * Usage, round, tool and retry counters of one agent or of the whole run, and the pure functions
 * that add one `usage`, `round-end`, `tool-result` or `retry` event to them (used by the reducer).
 *
 * Units: token counts are tokens, `*Ms` fields are milliseconds.
 */
import type { EventOf, RoundOutcome, Usage } from "../events/index.js";

/**
 * Model usage summed over calls. Tokens are tokens; `modelCallMs` and `ttftMsTotal` are ms;
 * `pricedCostUsd` is USD. A model call is every request sent to a provider: each `usage` event
 * (a failed request is one with `failed: true`) and each `retry` event (a failed request the
 * backend sent again), so failed calls are counted, and also apart in `failedCalls`.
 */
export interface UsageTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly cachedInputTokens: number;
  readonly modelCalls: number;
  /** Of {@link modelCalls}, the requests that failed: `usage` with `failed`, and `retry` events. */
  readonly failedCalls: number;
  /** Sum of the model calls' wall time. */
  readonly modelCallMs: number;
  /** Sum of time-to-first-token over the calls that reported one. */
  readonly ttftMsTotal: number;
  /** Number of calls that reported a time-to-first-token. */
  readonly ttftCount: number;
  /** USD summed over the calls that had a price (`usage.costUsd`). Not a total: see {@link costUsdOf}. */
  readonly pricedCostUsd: number;
  /**
   * Answered calls with no known price (no `usage.costUsd`): while > 0 the cost is unknown. A
   * failed request is not counted here: nothing was answered, so nothing is billed.
   */
  readonly unpricedCalls: number;
}

/** Rounds counted by how they ended (`round-end.outcome`). */
export type RoundCounts = Readonly<Record<RoundOutcome, number>>;

/** One tool's calls, counted when its `tool-result` arrives. `totalMs` in ms. */
export interface ToolStats {
  readonly calls: number;
  readonly failures: number;
  readonly totalMs: number;
}

/** Usage, rounds and tools of one agent or of the whole run. */
export interface Counters {
  readonly usage: UsageTotals;
  readonly rounds: RoundCounts;
  /** Sum of `round-end.durationMs`. */
  readonly roundMs: number;
  /** Per tool name, in first-seen order. */
  readonly tools: Readonly<Record<string, ToolStats>>;
  /** Provider requests retried (`retry` events). */
  readonly retries: number;
  /** Sum of the retries' waits, ms. */
  readonly retryWaitMs: number;
}

const ZERO_USAGE: UsageTotals = {
  inputTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
  cachedInputTokens: 0,
  modelCalls: 0,
  failedCalls: 0,
  modelCallMs: 0,
  ttftMsTotal: 0,
  ttftCount: 0,
  pricedCostUsd: 0,
  unpricedCalls: 0,
};
const ZERO_ROUNDS: RoundCounts = {
  answer: 0,
  vote: 0,
  stop: 0,
  invalid: 0,
  error: 0,
  aborted: 0,
  final: 0,
  plan: 0,
};

/** Counters before any event. */
export const ZERO_COUNTERS: Counters = {
  usage: ZERO_USAGE,
  rounds: ZERO_ROUNDS,
  roundMs: 0,
  tools: {},
  retries: 0,
  retryWaitMs: 0,
};

/** Adds one model call (`usage` event), failed or not. */
export function addUsage(counters: Counters, event: EventOf<"usage">): Counters {
  const usage: Usage = event.usage;
  const total = counters.usage;
  const ttft = event.timeToFirstTokenMs;
  return {
    ...counters,
    usage: {
      inputTokens: total.inputTokens + usage.inputTokens,
      outputTokens: total.outputTokens + usage.outputTokens,
      reasoningTokens: total.reasoningTokens + usage.reasoningTokens,
      cachedInputTokens: total.cachedInputTokens + usage.cachedInputTokens,
      modelCalls: total.modelCalls + 1,
      failedCalls: total.failedCalls + (event.failed === true ? 1 : 0),
      modelCallMs: total.modelCallMs + event.durationMs,
      ttftMsTotal: total.ttftMsTotal + (ttft ?? 0),
      ttftCount: total.ttftCount + (ttft === undefined ? 0 : 1),
      pricedCostUsd: total.pricedCostUsd + (event.costUsd ?? 0),
      unpricedCalls:
        total.unpricedCalls + (event.costUsd === undefined && event.failed !== true ? 1 : 0),
    },
  };
}

/**
 * The cost in USD of the calls `usage` sums, or `null` when it is unknown: when any call had no
 * price. Never a partial sum presented as a total. 0 when there were no calls.
 */
export function costUsdOf(usage: UsageTotals): number | null {
  return usage.unpricedCalls > 0 ? null : usage.pricedCostUsd;
}

/** Adds one finished round (`round-end` event); `durationMs` in ms. */
export function addRound(counters: Counters, outcome: RoundOutcome, durationMs: number): Counters {
  return {
    ...counters,
    rounds: { ...counters.rounds, [outcome]: counters.rounds[outcome] + 1 },
    roundMs: counters.roundMs + durationMs,
  };
}

/** Adds one tool call (`tool-result` event) to its tool's stats. */
export function addTool(counters: Counters, event: EventOf<"tool-result">): Counters {
  const previous: ToolStats = Object.hasOwn(counters.tools, event.toolName)
    ? counters.tools[event.toolName]!
    : { calls: 0, failures: 0, totalMs: 0 };
  return {
    ...counters,
    tools: {
      ...counters.tools,
      [event.toolName]: {
        calls: previous.calls + 1,
        failures: previous.failures + (event.isError ? 1 : 0),
        totalMs: previous.totalMs + event.durationMs,
      },
    },
  };
}

/**
 * Adds one provider retry (`retry` event): one more failed model call (the request that failed
 * and is sent again); `waitMs` in ms.
 */
export function addRetry(counters: Counters, event: EventOf<"retry">): Counters {
  return {
    ...counters,
    usage: {
      ...counters.usage,
      modelCalls: counters.usage.modelCalls + 1,
      failedCalls: counters.usage.failedCalls + 1,
    },
    retries: counters.retries + 1,
    retryWaitMs: counters.retryWaitMs + event.waitMs,
  };
}
