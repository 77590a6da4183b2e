/**
 * The run budget (docs/real-models.md "The run budget"): the most model calls, tokens
 * and USD one run may spend, in all and per agent. Every run is bounded: when the config gives no
 * call limit, {@link defaultBudget} scales one with the team.
 *
 * The meter counts what the engine's own events say was spent: each `usage` event is one model
 * call (failed ones included, `usage.failed`), each `retry` event one more failed request sent;
 * tokens are input + output tokens of the `usage` events; cost is the sum of their `costUsd`.
 * Reaching a run limit ends coordination the way the orchestrator timeout does; reaching an
 * agent's limit removes that agent. A limit is checked after each call, so calls already in
 * flight (at most one per other agent) may still finish: a run sends at most
 * `maxCalls + agents − 1` requests.
 */
import type { EventBody, EventOf } from "../events/index.js";

/** Limits of one scope; an absent limit is unbounded. */
export interface BudgetLimits {
  /** Model calls (requests sent, failed ones and retries included). */
  maxCalls?: number | undefined;
  /** Tokens: input + output, as the providers report them. */
  maxTokens?: number | undefined;
  /** Cost in USD, from the price table; calls of unpriced models cost nothing here. */
  maxCostUsd?: number | undefined;
}

/** The run's limits and each agent's (config `budget:`, flags `--max-calls/--max-tokens/--max-cost`). */
export interface RunBudget extends BudgetLimits {
  /** Limits every agent has on its own (its rounds, not the presentation or planning calls). */
  perAgent?: BudgetLimits | undefined;
}

/** Model calls one agent may make by default: room for tool loops, bounded all the same. */
export const DEFAULT_CALLS_PER_AGENT = 40;
/** Calls added to the run's default for planning, personas and the presentation. */
export const DEFAULT_EXTRA_CALLS = 10;

/**
 * The budget of a run whose config sets none: `40 × agents + 10` model calls for the run and 40
 * per agent; no token or cost limit (set `budget.max_tokens` / `max_cost_usd` for paid models).
 * @param teamSize agents in the team (≥ 1).
 */
export function defaultBudget(teamSize: number): RunBudget {
  return {
    maxCalls: DEFAULT_CALLS_PER_AGENT * Math.max(1, teamSize) + DEFAULT_EXTRA_CALLS,
    perAgent: { maxCalls: DEFAULT_CALLS_PER_AGENT },
  };
}

/** The given budget with every absent call limit filled from {@link defaultBudget}. */
export function effectiveBudget(given: RunBudget | undefined, teamSize: number): RunBudget {
  const defaults = defaultBudget(teamSize);
  return {
    ...given,
    maxCalls: given?.maxCalls ?? defaults.maxCalls,
    perAgent: {
      ...given?.perAgent,
      maxCalls: given?.perAgent?.maxCalls ?? defaults.perAgent?.maxCalls,
    },
  };
}

type Limit = EventOf<"limit-reached">["limit"];

interface Spent {
  calls: number;
  tokens: number;
  costUsd: number;
}

const UNIT: Record<Limit, (n: number) => string> = {
  calls: (n) => `${n} model call${n === 1 ? "" : "s"}`,
  tokens: (n) => `${n.toLocaleString("en-US")} tokens`,
  cost: (n) => `$${n.toFixed(n < 1 ? 4 : 2)}`,
};

const KEY: Record<Limit, keyof BudgetLimits> = {
  calls: "maxCalls",
  tokens: "maxTokens",
  cost: "maxCostUsd",
};

const CONFIG_KEY: Record<Limit, string> = {
  calls: "max_calls",
  tokens: "max_tokens",
  cost: "max_cost_usd",
};

/** A limit that was reached: the `limit-reached` event's body. */
export type LimitReached = Extract<EventBody, { type: "limit-reached" }>;

/**
 * Counts a run's spending from its events and says when a limit is reached (once per scope).
 */
export class BudgetMeter {
  private readonly run: Spent = { calls: 0, tokens: 0, costUsd: 0 };
  private readonly agents = new Map<string, Spent>();
  private runReached = false;
  private readonly agentsReached = new Set<string>();

  constructor(private readonly budget: RunBudget) {}

  /**
   * Records one event; returns the limits it made reached (run first), each only once.
   * @param event any engine event; only `usage` and `retry` count.
   */
  record(event: EventBody): LimitReached[] {
    if (event.type !== "usage" && event.type !== "retry") return [];
    const calls = 1;
    const tokens = event.type === "usage" ? event.usage.inputTokens + event.usage.outputTokens : 0;
    const costUsd = event.type === "usage" ? (event.costUsd ?? 0) : 0;
    const add = (spent: Spent) => {
      spent.calls += calls;
      spent.tokens += tokens;
      spent.costUsd += costUsd;
    };
    add(this.run);
    const reached: LimitReached[] = [];
    if (!this.runReached) {
      const hit = this.check(this.run, this.budget);
      if (hit !== undefined) {
        this.runReached = true;
        reached.push(this.event("run", hit.limit, hit.used, hit.max));
      }
    }
    const agentId = event.agentId;
    if (agentId !== undefined) {
      const spent = this.agents.get(agentId) ?? { calls: 0, tokens: 0, costUsd: 0 };
      this.agents.set(agentId, spent);
      add(spent);
      if (!this.agentsReached.has(agentId) && this.budget.perAgent !== undefined) {
        const hit = this.check(spent, this.budget.perAgent);
        if (hit !== undefined) {
          this.agentsReached.add(agentId);
          reached.push(this.event("agent", hit.limit, hit.used, hit.max, agentId));
        }
      }
    }
    return reached;
  }

  /** True once a run limit was reached. */
  get exhausted(): boolean {
    return this.runReached;
  }

  private check(
    spent: Spent,
    limits: BudgetLimits,
  ): { limit: Limit; used: number; max: number } | undefined {
    const used: Record<Limit, number> = {
      calls: spent.calls,
      tokens: spent.tokens,
      cost: spent.costUsd,
    };
    for (const limit of ["calls", "tokens", "cost"] as const) {
      const max = limits[KEY[limit]];
      if (max !== undefined && used[limit] >= max) return { limit, used: used[limit], max };
    }
    return undefined;
  }

  private event(
    scope: "run" | "agent",
    limit: Limit,
    used: number,
    max: number,
    agentId?: string,
  ): LimitReached {
    const key =
      scope === "run" ? `budget.${CONFIG_KEY[limit]}` : `budget.per_agent.${CONFIG_KEY[limit]}`;
    const message =
      scope === "run"
        ? `the run's budget of ${UNIT[limit](max)} was reached (${key}); the best answer so far is presented`
        : `${agentId} reached its budget of ${UNIT[limit](max)} (${key}) and leaves the team`;
    return {
      type: "limit-reached",
      ...(agentId !== undefined ? { agentId } : {}),
      scope,
      limit,
      used,
      max,
      message,
    };
  }
}
