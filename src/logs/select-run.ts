/**
 * Which run `coord logs` looks at (spec section 4.2 `--log-dir`): the most recent log directory
 * under the log root, or the path the user gave — a `log_…` directory, a `turn_<n>` directory
 * or an `attempt_<n>` directory — narrowed by `--turn` / `--attempt` (latest by default).
 */
import { join, resolve } from "node:path";
import { ConfigError } from "../errors.js";
import {
  findLatestLogDir,
  listAttempts,
  listTurns,
  resolveAttemptDir,
  turnDirName,
} from "../store/index.js";

/** What the user asked for. */
export interface RunSelection {
  /** The log root (`agent_outputs` or `COORD_LOG_DIR`), absolute. */
  root: string;
  /** `--log-dir PATH`, relative to `cwd` or absolute. */
  logDir?: string | undefined;
  /** `--turn N`, 1-based. */
  turn?: number | undefined;
  /** `--attempt N`, 1-based. */
  attempt?: number | undefined;
  cwd: string;
  /** How this command names a log, for the "no run logs" error; default `pass --log-dir PATH`. */
  pathHint?: string | undefined;
}

/** The attempt chosen, with its siblings (to say "turn 2 of 3"). Paths are absolute. */
export interface SelectedRun {
  /** The `log_…` directory. */
  logDir: string;
  /** The attempt directory, holding events.jsonl. */
  attemptDir: string;
  turn: number;
  attempt: number;
  /** Every turn number of the log directory, ascending. */
  turns: number[];
  /** Every attempt number of the chosen turn, ascending. */
  attempts: number[];
}

/**
 * Resolves the user's selection to one attempt directory.
 * @throws ConfigError when there is no run log under the root (saying how to make one or which
 *   flag to pass), or the path, turn or attempt does not exist.
 */
export async function selectRun(selection: RunSelection): Promise<SelectedRun> {
  const path = await logDirPath(selection);
  const resolved = await resolveAttemptDir(path, {
    ...(selection.turn !== undefined ? { turn: selection.turn } : {}),
    ...(selection.attempt !== undefined ? { attempt: selection.attempt } : {}),
  });
  return {
    logDir: resolved.logDir,
    attemptDir: resolved.dir,
    turn: resolved.turn,
    attempt: resolved.attempt,
    turns: await listTurns(resolved.logDir),
    attempts: await listAttempts(join(resolved.logDir, turnDirName(resolved.turn))),
  };
}

/**
 * The directory the user means: `--log-dir` resolved against `cwd`, else the newest log
 * directory under the root.
 * @throws ConfigError when no `--log-dir` was given and the root holds no run log.
 */
export async function logDirPath(
  selection: Pick<RunSelection, "root" | "cwd" | "logDir" | "pathHint">,
): Promise<string> {
  if (selection.logDir !== undefined) return resolve(selection.cwd, selection.logDir);
  const latest = await findLatestLogDir(selection.root);
  if (latest === null) {
    throw new ConfigError(
      `no run logs in ${selection.root}: run coord "<question>" first, ${selection.pathHint ?? "pass --log-dir PATH"}, ` +
        `or set COORD_LOG_DIR to where your logs are`,
      { file: selection.root },
    );
  }
  return latest;
}
