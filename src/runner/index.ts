/**
 * The runner's public API: from flags to a prepared run (`prepareRun`), and starting it (`startRun`, `runTeam`) as a live run with many subscribers.
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
