/**
 * `coord logs tools` and `coord logs list` as text (spec section 4.2): tables rendered from the
 * data of src/logs/tool-breakdown.ts and src/logs/run-list.ts; nothing is computed here.
 */
import { sep } from "node:path";
import type { LogsListJson, LogsToolsJson } from "../../logs/index.js";
import type { LogWriterStatus } from "../../sessions/index.js";
import { displayPath } from "./logs-summary.js";
import { oneLine } from "./trace-lines.js";
import { formatCost, formatCount, formatDuration, renderTable } from "./text-table.js";

/** Characters of the question shown in `coord logs list`. */
export const LIST_QUESTION_WIDTH = 60;

/** The text of `coord logs tools`, without a trailing newline. */
export function renderToolTable(tools: LogsToolsJson, options: { cwd: string }): string {
  const head = `Tools of ${displayPath(tools.attempt_dir, options.cwd)}, by ${tools.sort === "time" ? "execution time" : "call count"}`;
  if (tools.tools.length === 0) return `${head}\nNo tool was called.`;
  const table = renderTable(
    [
      { header: "Tool" },
      { header: "Calls", align: "right" },
      { header: "Failures", align: "right" },
      { header: "Total time", align: "right" },
      { header: "Avg time", align: "right" },
    ],
    tools.tools.map((tool) => [
      tool.name,
      formatCount(tool.calls),
      formatCount(tool.failures),
      formatDuration(tool.total_ms),
      formatDuration(tool.mean_ms),
    ]),
    [
      "TOTAL",
      formatCount(tools.total.calls),
      formatCount(tools.total.failures),
      formatDuration(tools.total.total_ms),
      formatDuration(tools.total.mean_ms),
    ],
  );
  return `${head}\n\n${table}`;
}

/** The text of `coord logs list`, without a trailing newline. */
export function renderRunList(
  list: LogsListJson,
  options: {
    cwd: string;
    /** Whether the process writing an `incomplete` run still runs, by run path (logWriterStatus). */
    writers?: ReadonlyMap<string, LogWriterStatus>;
  },
): string {
  const root = displayPath(list.root, options.cwd);
  const which =
    list.filter === "analyzed" ? " analyzed" : list.filter === "unanalyzed" ? " unanalyzed" : "";
  if (list.runs.length === 0) return `No${which} runs in ${root}.`;
  const table = renderTable(
    [
      { header: "Started" },
      { header: "Status" },
      { header: "Turns", align: "right" },
      { header: "Duration", align: "right" },
      { header: "Cost", align: "right" },
      { header: "Analyzed" },
      { header: "Log" },
      { header: "Question" },
    ],
    list.runs.map((run) => [
      run.started,
      run.status === "incomplete"
        ? incompleteLabel(options.writers?.get(run.path))
        : `${run.status}${run.degraded ? ", degraded" : ""}`,
      String(run.turns),
      run.status === "unreadable" ? "-" : formatDuration(run.duration_ms),
      run.status === "unreadable" ? "-" : formatCost(run.cost_usd),
      run.analyzed ? "yes" : "no",
      run.name,
      run.error === null
        ? oneLine(run.question, LIST_QUESTION_WIDTH)
        : oneLine(run.error.split(`${run.path}${sep}`).join(""), 120),
    ]),
  );
  const shown = `${list.runs.length} of ${list.matching}${which} run${list.matching === 1 ? "" : "s"} in ${root}, newest first`;
  const more = list.matching > list.runs.length ? ` (--limit N for more)` : "";
  return `${shown}${more}\n\n${table}`;
}

/**
 * How a run without a `run-end` is shown: `running` while its process writes the log,
 * `incomplete (process gone)` once the sessions registry says that process is gone (a kill -9, a
 * crash), plain `incomplete` when nothing is known (a log from another machine or HOME).
 */
export function incompleteLabel(writer: LogWriterStatus | undefined): string {
  if (writer === "writing") return "running";
  return writer === "gone" ? "incomplete (process gone)" : "incomplete";
}
