/**
 * The cost estimate `coord eval` shows before it starts (docs/eval.md "Cost"): model calls and
 * tokens of the runs still to do, priced by the price table (src/backends/pricing.ts). It is a
 * rough guide, not a quote: it assumes agents agree at once (every agent answers once and votes
 * once — or, in decomposition, stops once after a decomposer call —, one presents), answers of {@link ASSUMED_ANSWER_TOKENS} tokens (or the agent's
 * `max_tokens` when smaller) and {@link PROMPT_OVERHEAD_TOKENS} tokens of instructions and tool
 * schemas per call, and ≈ 4 characters per token. Hidden reasoning tokens are not counted, so
 * for reasoning models it is a lower bound. A model with no price makes the cost unknown (its
 * tokens are still shown), never a guessed number.
 */
import type { Config } from "../config/index.js";
import type { ModeChoice } from "../runner/index.js";

/** Tokens of coordination instructions and tool schemas assumed per call. */
export const PROMPT_OVERHEAD_TOKENS = 350;
/** Tokens assumed per answer (or final presentation), unless `max_tokens` is smaller. */
export const ASSUMED_ANSWER_TOKENS = 400;
/** Tokens assumed per vote and per judge verdict. */
const SHORT_REPLY_TOKENS = 40;

/** One run still to do. */
export interface PlannedRun {
  mode: ModeChoice["mode"];
  agentIndexes: readonly number[];
  question: string;
}

/** One judge call still to do (estimated). */
export interface PlannedJudgement {
  question: string;
  reference: string;
}

/** Token usage of one call, as the price table takes it. */
interface CallTokens {
  inputTokens: number;
  outputTokens: number;
}

/** A priced usage: the price table's arithmetic, injected (src/backends/pricing.ts). */
export interface Pricing {
  /** USD of one call's usage for this agent's backend and model; undefined when it has no price. */
  costOf(agent: Config["agents"][number], usage: CallTokens): number | undefined;
}

/** The estimate. */
export interface CostEstimate {
  runs: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD; null when some agent in the plan has no price. */
  costUsd: number | null;
  /** Agents with no price in the table: team agents by id, the judge as `judge <id>`. */
  unpriced: string[];
}

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/**
 * Estimates the calls, tokens and cost of the planned runs and judge calls.
 * @param judgeConfig the judge's config, when judging; its first agent is assumed to answer.
 */
export function estimateCost(options: {
  config: Config;
  runs: readonly PlannedRun[];
  judgeConfig?: Config | undefined;
  judgements?: readonly PlannedJudgement[];
  pricing: Pricing;
}): CostEstimate {
  const totals = { calls: 0, inputTokens: 0, outputTokens: 0, cost: 0 as number | null };
  const unpriced = new Set<string>();
  const charge = (agent: Config["agents"][number], usage: CallTokens, label = agent.id) => {
    totals.calls++;
    totals.inputTokens += usage.inputTokens;
    totals.outputTokens += usage.outputTokens;
    const cost = options.pricing.costOf(agent, usage);
    if (cost === undefined) {
      unpriced.add(label);
      totals.cost = null;
    } else if (totals.cost !== null) {
      totals.cost += cost;
    }
  };
  const answerTokens = (agent: Config["agents"][number]) =>
    Math.min(ASSUMED_ANSWER_TOKENS, agent.backend.max_tokens ?? ASSUMED_ANSWER_TOKENS);

  for (const run of options.runs) {
    const agents = run.agentIndexes.map((index) => options.config.agents[index]!);
    const prompt = PROMPT_OVERHEAD_TOKENS + tokensOf(run.question);
    const answers = agents.reduce((sum, agent) => sum + answerTokens(agent), 0);
    for (const agent of agents)
      charge(agent, { inputTokens: prompt, outputTokens: answerTokens(agent) });
    if (run.mode === "single") continue;
    // Voting: every agent votes; decomposition: a decomposer call splits the question, and
    // every agent ends with a stop. Quick: neither.
    const judged = run.mode === "voting" || run.mode === "decomposition";
    if (run.mode === "decomposition")
      charge(agents[0]!, { inputTokens: prompt, outputTokens: SHORT_REPLY_TOKENS * agents.length });
    if (judged) {
      for (const agent of agents)
        charge(agent, { inputTokens: prompt + answers, outputTokens: SHORT_REPLY_TOKENS });
    }
    const presenter = agents[0]!;
    const votes = judged ? agents.length * SHORT_REPLY_TOKENS : 0;
    charge(presenter, {
      inputTokens: prompt + answers + votes,
      outputTokens: answerTokens(presenter),
    });
  }
  const judge = options.judgeConfig?.agents[0];
  if (judge !== undefined) {
    for (const judgement of options.judgements ?? []) {
      charge(
        judge,
        {
          inputTokens:
            PROMPT_OVERHEAD_TOKENS +
            tokensOf(judgement.question) +
            tokensOf(judgement.reference) +
            ASSUMED_ANSWER_TOKENS,
          outputTokens: SHORT_REPLY_TOKENS,
        },
        `judge ${judge.id}`,
      );
    }
  }
  return {
    runs: options.runs.length,
    calls: totals.calls,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    costUsd: totals.cost,
    unpriced: [...unpriced],
  };
}
