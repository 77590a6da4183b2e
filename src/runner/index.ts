/**
 * The runner's public API: from flags to a prepared run (`prepareRun`), starting it (`startRun`,
 * `runTeam`) as a live run with many subscribers, and the one turn every front door runs
 * (`runTurn`: trace, start, debug header, subscribers, session record, `--output-file`), with the
 * memory-session steps it is made of.
 */
export {
  type CwdContext,
  describeCwdContext,
  nextCwdContext,
  parseCwdContext,
  withCwdContext,
} from "./cwd-context.js";
export {
  type LogFlags,
  type PreparedRun,
  type PrepareFlags,
  prepareRun,
  runLogOptions,
} from "./prepare-run.js";
export { chooseMode, type ModeChoice, type RunFlags } from "./resolve-run.js";
export { type BudgetFlags, runBudgetOf, withBudgetFlags } from "./run-budget.js";
export {
  defaultLogRoot,
  type RunHandle,
  type RunLogOptions,
  runTeam,
  startRun,
  type StartRunOptions,
} from "./run-team.js";
export { type DebugHeaderInfo, debugHeaderLines, writeDebugHeader } from "./debug-header.js";
export { writeChunkAnswer, writeOutputFile } from "./output-file.js";
export {
  closeSession,
  discardSession,
  latestSessionId,
  noteLogDir,
  type OpenSession,
  openSession,
  recordTurn,
  turnLogOptions,
} from "./session-turns.js";
export {
  type RunningTurn,
  runTurn,
  sessionStatusOf,
  type StartedTurn,
  type TurnIO,
  type TurnOptions,
  type TurnResult,
  type TurnTracing,
} from "./turn.js";
