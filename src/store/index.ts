/**
 * The store's public API (docs/architecture.md "Layers"): the run log directory layout, its writer
 * (a live-run subscriber) and reader, atomic writes and secret redaction.
 */
export { writeFileAtomic } from "./atomic-write.js";
export {
  attemptDirName,
  findLatestLogDir,
  listAttempts,
  listLogDirs,
  listTurns,
  logDirName,
  type LogDirEntry,
  resolveAttemptDir,
  turnDirName,
} from "./log-dir.js";
export { readRunLog, type RunLog } from "./log-reader.js";
export { type EventLogFollower, openEventLog, type OpenEventLogOptions } from "./event-tail.js";
export { LOG_FILES, type LogWriter } from "./log-writer.js";
export {
  collectSecretValues,
  isSecretName,
  REDACTED,
  redactSecrets,
  redactText,
} from "./redact-secrets.js";
export {
  appendExecutionLog,
  createPlan,
  keepWorkspace,
  loadPlan,
  PLAN_FILES,
  type PlanFile,
  type PlanMetadata,
  PlanStatus,
  plansRoot,
  planWorkspace,
  readPlanDir,
  savePlan,
  type StoredPlan,
} from "./plans.js";
