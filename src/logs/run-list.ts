/**
 * `coord logs list` as plain data (spec section 4.2, section 8 "default 10"): the recent runs
 * under the log root, newest first by directory name, with their start time, turns, duration,
 * cost, status, analysis status and question. A session's turns count as one run: duration and
 * cost add up the latest attempt of each turn; the question is the first turn's.
 */
import { join } from "node:path";
import { toMetricsJson } from "../session/index.js";
import {
  attemptDirName,
  listAttempts,
  listLogDirs,
  listTurns,
  type LogDirEntry,
  readRunLog,
  type RunLog,
  turnDirName,
} from "../store/index.js";
import type { RunStatus } from "./run-summary.js";
import { LOGS_JSON_VERSION } from "./version.js";

/** Default number of runs listed (spec section 8). */
export const DEFAULT_LIST_LIMIT = 10;

/** Which runs to list. */
export interface ListOptions {
  /** The log root, absolute. */
  root: string;
  /** At most this many runs (after filtering); default {@link DEFAULT_LIST_LIMIT}. */
  limit?: number;
  /** `analyzed`: only runs with ANALYSIS_REPORT.md; `unanalyzed`: only runs without. */
  filter?: "all" | "analyzed" | "unanalyzed";
}

/** One run of the list. */
export interface RunListEntryJson {
  /** Directory name, `log_<YYYYMMDD>_<HHMMSS>[_<suffix>]`. */
  name: string;
  /** Absolute path. */
  path: string;
  /** `YYYY-MM-DD HH:MM:SS`, the local start time in the directory name. */
  started: string;
  /** Number of `turn_<n>` directories. */
  turns: number;
  /** Status of the latest attempt of the latest turn; `unreadable` when it could not be read. */
  status: RunStatus | "unreadable";
  /** True when that attempt ended degraded (`run-end.degraded`: agents removed, a budget limit…). */
  degraded: boolean;
  /** Sum over turns (latest attempt each) of the wall time, ms. */
  duration_ms: number;
  /** Sum over turns, USD; null when any turn's cost is unknown. */
  cost_usd: number | null;
  /** Sum over turns of input + output tokens. */
  tokens: number;
  analyzed: boolean;
  /** The first turn's question ("" when unreadable). */
  question: string;
  /** Why the run could not be read (unknown schema version, missing events.jsonl, …). */
  error: string | null;
}

/** `coord logs list --json`. */
export interface LogsListJson {
  version: number;
  root: string;
  filter: "all" | "analyzed" | "unanalyzed";
  limit: number;
  /** Log directories under the root matching the filter, before the limit. */
  matching: number;
  runs: RunListEntryJson[];
}

/**
 * Lists recent runs. Reads only the runs shown. A run that cannot be read is listed with
 * `status: "unreadable"` and its `error` rather than failing the whole list.
 * @returns an empty list when the root does not exist.
 */
export async function listRuns(options: ListOptions): Promise<LogsListJson> {
  const filter = options.filter ?? "all";
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  const matching = (await listLogDirs(options.root)).filter(
    (entry) => filter === "all" || entry.analyzed === (filter === "analyzed"),
  );
  const runs: RunListEntryJson[] = [];
  for (const entry of matching.slice(0, limit)) runs.push(await readListEntry(entry));
  return {
    version: LOGS_JSON_VERSION,
    root: options.root,
    filter,
    limit,
    matching: matching.length,
    runs,
  };
}

async function readListEntry(entry: LogDirEntry): Promise<RunListEntryJson> {
  const turns = await listTurns(entry.path);
  const base = {
    name: entry.name,
    path: entry.path,
    started: formatTimestamp(entry.timestamp),
    turns: turns.length,
    analyzed: entry.analyzed,
  };
  try {
    const logs: RunLog[] = [];
    for (const turn of turns) {
      const turnDir = join(entry.path, turnDirName(turn));
      const attempt = (await listAttempts(turnDir)).at(-1);
      if (attempt !== undefined)
        logs.push(await readRunLog(join(turnDir, attemptDirName(attempt))));
    }
    if (logs.length === 0) throw new Error(`no turn_<n>/attempt_<n>/events.jsonl in ${entry.path}`);
    return { ...base, ...combineTurns(logs), error: null };
  } catch (error) {
    return {
      ...base,
      status: "unreadable",
      degraded: false,
      duration_ms: 0,
      cost_usd: null,
      tokens: 0,
      question: "",
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

/** Adds up the turns of one run (latest attempt each, oldest turn first). Pure. */
export function combineTurns(
  logs: readonly RunLog[],
): Pick<
  RunListEntryJson,
  "status" | "degraded" | "duration_ms" | "cost_usd" | "tokens" | "question"
> {
  let duration = 0;
  let cost: number | null = 0;
  let tokens = 0;
  for (const log of logs) {
    const metrics = toMetricsJson(log.state);
    duration += metrics.wall_time_ms;
    tokens += metrics.totals.tokens.total;
    cost =
      cost === null || metrics.totals.cost_usd === null ? null : cost + metrics.totals.cost_usd;
  }
  const last = logs.at(-1)?.state;
  return {
    status: last?.endReason ?? "incomplete",
    degraded: (last?.degraded.length ?? 0) > 0,
    duration_ms: duration,
    cost_usd: cost,
    tokens,
    question: logs[0]?.state.question ?? "",
  };
}

/** `20250101_120000` → `2025-01-01 12:00:00`. */
export function formatTimestamp(timestamp: string): string {
  const match = /^(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})$/.exec(timestamp);
  if (!match) return timestamp;
  return `${match[1]}-${match[2]}-${match[3]} ${match[4]}:${match[5]}:${match[6]}`;
}
