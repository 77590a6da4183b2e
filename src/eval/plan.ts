/**
 * What `coord eval` runs per item, named by run keys (the `run` field of results.jsonl), and how
 * self-consistency's k is matched to the team's model calls (docs/eval.md "Method"):
 *
 * - `team`: the team as configured (voting or decomposition mode);
 * - `quick`: the team with `--quick` (one answer each, a presenter), with `--with-quick`;
 * - `agent:<id>`: one agent alone (`--single-agent <id>` semantics), for every agent of the team;
 * - `sc:<id>:<n>`: the n-th independent single-agent answer of the baseline agent, n = 2…k; the
 *   first sample is that agent's `agent:<id>` run.
 *
 * Self-consistency majority-votes k answers; k is the team's mean model calls per item, rounded
 * (at least 1), so both spend the same number of calls (Wang et al. 2022, arXiv:2203.11171).
 */
import type { ModeChoice } from "../runner/index.js";
import type { RunRecord } from "./results-file.js";

/** The run key of the team. */
export const TEAM_RUN = "team";
/** The run key of the team with `--quick`. */
export const QUICK_RUN = "quick";

/** The run key of one agent alone. */
export function agentRun(agentId: string): string {
  return `agent:${agentId}`;
}

/** The run key of the n-th (1-based) self-consistency sample of an agent: the first is `agent:<id>`. */
export function sampleRun(agentId: string, n: number): string {
  return n === 1 ? agentRun(agentId) : `sc:${agentId}:${n}`;
}

/** The coordination modes of a team the eval compares: the config's `coordination_mode`. */
export type TeamMode = "voting" | "decomposition";

/** How one run is started: the coordination mode and the agents (indexes into the config). */
export interface RunSpec {
  key: string;
  mode: ModeChoice["mode"];
  agentIndexes: number[];
  /** The folder of its logs under `<eval dir>/logs/`. */
  logGroup: string;
  /**
   * Rough model calls, for the cost estimate and the ETA (voting: every agent answers and votes,
   * one presents; decomposition: a decomposer call, then every agent answers and stops, one
   * integrates).
   */
  expectedCalls: number;
}

/** The team as the eval sees it. */
export interface TeamShape {
  /** How the team coordinates (the config's `orchestrator.coordination_mode`). */
  mode: TeamMode;
  /** Agent ids in config order. */
  agentIds: readonly string[];
  /**
   * The self-consistency agent's id: `--baseline-agent`, else the first until the agents alone
   * are scored, then the best of them (src/eval/run-eval.ts `chooseBaseline`).
   */
  baselineId: string;
  /** True when `--baseline-agent` named it. */
  baselineFromFlag?: boolean;
  withQuick: boolean;
}

/** The runs every item gets before k is known: the team, the quick team, every agent alone. */
export function firstPhaseRuns(team: TeamShape): RunSpec[] {
  const all = team.agentIds.map((_, index) => index);
  const n = team.agentIds.length;
  const runs: RunSpec[] = [
    {
      key: TEAM_RUN,
      mode: team.mode,
      agentIndexes: all,
      logGroup: "team",
      expectedCalls: team.mode === "decomposition" ? 2 * n + 2 : 2 * n + 1,
    },
  ];
  if (team.withQuick)
    runs.push({
      key: QUICK_RUN,
      mode: "quick",
      agentIndexes: all,
      logGroup: "quick",
      expectedCalls: n + 1,
    });
  for (const [index, id] of team.agentIds.entries())
    runs.push({
      key: agentRun(id),
      mode: "single",
      agentIndexes: [index],
      logGroup: `agent-${id}`,
      expectedCalls: 1,
    });
  return runs;
}

/** The self-consistency samples 2…k of the baseline agent. */
export function samplingRuns(team: TeamShape, k: number): RunSpec[] {
  const index = team.agentIds.indexOf(team.baselineId);
  const runs: RunSpec[] = [];
  for (let n = 2; n <= k; n++)
    runs.push({
      key: sampleRun(team.baselineId, n),
      mode: "single",
      agentIndexes: [index],
      logGroup: `sc-${team.baselineId}`,
      expectedCalls: 1,
    });
  return runs;
}

/**
 * k matched to the team: its mean model calls per item over the given items' recorded team runs,
 * rounded to the nearest whole number, at least 1.
 * @returns k and the mean it came from; undefined when no team run is recorded.
 */
export function matchedK(
  teamRuns: ReadonlyMap<string, RunRecord> | undefined,
  itemIds: readonly string[],
): { k: number; teamCallsPerItem: number } | undefined {
  const calls = itemIds.flatMap((id) => {
    const record = teamRuns?.get(id);
    return record === undefined ? [] : [record.calls];
  });
  if (calls.length === 0) return undefined;
  const mean = calls.reduce((sum, value) => sum + value, 0) / calls.length;
  return { k: Math.max(1, Math.round(mean)), teamCallsPerItem: mean };
}

/**
 * The winner of a majority vote over answers' keys (null keys abstain): the key given most
 * often; a tie goes to the key that appeared first.
 * @returns the winning key and the index of its first occurrence; nulls when every key is null.
 */
export function majorityVote(keys: readonly (string | null)[]): {
  key: string | null;
  index: number | null;
  votes: number;
} {
  const counts = new Map<string, { votes: number; first: number }>();
  for (const [index, key] of keys.entries()) {
    if (key === null) continue;
    const entry = counts.get(key);
    if (entry) entry.votes++;
    else counts.set(key, { votes: 1, first: index });
  }
  let best: { key: string; votes: number; first: number } | undefined;
  for (const [key, entry] of counts) {
    if (best === undefined || entry.votes > best.votes) best = { key, ...entry };
  }
  return best === undefined
    ? { key: null, index: null, votes: 0 }
    : { key: best.key, index: best.first, votes: best.votes };
}
