/**
 * `coord logs tools` as plain data (spec section 4.2): every tool of one attempt with its calls,
 * failures, total and mean execution time, from the reducer's counters as rendered in
 * metrics.json (`totals.tools`), sorted by execution time or by call count, with a total row.
 */
import { type MetricsCountersJson, toMetricsJson } from "../session/index.js";
import type { RunLog } from "../store/index.js";
import { LOGS_JSON_VERSION } from "./version.js";
import type { SelectedRun } from "./select-run.js";

/** Sort order of the tool table: `time` (total execution time, default) or `calls`. */
export type ToolSort = "time" | "calls";

/** One tool. Durations in ms; `failures` counts results with `isError`. */
export interface ToolRowJson {
  name: string;
  calls: number;
  failures: number;
  total_ms: number;
  mean_ms: number;
}

/** `coord logs tools --json`. */
export interface LogsToolsJson {
  version: number;
  log_dir: string;
  attempt_dir: string;
  turn: number;
  attempt: number;
  sort: ToolSort;
  tools: ToolRowJson[];
  /** Sums over every tool; `mean_ms` = total_ms / calls (0 without calls). */
  total: Omit<ToolRowJson, "name">;
}

/**
 * Orders metrics.json's per-tool stats: by `total_ms` (then calls) descending for `time`, by
 * `calls` (then total_ms) descending for `calls`; ties by name. Pure.
 */
export function sortTools(tools: MetricsCountersJson["tools"], sort: ToolSort): ToolRowJson[] {
  const rows = Object.entries(tools).map(([name, stats]) => ({
    name,
    calls: stats.calls,
    failures: stats.failures,
    total_ms: stats.total_ms,
    mean_ms: stats.mean_ms,
  }));
  const primary = sort === "time" ? "total_ms" : "calls";
  const secondary = sort === "time" ? "calls" : "total_ms";
  return rows.sort(
    (a, b) =>
      b[primary] - a[primary] ||
      b[secondary] - a[secondary] ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

/** The tool table of one attempt. Pure. */
export function toolBreakdown(log: RunLog, where: SelectedRun, sort: ToolSort): LogsToolsJson {
  const totals = toMetricsJson(log.state).totals;
  return {
    version: LOGS_JSON_VERSION,
    log_dir: where.logDir,
    attempt_dir: where.attemptDir,
    turn: where.turn,
    attempt: where.attempt,
    sort,
    tools: sortTools(totals.tools, sort),
    total: {
      calls: totals.tool_calls,
      failures: totals.tool_failures,
      total_ms: totals.tool_ms,
      mean_ms: totals.tool_calls === 0 ? 0 : totals.tool_ms / totals.tool_calls,
    },
  };
}
