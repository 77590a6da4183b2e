/**
 * Runs a configured team on one question to the end: {@link startRun}, then wait. For callers
 * that only need the finished run and a few subscribers.
 */
import { startRun, type StartRunOptions, type TeamRunResult } from "./start-run.js";

export {
  defaultLogRoot,
  startRun,
  type RunHandle,
  type RunLogOptions,
  type StartRunOptions,
  type TeamRunResult,
} from "./start-run.js";

/**
 * Runs the team to the end. Never throws for agent or provider failures: they are events, and
 * the returned state's `endReason` says how the run ended.
 * @throws ConfigError before any agent starts: a missing key or model file, an unusable backend.
 */
export async function runTeam(options: StartRunOptions): Promise<TeamRunResult> {
  const handle = await startRun(options);
  return handle.done;
}
