/**
 * The report of `coord eval` as data (`--json`, `<eval dir>/report.json`; docs/eval.md "How to
 * read the report"): per method its accuracy with a Wilson 95 % interval, McNemar's test paired
 * against the team on the same items, and its model calls, tokens, cost and wall time per item;
 * the agents' coverage; and the items where the methods disagree.
 *
 * The best single agent is the **oracle** choice — the agent with the most right answers on these
 * very items, an upper bound that peeks at the test items and is labelled so. (A leave-one-out
 * "held-out" choice was dropped: with agents of close strength it picks, item by item, the agent
 * that got that item wrong, and read far below every agent.) Self-consistency samples the best
 * agent alone by default (`self_consistency.agent_source`), matched to the team on calls and,
 * in a second row, on tokens.
 *
 * **Selection loss** (team runs that recorded their answers, scorers that know the right
 * answer): items where some answer the team accepted was right but the team's final answer was
 * wrong — `vote` when the winning answer was already wrong, `presentation` when the winning answer
 * was right and the presentation changed it.
 */
import { mcnemarTest, wilsonInterval } from "./stats.js";
import { baseOutcomes, type Outcome } from "./outcomes.js";
import type { TeamShape } from "./plan.js";
import type { ResultsFile } from "./results-file.js";
import type { EvalItem, Scorer } from "./scorers.js";
import { selectionLosses, type SelectionLoss } from "./selection-loss.js";

export type { SelectionLoss };

/** Version of the report's JSON shape. */
export const EVAL_REPORT_VERSION = 1;

/** What a row of the report is. */
export type MethodKind = "team" | "quick" | "agent" | "self-consistency" | "best-agent-oracle";

/** One method's row. Per-item figures are means over the report's items. */
export interface MethodReport {
  /** `team`, `quick`, `agent:<id>`, `self-consistency`, `self-consistency-tokens`, `best-agent-oracle`. */
  id: string;
  label: string;
  kind: MethodKind;
  /** The agent, for `agent` and `self-consistency` rows. */
  agent: string | null;
  /** For the best-agent rows: which agent was chosen, with how many items each. */
  chosen: Record<string, number> | null;
  n: number;
  correct: number;
  /** null when n = 0. */
  accuracy: number | null;
  ci95: { low: number; high: number };
  /** McNemar's test against the team on the same items; null for the team's own row. */
  vs_team: {
    /** Items the team got right and this method wrong. */
    team_only: number;
    /** Items this method got right and the team wrong. */
    method_only: number;
    p_value: number;
    test: "exact" | "chi-square" | "none";
  } | null;
  calls_per_item: number;
  input_tokens_per_item: number;
  output_tokens_per_item: number;
  /** USD; null when some call had no price (never guessed). */
  cost_usd_per_item: number | null;
  wall_ms_per_item: number;
  /** Runs that did not complete (provider failures, timeouts): their items count as wrong. */
  failed_runs: number;
}

/** One item's outcome under one method. */
export interface ItemOutcomeJson {
  /** What the scorer read from the answer (null: nothing, or no answer). */
  answer_key: string | null;
  correct: boolean;
  /** Attempt directories of the runs, relative to the eval directory. */
  log_dirs: string[];
}

/** One item of the report. */
export interface ItemReport {
  item: string;
  line: number;
  question: string;
  reference: string;
  /** Method id → outcome. */
  methods: Record<string, ItemOutcomeJson>;
  /**
   * The team had a right answer and lost it: `vote` (the winning answer was wrong) or
   * `presentation` (the winning answer was right, the final answer not); null otherwise or when
   * not measured.
   */
  selection_loss: "vote" | "presentation" | null;
}

/** The report. */
export interface EvalReport {
  version: number;
  dataset: { path: string; sha256: string; items_total: number; selection: string };
  config: { path: string; agents: string[]; mode: TeamShape["mode"] };
  scorer: { name: string; description: string };
  baseline_agent: string;
  self_consistency: {
    agent: string;
    /** `flag`: --baseline-agent; `best`: most right alone on these items; `first`: first agent. */
    agent_source: "flag" | "best" | "first";
    k: number;
    /** k matched on the team's tokens per item; null when not measured (see run-eval.ts). */
    k_tokens: number | null;
    /** `matched`: the team's mean calls per item, rounded; `flag`: `--sc-k`. */
    k_source: "matched" | "flag";
    team_calls_per_item: number | null;
  };
  /** Items selected; `n` of each method counts those with every method's runs recorded. */
  items_selected: number;
  items_reported: number;
  methods: MethodReport[];
  /** null when no team run recorded its answers or the scorer needs the judge. */
  selection_loss: SelectionLoss | null;
  /** Items at least one agent alone got right (MassGen reports this as its coverage). */
  coverage: { correct: number; n: number; accuracy: number | null };
  /** The judge's own spend, when `--scorer judge`. */
  judge: { calls: number; cost_usd: number | null; unclear: number; failed: number } | null;
  /** Items where the team, the quick team, the baseline agent and self-consistency disagree. */
  disagreements: string[];
  items: ItemReport[];
  eval_dir: string;
  results_file: string;
}

/** What the report is about, besides the outcomes. */
export interface ReportContext {
  items: readonly EvalItem[];
  scorer: Scorer;
  results: Pick<ResultsFile, "runs" | "judges">;
  team: TeamShape;
  /** How the self-consistency agent (`team.baselineId`) was chosen; default `flag`. */
  baselineSource?: "flag" | "best" | "first";
  k: number;
  /** k matched on tokens (a second self-consistency row when it differs from k). */
  kTokens?: number | null;
  kSource: "matched" | "flag";
  teamCallsPerItem: number | null;
  dataset: { path: string; sha256: string; itemsTotal: number; selection: string };
  configPath: string;
  evalDir: string;
  resultsFile: string;
}

/** Builds the report from the stored runs. Items missing a method's run are left out. */
export function buildReport(context: ReportContext): EvalReport {
  const base = baseOutcomes(context);
  const { team } = context;
  const rows: Array<{
    id: string;
    label: string;
    kind: MethodKind;
    agent: string | null;
    byItem: Map<string, Outcome>;
  }> = [{ id: "team", label: `team (${team.mode})`, kind: "team", agent: null, byItem: base.team }];
  if (base.quick)
    rows.push({
      id: "quick",
      label: "team --quick",
      kind: "quick",
      agent: null,
      byItem: base.quick,
    });
  const agentRow = (id: string) => ({
    id: `agent:${id}`,
    label: id === team.baselineId ? `${id} alone (baseline)` : `${id} alone`,
    kind: "agent" as const,
    agent: id,
    byItem: base.agents.get(id)!,
  });
  rows.push(agentRow(team.baselineId));
  rows.push({
    id: "self-consistency",
    label: `self-consistency, ${team.baselineId} ×${context.k}${base.selfConsistencyTokens ? " (equal calls)" : ""}`,
    kind: "self-consistency",
    agent: team.baselineId,
    byItem: base.selfConsistency,
  });
  if (base.selfConsistencyTokens)
    rows.push({
      id: "self-consistency-tokens",
      label: `self-consistency, ${team.baselineId} ×${context.kTokens} (equal tokens)`,
      kind: "self-consistency",
      agent: team.baselineId,
      byItem: base.selfConsistencyTokens,
    });
  const complete = context.items.filter(
    (item) =>
      rows.every((row) => row.byItem.has(item.id)) &&
      team.agentIds.every((id) => base.agents.get(id)!.has(item.id)),
  );
  const ids = complete.map((item) => item.id);

  const oracle = oracleAgent(ids, team.agentIds, base.agents);
  const methods: MethodReport[] = [];
  const teamOutcomes = base.team;
  const summarize = (row: (typeof rows)[number], chosen: Record<string, number> | null) =>
    methods.push(summarizeMethod(row, ids, teamOutcomes, chosen));
  for (const row of rows) summarize(row, null);
  summarize(
    {
      id: "best-agent-oracle",
      label: "best agent, oracle (upper bound)",
      kind: "best-agent-oracle",
      agent: null,
      byItem: oracle.outcomes,
    },
    oracle.chosen,
  );
  for (const id of team.agentIds) if (id !== team.baselineId) summarize(agentRow(id), null);

  const covered = ids.filter((id) =>
    team.agentIds.some((agent) => base.agents.get(agent)!.get(id)!.correct),
  ).length;
  const methodOutcomes = new Map<string, Map<string, Outcome>>([
    ...rows.map((row) => [row.id, row.byItem] as const),
    ["best-agent-oracle", oracle.outcomes],
    ...team.agentIds.map((id) => [`agent:${id}`, base.agents.get(id)!] as const),
  ]);
  const losses = selectionLosses(context, complete);
  const items = complete.map((item) =>
    itemReport(item, context.scorer, methodOutcomes, losses?.byItem.get(item.id) ?? null),
  );
  const primary = rows.map((row) => row.id);
  return {
    version: EVAL_REPORT_VERSION,
    dataset: {
      path: context.dataset.path,
      sha256: context.dataset.sha256,
      items_total: context.dataset.itemsTotal,
      selection: context.dataset.selection,
    },
    config: { path: context.configPath, agents: [...team.agentIds], mode: team.mode },
    scorer: { name: context.scorer.name, description: context.scorer.description },
    baseline_agent: team.baselineId,
    self_consistency: {
      agent: team.baselineId,
      agent_source: context.baselineSource ?? "flag",
      k: context.k,
      k_tokens: context.kTokens ?? null,
      k_source: context.kSource,
      team_calls_per_item: context.teamCallsPerItem,
    },
    items_selected: context.items.length,
    items_reported: complete.length,
    methods,
    selection_loss: losses?.summary ?? null,
    coverage: {
      correct: covered,
      n: ids.length,
      accuracy: ids.length === 0 ? null : covered / ids.length,
    },
    judge: context.scorer.correct === undefined ? judgeSpend(context, ids) : null,
    disagreements: items
      .filter((item) => new Set(primary.map((id) => item.methods[id]!.correct)).size > 1)
      .map((item) => item.item),
    items,
    eval_dir: context.evalDir,
    results_file: context.resultsFile,
  };
}

function summarizeMethod(
  row: {
    id: string;
    label: string;
    kind: MethodKind;
    agent: string | null;
    byItem: Map<string, Outcome>;
  },
  ids: readonly string[],
  team: Map<string, Outcome>,
  chosen: Record<string, number> | null,
): MethodReport {
  const outcomes = ids.map((id) => row.byItem.get(id)!);
  const n = outcomes.length;
  const correct = outcomes.filter((outcome) => outcome.correct).length;
  const interval = wilsonInterval(correct, n);
  let vsTeam: MethodReport["vs_team"] = null;
  if (row.kind !== "team") {
    let teamOnly = 0;
    let methodOnly = 0;
    for (const id of ids) {
      const teamRight = team.get(id)!.correct;
      const methodRight = row.byItem.get(id)!.correct;
      if (teamRight && !methodRight) teamOnly++;
      if (methodRight && !teamRight) methodOnly++;
    }
    const test = mcnemarTest(teamOnly, methodOnly);
    vsTeam = {
      team_only: teamOnly,
      method_only: methodOnly,
      p_value: test.pValue,
      test: test.test,
    };
  }
  const mean = (pick: (outcome: Outcome) => number) =>
    n === 0 ? 0 : outcomes.reduce((total, outcome) => total + pick(outcome), 0) / n;
  const costs = outcomes.map((outcome) => outcome.costUsd);
  return {
    id: row.id,
    label: row.label,
    kind: row.kind,
    agent: row.agent,
    chosen,
    n,
    correct,
    accuracy: n === 0 ? null : correct / n,
    ci95: { low: interval.low, high: interval.high },
    vs_team: vsTeam,
    calls_per_item: mean((outcome) => outcome.calls),
    input_tokens_per_item: mean((outcome) => outcome.inputTokens),
    output_tokens_per_item: mean((outcome) => outcome.outputTokens),
    cost_usd_per_item: costs.some((cost) => cost === null)
      ? null
      : mean((outcome) => outcome.costUsd!),
    wall_ms_per_item: mean((outcome) => outcome.wallMs),
    failed_runs: outcomes.reduce((total, outcome) => total + outcome.failedRuns, 0),
  };
}

interface Choice {
  outcomes: Map<string, Outcome>;
  chosen: Record<string, number>;
}

/** The oracle's best agent: the most right answers on these items; ties go to config order. */
function oracleAgent(
  ids: readonly string[],
  agentIds: readonly string[],
  agents: Map<string, Map<string, Outcome>>,
): Choice {
  const totals = agentIds.map(
    (agent) => ids.filter((id) => agents.get(agent)!.get(id)!.correct).length,
  );
  const best =
    agentIds[totals.reduce((top, score, index) => (score > totals[top]! ? index : top), 0)]!;
  const oracle: Choice = { outcomes: new Map(), chosen: {} };
  for (const id of ids) oracle.outcomes.set(id, agents.get(best)!.get(id)!);
  if (ids.length > 0) oracle.chosen[best] = ids.length;
  return oracle;
}

function itemReport(
  item: EvalItem,
  scorer: Scorer,
  methods: Map<string, Map<string, Outcome>>,
  selectionLoss: ItemReport["selection_loss"],
): ItemReport {
  const entries: Record<string, ItemOutcomeJson> = {};
  for (const [id, byItem] of methods) {
    const outcome = byItem.get(item.id)!;
    entries[id] = { answer_key: outcome.key, correct: outcome.correct, log_dirs: outcome.logDirs };
  }
  return {
    item: item.id,
    line: item.line,
    question: item.question,
    reference: scorer.reference(item),
    methods: entries,
    selection_loss: selectionLoss,
  };
}

function judgeSpend(
  context: ReportContext,
  ids: readonly string[],
): NonNullable<EvalReport["judge"]> {
  const wanted = new Set(ids);
  let calls = 0;
  let cost: number | null = 0;
  let unclear = 0;
  let failed = 0;
  for (const record of context.results.judges.values()) {
    if (!wanted.has(record.item)) continue;
    calls += record.calls;
    cost = cost === null || record.cost_usd === null ? null : cost + record.cost_usd;
    if (record.verdict === "unclear") unclear++;
    if (record.status !== "completed") failed++;
  }
  return { calls, cost_usd: cost, unclear, failed };
}
