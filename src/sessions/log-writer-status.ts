/**
 * Is a run log still being written? (`coord viewer` following a run, spec §4.2.) A run's
 * events.jsonl ends with `run-end` when coord stops cleanly; after `kill -9` or a crash it just
 * stops. The sessions registry tells the two apart: the session that logs to the directory
 * (`log_dir`) is `active` while its coord process lives, and reads as `interrupted` once that
 * process is gone (stale-sessions.ts).
 */
import { resolve } from "node:path";
import type { SessionStore } from "./sessions.js";

/**
 * - `writing`: a session logging to the directory is active (its process lives).
 * - `gone`: the sessions logging to it have all ended or lost their process: nothing more will
 *   be written there.
 * - `unknown`: no session names the directory (a log copied from a CI machine, another HOME, an
 *   older coord) or the registry cannot be read.
 */
export type LogWriterStatus = "writing" | "gone" | "unknown";

/**
 * The status of the coord process writing the run log `logDir`.
 * @param store the sessions store of the HOME the run was started with.
 * @param logDir the `log_…` directory (any spelling of its path; compared resolved).
 * @returns never rejects: an unreadable registry is `unknown`.
 */
export async function logWriterStatus(
  store: SessionStore,
  logDir: string,
): Promise<LogWriterStatus> {
  let sessions;
  try {
    sessions = await store.list();
  } catch {
    return "unknown";
  }
  const wanted = resolve(logDir);
  const owners = sessions.filter(
    (session) => session.log_dir !== null && resolve(session.log_dir) === wanted,
  );
  if (owners.length === 0) return "unknown";
  return owners.some((session) => session.status === "active") ? "writing" : "gone";
}
