/**
 * Sessions whose coord process is gone (`kill -9`, a crash, a machine that went down): the
 * registry still says `active`, but nothing will ever close them. Each record carries the id of
 * the process that runs it (`pid`), so a reader can tell: an `active` session whose process no
 * longer exists is reported as `interrupted`.
 *
 * Limits: a record written by a coord without `pid` cannot be checked and stays as written; and
 * process ids are reused, so a session whose pid now belongs to another process still looks
 * `active` until that process ends too.
 */
import type { SessionRecord } from "./session-record.js";

/** `process.kill` as used here (signal 0 sends nothing, it only checks). */
export type SignalSender = (pid: number, signal: 0) => unknown;

/** Answers "does a process with this id exist?". */
export type ProcessAliveCheck = (pid: number) => boolean;

/**
 * True when a process with id `pid` exists, by `kill(pid, 0)`: ESRCH means there is none; EPERM
 * means there is one (owned by another user). Any other outcome, and a pid that is not a
 * positive integer (0 and negative ids would address process groups), counts as alive: when in
 * doubt a session is left as it is.
 * @param kill injectable for tests; default `process.kill`.
 */
export function isProcessAlive(
  pid: number,
  kill: SignalSender = (target, signal) => process.kill(target, signal),
): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

/** True when `record` says `active` but its process (by `pid`) is gone. */
export function isStale(record: SessionRecord, isAlive: ProcessAliveCheck): boolean {
  return record.status === "active" && typeof record.pid === "number" && !isAlive(record.pid);
}

/**
 * The record as readers see it: a stale one (see {@link isStale}) is `interrupted`, with
 * `ended_at` left null (when its process died is not known). Others are returned as they are.
 */
export function withLiveStatus(record: SessionRecord, isAlive: ProcessAliveCheck): SessionRecord {
  return isStale(record, isAlive) ? { ...record, status: "interrupted" } : record;
}
