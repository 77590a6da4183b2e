/**
 * One session in the registry `~/.coord/sessions.json` (sessions.ts): its record and status. A
 * file of its own so that the registry, its archive (sessions-archive.ts) and the stale-session
 * check (stale-sessions.ts) share the types without importing each other.
 */

/** `active` while a chat or query runs (or if coord died); then how the session ended. */
export type SessionStatus = "active" | "completed" | "failed" | "timeout" | "interrupted";

/** One session in `sessions.json`. Times are ISO-8601 UTC. */
export interface SessionRecord {
  id: string;
  started_at: string;
  /** null while active, and for a session whose process died (its end time is unknown). */
  ended_at: string | null;
  status: SessionStatus;
  /** `interactive` chat or a `single` query (a continued session keeps its first kind). */
  kind: "interactive" | "single";
  /** The agents' models, in config order, e.g. `openai/gpt-4o`. */
  models: string[];
  /** Absolute config path; null for quick setup. */
  config_path: string | null;
  /** The `log_…` directory the turns are logged in; null with `--no-logs`. */
  log_dir: string | null;
  /** Turns recorded so far. */
  turns: number;
  /** Working directory the session started in. */
  cwd: string;
  /**
   * The coord process that runs (or last ran) the session: set when it starts and when
   * `--session-id` continues it. Absent in records of older coord versions, which therefore
   * cannot be checked for a dead process.
   */
  pid?: number;
}
