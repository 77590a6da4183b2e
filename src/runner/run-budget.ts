/**
 * The run budget (docs/real-models.md "The run budget") from the config's `budget:` keys and the
 * run-level flags `--max-calls`, `--max-tokens`, `--max-cost`: the flags override the config, and
 * the result is the engine's `RunBudget` (src/engine/budget.ts), whose absent limits the engine
 * fills with its defaults (`defaultBudget`: a call cap that scales with the team), so every run is
 * bounded.
 */
import type { BudgetConfig, Config } from "../config/index.js";
import type { RunBudget } from "../engine/index.js";

/** The budget flags of a run; undefined when not given. Calls and tokens are counts, cost USD. */
export interface BudgetFlags {
  /** `--max-calls N`: overrides `budget.max_calls`. */
  maxCalls?: number | undefined;
  /** `--max-tokens N`: overrides `budget.max_tokens`. */
  maxTokens?: number | undefined;
  /** `--max-cost USD`: overrides `budget.max_cost_usd`. */
  maxCostUsd?: number | undefined;
}

/**
 * The config with the budget flags applied (run-level limits only; `budget.per_agent` is kept).
 * Without any flag the config is returned as is.
 */
export function withBudgetFlags(config: Config, flags: BudgetFlags): Config {
  if (
    flags.maxCalls === undefined &&
    flags.maxTokens === undefined &&
    flags.maxCostUsd === undefined
  )
    return config;
  return {
    ...config,
    budget: {
      ...config.budget,
      ...(flags.maxCalls !== undefined ? { max_calls: flags.maxCalls } : {}),
      ...(flags.maxTokens !== undefined ? { max_tokens: flags.maxTokens } : {}),
      ...(flags.maxCostUsd !== undefined ? { max_cost_usd: flags.maxCostUsd } : {}),
    },
  };
}

/** The engine's budget of a config: only the limits it sets (the engine defaults the others). */
export function runBudgetOf(budget: BudgetConfig): RunBudget {
  const perAgent = limitsOf(budget.per_agent);
  return {
    ...limitsOf(budget),
    ...(Object.keys(perAgent).length > 0 ? { perAgent } : {}),
  };
}

function limitsOf(limits: Omit<BudgetConfig, "per_agent">): RunBudget {
  return {
    ...(limits.max_calls !== undefined ? { maxCalls: limits.max_calls } : {}),
    ...(limits.max_tokens !== undefined ? { maxTokens: limits.max_tokens } : {}),
    ...(limits.max_cost_usd !== undefined ? { maxCostUsd: limits.max_cost_usd } : {}),
  };
}
