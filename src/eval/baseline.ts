/**
 * The self-consistency baseline of `coord eval` (docs/eval.md "Method"): which agent is sampled,
 * and k matched on the team's tokens, both from the runs of the first phase.
 */
import { agentRun, TEAM_RUN, type TeamShape } from "./plan.js";
import type { ResultsFile } from "./results-file.js";
import type { EvalItem, Scorer } from "./scorers.js";

/** Self-consistency's k matched on tokens is at most this many times k matched on calls. */
export const MAX_TOKEN_K_FACTOR = 3;

/** What the choice reads. */
export interface BaselineInputs {
  items: readonly EvalItem[];
  scorer: Scorer;
  team: TeamShape;
  results: Pick<ResultsFile, "runs">;
}

/**
 * The self-consistency agent: `--baseline-agent` when given; else, with a scorer that knows the
 * right answer, the agent with the most right answers alone on these items (ties: config order);
 * else the first agent.
 */
export function chooseBaseline(options: BaselineInputs): {
  id: string;
  source: "flag" | "best" | "first";
} {
  const { team, scorer, results, items } = options;
  if (team.baselineFromFlag === true) return { id: team.baselineId, source: "flag" };
  if (scorer.correct === undefined) return { id: team.agentIds[0]!, source: "first" };
  let best = { id: team.agentIds[0]!, right: -1 };
  for (const id of team.agentIds) {
    const stored = results.runs.get(agentRun(id));
    const right = items.filter((item) => {
      const record = stored?.get(item.id);
      return record !== undefined && scorer.correct!(record.answer, item);
    }).length;
    if (right > best.right) best = { id, right };
  }
  return { id: best.id, source: "best" };
}

/**
 * k matched on tokens: the team's mean tokens (input + output) per item over the agent's mean
 * tokens per single run, rounded, at least 1, at most {@link MAX_TOKEN_K_FACTOR} × k.
 * @returns null when either mean is not measured (no runs recorded).
 */
export function tokenMatchedK(
  options: Pick<BaselineInputs, "items" | "results">,
  baselineId: string,
  k: number,
): number | null {
  const meanTokens = (key: string) => {
    const stored = options.results.runs.get(key);
    const tokens = options.items.flatMap((item) => {
      const record = stored?.get(item.id);
      return record === undefined ? [] : [record.input_tokens + record.output_tokens];
    });
    return tokens.length === 0 ? 0 : tokens.reduce((a, b) => a + b, 0) / tokens.length;
  };
  const team = meanTokens(TEAM_RUN);
  const single = meanTokens(agentRun(baselineId));
  if (team === 0 || single === 0) return null;
  return Math.min(MAX_TOKEN_K_FACTOR * k, Math.max(1, Math.round(team / single)));
}
