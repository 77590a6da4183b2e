/**
 * Run log directories (docs/architecture.md "Files on disk"; spec §2 "Log directory"):
 * `<root>/log_<YYYYMMDD>_<HHMMSS>[_<suffix>]/turn_<n>/attempt_<n>/`. The root is
 * `agent_outputs` in the working directory unless the caller passes `COORD_LOG_DIR`; this module
 * never reads the environment.
 */
import { mkdir, readdir, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ConfigError } from "../errors.js";

/** Matches a log directory name; groups: date `YYYYMMDD`, time `HHMMSS`, optional suffix. */
export const LOG_DIR_NAME_PATTERN = /^log_(\d{8})_(\d{6})(?:_(.+))?$/;
const TURN_PATTERN = /^turn_([1-9]\d*)$/;
const ATTEMPT_PATTERN = /^attempt_([1-9]\d*)$/;
/** How many `_<n>` suffixes to try before giving up on a second with that many runs. */
const MAX_SUFFIX = 1000;

/**
 * `log_<YYYYMMDD>_<HHMMSS>` in local time, with `_<suffix>` appended when given.
 * @param date the run's start time.
 */
export function logDirName(date: Date, suffix?: string): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  const day = `${pad(date.getFullYear(), 4)}${pad(date.getMonth() + 1)}${pad(date.getDate())}`;
  const time = `${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  return `log_${day}_${time}${suffix === undefined ? "" : `_${suffix}`}`;
}

/** The parts of a log directory name, or null when `name` is not one. */
export function parseLogDirName(name: string): { timestamp: string; suffix: string | null } | null {
  const match = LOG_DIR_NAME_PATTERN.exec(name);
  if (!match) return null;
  return { timestamp: `${match[1]}_${match[2]}`, suffix: match[3] ?? null };
}

/** `turn_<n>`. */
export function turnDirName(turn: number): string {
  return `turn_${turn}`;
}

/** `attempt_<n>`. */
export function attemptDirName(attempt: number): string {
  return `attempt_${attempt}`;
}

/** Where {@link createRunDir} put a run. */
export interface RunDir {
  /** The `log_…` directory. */
  logDir: string;
  /** Its name, e.g. `log_20250101_120000_2`. */
  name: string;
  /** The attempt directory, `<logDir>/turn_<n>/attempt_<n>`. */
  dir: string;
  turn: number;
  attempt: number;
}

/** Log roots this process made sure exist (a run dir is then one mkdir fewer; see createRunDir). */
const rootsMade = new Set<string>();

/** The log directory this process claimed last: its root and second, and its suffix number. */
let lastClaimed: { second: string; index: number } | undefined;

/**
 * Creates a new `<root>/log_<time>[_<n>]/turn_<turn>/attempt_<attempt>/`. When a log directory
 * for the same second exists, adds `_2`, `_3`, … (the log directory is claimed with a
 * non-recursive mkdir, so two runs starting in the same second never share one).
 *
 * @param options.root the log root (created if missing), e.g. `agent_outputs`.
 * @param options.now the run's start time; named in local time.
 * @param options.turn 1-based turn (default 1); options.attempt 1-based attempt (default 1).
 * @throws the file system error when a directory cannot be created.
 */
export async function createRunDir(options: {
  root: string;
  now: Date;
  turn?: number;
  attempt?: number;
}): Promise<RunDir> {
  const turn = options.turn ?? 1;
  const attempt = options.attempt ?? 1;
  // Once per root and process; a root removed since is made again when its log dir cannot be.
  if (!rootsMade.has(options.root)) {
    await mkdir(options.root, { recursive: true });
    rootsMade.add(options.root);
  }
  // `coord serve` starts many runs a second: start after the suffix this process took last for
  // the same second instead of trying _2, _3, … again each time.
  const second = `${options.root}\0${logDirName(options.now)}`;
  const from = lastClaimed?.second === second ? lastClaimed.index + 1 : 1;
  for (let index = from; index <= MAX_SUFFIX; index++) {
    const name = logDirName(options.now, index === 1 ? undefined : String(index));
    const logDir = join(options.root, name);
    if (!(await claim(options.root, logDir))) continue;
    if (lastClaimed === undefined || lastClaimed.second !== second || lastClaimed.index < index) {
      lastClaimed = { second, index };
    }
    const dir = await createAttemptDir(logDir, turn, attempt);
    return { logDir, name, dir, turn, attempt };
  }
  throw new Error(
    `${options.root}: ${MAX_SUFFIX} log directories already exist for ${logDirName(options.now)}`,
  );
}

/**
 * Makes `logDir` (non-recursive) in `root`; false when it exists. A root removed since this
 * process made it is made again, once.
 * @throws the file system error of any other failure.
 */
async function claim(root: string, logDir: string): Promise<boolean> {
  for (let tries = 0; ; tries++) {
    try {
      await mkdir(logDir);
      return true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EEXIST") return false;
      if (code !== "ENOENT" || tries > 0) throw error;
      await mkdir(root, { recursive: true });
    }
  }
}

/**
 * Creates `<logDir>/turn_<turn>/attempt_<attempt>/` in an existing log directory (a later turn or
 * a retry of a session) and returns its path.
 * @throws Error when that attempt directory already exists (it would mix two runs' events).
 */
export async function createAttemptDir(
  logDir: string,
  turn: number,
  attempt: number,
): Promise<string> {
  const turnDir = join(logDir, turnDirName(turn));
  await mkdir(turnDir, { recursive: true });
  const dir = join(turnDir, attemptDirName(attempt));
  try {
    await mkdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new Error(`${dir} already exists: pick the next attempt or turn number`, {
        cause: error,
      });
    }
    throw error;
  }
  return dir;
}

/** One log directory found by {@link listLogDirs}. */
export interface LogDirEntry {
  name: string;
  path: string;
  /** `YYYYMMDD_HHMMSS` (local time of the run's start). */
  timestamp: string;
  suffix: string | null;
  /** True when it holds `ANALYSIS_REPORT.md`. */
  analyzed: boolean;
}

/**
 * The log directories under `root`, newest first (by the time in the name, then by suffix:
 * `_3` before `_2` before none). Entries that are not `log_…` directories are skipped.
 * @returns [] when `root` does not exist.
 */
export async function listLogDirs(root: string): Promise<LogDirEntry[]> {
  const entries = await readDirectories(root);
  const found: LogDirEntry[] = [];
  for (const name of entries) {
    const parsed = parseLogDirName(name);
    if (!parsed) continue;
    const path = join(root, name);
    found.push({ name, path, ...parsed, analyzed: await isFile(join(path, "ANALYSIS_REPORT.md")) });
  }
  return found.sort(compareNewestFirst);
}

/** Path of the newest log directory under `root`, or null when there is none. */
export async function findLatestLogDir(root: string): Promise<string | null> {
  return (await listLogDirs(root))[0]?.path ?? null;
}

/** The turn numbers in a log directory, ascending. [] when there are none. */
export async function listTurns(logDir: string): Promise<number[]> {
  return numberedDirectories(logDir, TURN_PATTERN);
}

/** The attempt numbers in a turn directory, ascending. [] when there are none. */
export async function listAttempts(turnDir: string): Promise<number[]> {
  return numberedDirectories(turnDir, ATTEMPT_PATTERN);
}

/** An attempt directory found by {@link resolveAttemptDir}. */
export interface ResolvedAttemptDir {
  logDir: string;
  /** The attempt directory, holding events.jsonl. */
  dir: string;
  turn: number;
  attempt: number;
}

/**
 * Finds the attempt directory for a path given by the user: a log directory (latest turn and
 * attempt unless given), a `turn_<n>` directory (latest attempt unless given), or an
 * `attempt_<n>` directory itself.
 *
 * @throws ConfigError naming the path when it, or the requested turn or attempt, does not exist.
 */
export async function resolveAttemptDir(
  path: string,
  options: { turn?: number; attempt?: number } = {},
): Promise<ResolvedAttemptDir> {
  if (!(await isDirectory(path))) {
    throw new ConfigError(`log directory ${path} does not exist`, { file: path });
  }
  const name = basename(path);
  const attemptMatch = ATTEMPT_PATTERN.exec(name);
  const parentTurn = TURN_PATTERN.exec(basename(dirname(path)));
  if (attemptMatch && parentTurn) {
    return {
      logDir: dirname(dirname(path)),
      dir: path,
      turn: Number(parentTurn[1]),
      attempt: Number(attemptMatch[1]),
    };
  }
  const turnMatch = TURN_PATTERN.exec(name);
  const logDir = turnMatch ? dirname(path) : path;
  const turn = turnMatch ? Number(turnMatch[1]) : await pick(logDir, "turn", options.turn);
  const turnDir = join(logDir, turnDirName(turn));
  const attempt = await pick(turnDir, "attempt", options.attempt);
  return { logDir, dir: join(turnDir, attemptDirName(attempt)), turn, attempt };
}

async function pick(parent: string, kind: "turn" | "attempt", wanted?: number): Promise<number> {
  const numbers = kind === "turn" ? await listTurns(parent) : await listAttempts(parent);
  if (wanted !== undefined) {
    if (numbers.includes(wanted)) return wanted;
    const have = numbers.length === 0 ? "none" : numbers.join(", ");
    throw new ConfigError(`${parent} has no ${kind}_${wanted} (${kind}s: ${have})`, {
      file: parent,
    });
  }
  const latest = numbers.at(-1);
  if (latest === undefined) {
    throw new ConfigError(
      `${parent} has no ${kind}_<n> directory: not a coord run log ` +
        `(expected <root>/log_<YYYYMMDD>_<HHMMSS>/turn_<n>/attempt_<n>/)`,
      { file: parent },
    );
  }
  return latest;
}

async function numberedDirectories(parent: string, pattern: RegExp): Promise<number[]> {
  const numbers: number[] = [];
  for (const name of await readDirectories(parent)) {
    const match = pattern.exec(name);
    if (match) numbers.push(Number(match[1]));
  }
  return numbers.sort((a, b) => a - b);
}

async function readDirectories(parent: string): Promise<string[]> {
  try {
    const entries = await readdir(parent, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw error;
  }
}

function compareNewestFirst(a: LogDirEntry, b: LogDirEntry): number {
  if (a.timestamp !== b.timestamp) return a.timestamp < b.timestamp ? 1 : -1;
  const rank = (suffix: string | null) => (suffix === null ? 1 : Number(suffix));
  const rankA = rank(a.suffix);
  const rankB = rank(b.suffix);
  if (!Number.isNaN(rankA) && !Number.isNaN(rankB) && rankA !== rankB) return rankB - rankA;
  return (b.suffix ?? "").localeCompare(a.suffix ?? "");
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false;
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}
