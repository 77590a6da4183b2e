/**
 * The report of `coord eval` as text for people (docs/eval.md "How to read the report"): a
 * header, one table row per method, the notes that say how to read it, and the items where the
 * methods disagree (the first {@link DISAGREEMENTS_SHOWN}; all of them are in report.json).
 */
import {
  displayPath,
  formatCost,
  formatCount,
  formatDuration,
  oneLine,
  renderTable,
} from "../ui/plain/index.js";
import type { EvalReport, MethodReport } from "./report.js";

/** Disagreeing items listed in the text report. */
export const DISAGREEMENTS_SHOWN = 10;

const percent = (value: number | null) => (value === null ? "-" : `${(100 * value).toFixed(1)}%`);

/** A p-value for people: 3 significant digits, `<0.001` below. */
export function formatPValue(p: number): string {
  if (p < 0.001) return "<0.001";
  return p >= 0.995 ? "1.00" : p.toPrecision(2);
}

function versus(method: MethodReport): string {
  if (method.vs_team === null) return "";
  const { team_only, method_only, p_value } = method.vs_team;
  return `+${team_only} −${method_only}  p=${formatPValue(p_value)}`;
}

/**
 * Renders the report.
 * @param cwd paths inside it are shown relative to it; others as they are.
 */
export function renderEvalReport(report: EvalReport, options: { cwd: string }): string {
  const show = (path: string) => displayPath(path, options.cwd);
  const lines: string[] = [];
  lines.push(
    `coord eval · ${show(report.dataset.path)} (${report.items_reported} of ${formatCount(report.dataset.items_total)} items; ${report.dataset.selection}) · team ${show(report.config.path)}: ${report.config.agents.join(", ")}`,
  );
  lines.push(`scorer: ${report.scorer.description}`);
  const sc = report.self_consistency;
  const agentSource = {
    flag: "--baseline-agent",
    best: "the best agent alone on these items",
    first: "the first agent: the judge scorer cannot rank the agents before judging",
  }[sc.agent_source];
  lines.push(
    `self-consistency: ${sc.agent} (${agentSource}) ×${sc.k} (${sc.k_source === "flag" ? "k from --sc-k" : `k matched to the team's ${sc.team_calls_per_item?.toFixed(1) ?? "?"} model calls per item`})${sc.k_tokens !== null && sc.k_tokens !== sc.k ? `, and ×${sc.k_tokens} matched to its tokens per item` : ""}`,
  );
  if (report.items_reported < report.items_selected) {
    lines.push(
      `note: ${report.items_selected - report.items_reported} of ${report.items_selected} selected items lack some method's runs and are left out`,
    );
  }
  lines.push("");
  lines.push(
    renderTable(
      [
        { header: "method" },
        { header: "right", align: "right" },
        { header: "accuracy", align: "right" },
        { header: "95% CI", align: "right" },
        { header: "vs team (McNemar)" },
        { header: "calls", align: "right" },
        { header: "tokens", align: "right" },
        { header: "cost", align: "right" },
        { header: "time", align: "right" },
      ],
      report.methods.map((method) => [
        method.label,
        `${method.correct}/${method.n}`,
        percent(method.accuracy),
        method.n === 0 ? "-" : `${percent(method.ci95.low)}–${percent(method.ci95.high)}`,
        versus(method),
        method.calls_per_item.toFixed(1),
        formatCount(method.input_tokens_per_item + method.output_tokens_per_item),
        formatCost(method.cost_usd_per_item),
        formatDuration(method.wall_ms_per_item),
      ]),
    ),
  );
  lines.push("");
  lines.push(...notes(report));
  lines.push(...disagreements(report));
  lines.push("");
  lines.push(
    `results: ${show(report.results_file)} · report: ${show(`${report.eval_dir}/report.json`)} · run logs: ${show(`${report.eval_dir}/logs`)}/`,
  );
  return lines.join("\n");
}

function notes(report: EvalReport): string[] {
  const lines: string[] = [];
  const coverage = report.coverage;
  lines.push(
    `coverage: ${coverage.correct}/${coverage.n} items (${percent(coverage.accuracy)}) were answered right by at least one agent alone.`,
  );
  lines.push(
    "Per item means: calls, tokens (input + output), cost (unknown when a model has no price), wall time (self-consistency: its runs' sum).",
  );
  lines.push(
    "vs team: +b −c = b items only the team got right, c items only this method got right; p from McNemar's test (exact binomial below 25 such items).",
  );
  const oracle = report.methods.find((method) => method.kind === "best-agent-oracle");
  if (oracle?.chosen) {
    lines.push(
      `best agent, oracle: ${Object.keys(oracle.chosen)[0] ?? "-"}, chosen by its score on these same items (an upper bound, not a fair baseline).`,
    );
  }
  const loss = report.selection_loss;
  if (loss) {
    const lost = loss.vote_loss + loss.presentation_loss;
    const share = loss.had_right_answer === 0 ? "-" : percent(lost / loss.had_right_answer);
    lines.push(
      `selection loss: on ${loss.had_right_answer} of ${loss.measured} items some team answer was right; the team lost it on ${lost} (${share}): ${loss.vote_loss} in the vote (the winning answer was wrong), ${loss.presentation_loss} in the presentation; the presentation fixed a wrong winner on ${loss.presentation_gain}.`,
    );
  }
  const failed = report.methods
    .filter(
      (method) =>
        method.failed_runs > 0 &&
        (method.kind === "team" ||
          method.kind === "quick" ||
          method.kind === "agent" ||
          method.kind === "self-consistency"),
    )
    .map((method) => `${method.label} ${method.failed_runs}`);
  if (failed.length > 0)
    lines.push(`failed runs (their items count as wrong; see the run logs): ${failed.join(", ")}`);
  if (report.judge) {
    lines.push(
      `judge: ${report.judge.calls} calls, ${formatCost(report.judge.cost_usd)}; ${report.judge.unclear} replies said neither CORRECT nor INCORRECT, ${report.judge.failed} judge runs failed (both count as wrong).`,
    );
  }
  return lines;
}

function disagreements(report: EvalReport): string[] {
  const ids = report.disagreements;
  if (ids.length === 0)
    return [
      "",
      "disagreements: none (the team, the baselines and self-consistency were right or wrong on the same items).",
    ];
  const primary = report.methods.filter(
    (method) =>
      method.kind === "team" ||
      method.kind === "quick" ||
      method.id === `agent:${report.baseline_agent}` ||
      method.kind === "self-consistency",
  );
  const byId = new Map(report.items.map((item) => [item.item, item]));
  const lines = [
    "",
    `disagreements: ${ids.length} items where ${primary.map((method) => method.label).join(", ")} differ:`,
  ];
  for (const id of ids.slice(0, DISAGREEMENTS_SHOWN)) {
    const item = byId.get(id)!;
    const cells = primary.map((method) => {
      const outcome = item.methods[method.id]!;
      return `${shortLabel(method)} ${outcome.answer_key === null ? "(none)" : oneLine(outcome.answer_key, 24)} ${outcome.correct ? "✓" : "✗"}`;
    });
    lines.push(`  item ${id}: ref ${oneLine(item.reference, 24)} · ${cells.join(" · ")}`);
  }
  if (ids.length > DISAGREEMENTS_SHOWN)
    lines.push(`  … ${ids.length - DISAGREEMENTS_SHOWN} more in report.json`);
  return lines;
}

function shortLabel(method: MethodReport): string {
  switch (method.kind) {
    case "team":
      return "team";
    case "quick":
      return "quick";
    case "self-consistency":
      return "sc";
    default:
      return method.agent ?? method.id;
  }
}
