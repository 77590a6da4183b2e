/**
 * Plain-text renderers (docs/architecture.md "Layers"): trace lines, the live status block,
 * automation lines and the `coord logs` tables. Every one renders from events and the run state.
 */
export { createAutomationOutput } from "./automation.js";
export { failureAdvice, failureLine } from "./failure-line.js";
export { createLiveStatus, type LiveStatus } from "./live-status.js";
export { displayPath, renderLogsSummary } from "./logs-summary.js";
export { incompleteLabel, renderRunList, renderToolTable } from "./logs-tables.js";
export {
  createTraceFormatter,
  limitText,
  oneLine,
  traceSubscriber,
  traceText,
} from "./trace-lines.js";
export {
  formatCost,
  formatCount,
  formatDuration,
  renderTable,
  type TableColumn,
} from "./text-table.js";
