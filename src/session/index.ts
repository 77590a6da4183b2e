/**
 * The session layer's public API (docs/architecture.md "Layers"): the live run and its one reducer,
 * the view model and its JSON renderings (status.json, metrics.json, the share manifest), the
 * agent-status wording. Pure: no Node modules (the lint forbids them here), so the browser page
 * can use all of it. The memory-sessions registry on disk is src/sessions/.
 */
export {
  createLiveRun,
  type LiveRun,
  type LiveRunSource,
  type RunSubscriber,
  type SubscribeOptions,
} from "./live-run.js";
export { agentStatusText, isWorkOpen, type StatusTextOptions } from "./agent-status.js";
export { toMetricsJson } from "./metrics-json.js";
export { createReplayPace, type ReplayPace, type ReplayPaceOptions } from "./replay-pace.js";
export {
  type AgentState,
  costUsdOf,
  type Counters,
  initialRunState,
  type LimitRecord,
  type MetricsCountersJson,
  type MetricsJson,
  reduceRun,
  replay,
  type RunState,
  type StatusJson,
  wallTimeMs,
  type WinnerGroup,
  type WinnerInfo,
} from "./reducer.js";
export type { SnapshotRecord } from "./run-state.js";
export {
  type AgentProgress,
  agentPlanTasks,
  type ChunkProgress,
  chunkProgress,
  type ExecutionView,
  pendingHumanQuestions,
  type PlanRecord,
  type PlanState,
  type QuestionRecord,
} from "./plan-state.js";
export {
  type AttemptFiles,
  type AttemptReading,
  gistFileName,
  MANIFEST_FILE,
  manifestAttempt,
  type ManifestAttempt,
  type ManifestAttemptView,
  type ManifestFileView,
  type ManifestSkippedView,
  type ManifestTurn,
  type ManifestTurnView,
  RUN_FILE_KEYS,
  RUN_FILE_NAMES,
  type RunFileKey,
  SHARE_DESCRIPTION_PREFIX,
  SHARE_FORMAT,
  SHARE_FORMAT_VERSION,
  shareDescription,
  type ShareFileEntry,
  type ShareFileKind,
  ShareFormatError,
  type ShareManifest,
  type ShareManifestView,
  parseShareManifest,
  type SkippedFileEntry,
  type SkipReason,
} from "./share-manifest.js";
export { limitsReachedJson, type LimitReachedJson, toStatusJson } from "./status-json.js";
export { shownGroups, tieText, type WinnerGroupJson, winnerGroupsJson } from "./winner-view.js";
