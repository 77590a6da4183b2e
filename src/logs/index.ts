/**
 * `coord logs` as data (docs/architecture.md "Layers" → logs): run selection, summaries, tool
 * breakdowns, run lists and analysis prompts, all pure over the stored logs.
 */
export {
  ANALYSIS_LOGS_DIR,
  ANALYSIS_REPORT_FILE,
  analysisPrompt,
  analysisPromptJson,
  listLogFiles,
} from "./analysis-prompt.js";
export { analysisQuestion, analysisReport, readQuotedFiles } from "./analysis-question.js";
export { type ListOptions, listRuns, type LogsListJson } from "./run-list.js";
export {
  type LogsSummaryJson,
  type PlanSummaryJson,
  type RoundsJson,
  summarizeRun,
  type SummaryAgentJson,
} from "./run-summary.js";
export { logDirPath, type RunSelection, selectRun } from "./select-run.js";
export { type LogsToolsJson, toolBreakdown, type ToolSort } from "./tool-breakdown.js";
export { LOGS_JSON_VERSION } from "./version.js";
export {
  collectShareBundle,
  type CollectShareOptions,
  parseTurnSpec,
  type ShareBundle,
  type ShareFile,
  SHARE_LIMITS,
  type TurnSpec,
} from "./share-bundle.js";
export {
  gistFileName,
  MANIFEST_FILE,
  SHARE_DESCRIPTION_PREFIX,
  SHARE_FORMAT,
  SHARE_FORMAT_VERSION,
  type ShareManifest,
  type SkippedFileEntry,
} from "../session/index.js";
