/**
 * `coord viewer --pick` (spec §4.2 "Interactive picker over recent sessions"): the recent runs
 * under the log root — start time, status, winner, question — in an arrow-key list
 * (@clack/prompts); the chosen log directory is then viewed like `coord viewer LOG_DIR`.
 *
 * A run whose log has no `run-end` is `incomplete` in the log itself; the sessions registry
 * tells more when it names the log: `running` (its coord process lives: viewing it follows it)
 * or `incomplete (process gone)` (killed or crashed).
 */
import { join } from "node:path";
import { isCancel, select } from "@clack/prompts";
import { ConfigError } from "../errors.js";
import { listRuns } from "../logs/index.js";
import {
  attemptDirName,
  listAttempts,
  listTurns,
  readRunLog,
  turnDirName,
} from "../store/index.js";
import type { LogWriterStatus } from "../sessions/index.js";
import { incompleteLabel, oneLine } from "../ui/plain/index.js";

/** How many recent runs the picker offers. */
export const PICK_LIMIT = 20;

/** One run offered by the picker. */
export interface PickEntry {
  /** The `log_…` directory, absolute. */
  path: string;
  /** `2025-01-01 12:00:00 · completed · winner alice · 2 turns · What is 2+2?` */
  label: string;
}

/** Tells whether the coord process writing a `log_…` directory still runs (logWriterStatus). */
export type WriterStatusOf = (logDir: string) => Promise<LogWriterStatus>;

/**
 * The recent runs, newest first, each with its winner (of its latest turn's latest attempt).
 * @param writerStatus asked about incomplete runs only; default: nothing known.
 * @returns [] when the root holds no run log.
 */
export async function pickEntries(
  root: string,
  limit = PICK_LIMIT,
  writerStatus: WriterStatusOf = () => Promise.resolve("unknown"),
): Promise<PickEntry[]> {
  const list = await listRuns({ root, limit });
  const entries: PickEntry[] = [];
  for (const run of list.runs) {
    const winner = await latestWinner(run.path);
    const parts = [
      run.started,
      run.status === "incomplete" ? incompleteLabel(await writerStatus(run.path)) : run.status,
      winner === undefined ? "no winner" : `winner ${winner}`,
      ...(run.turns > 1 ? [`${run.turns} turns`] : []),
      oneLine(run.question || (run.error ?? ""), 80),
    ];
    entries.push({ path: run.path, label: parts.join(" · ") });
  }
  return entries;
}

async function latestWinner(logDir: string): Promise<string | undefined> {
  try {
    const turn = (await listTurns(logDir)).at(-1);
    if (turn === undefined) return undefined;
    const turnDir = join(logDir, turnDirName(turn));
    const attempt = (await listAttempts(turnDir)).at(-1);
    if (attempt === undefined) return undefined;
    const { state } = await readRunLog(join(turnDir, attemptDirName(attempt)));
    return state.winner?.agentId ?? undefined;
  } catch {
    return undefined; // listed as unreadable already
  }
}

/**
 * Asks which run to view.
 * @returns the chosen log directory, or undefined when the user cancelled (Esc, Ctrl+C).
 * @throws ConfigError when stdin or stdout is not a terminal, or there is no run log.
 */
export async function pickRun(
  root: string,
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WriteStream },
  writerStatus?: WriterStatusOf,
): Promise<string | undefined> {
  if (io.stdin.isTTY !== true || io.stdout.isTTY !== true) {
    throw new ConfigError(
      "--pick needs a terminal (stdin and stdout): name the log instead, coord viewer agent_outputs/log_…",
    );
  }
  const entries = await pickEntries(root, PICK_LIMIT, writerStatus);
  if (entries.length === 0) {
    throw new ConfigError(
      `no run logs in ${root}: run coord "<question>" first, or set COORD_LOG_DIR to where your logs are`,
      { file: root },
    );
  }
  const chosen = await select({
    message: `Which run? (${root})`,
    options: entries.map((entry) => ({ value: entry.path, label: entry.label })),
    maxItems: 12,
    input: io.stdin,
    output: io.stdout,
  });
  return isCancel(chosen) ? undefined : chosen;
}
