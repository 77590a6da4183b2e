/**
 * The archive of older sessions (bookkeeping stays constant per run): `sessions.json` keeps
 * at most {@link REGISTRY_CAP} records, so rewriting it costs the same however long the history
 * grows; when a new session pushes it over, its oldest finished records move to
 * `~/.coord/sessions-archive.jsonl`, one JSON record per line, appended (never rewritten).
 * Listing reads both, so `--list-sessions` stays complete; a record in `sessions.json` wins over
 * an archived copy of the same id, and among archived copies the last line wins.
 *
 * Crash safety: the move happens under the registry's lock, appending to the archive before
 * `sessions.json` is rewritten without the records; a crash in between leaves a record in both
 * (listed once). Every append starts with a newline, so a line torn by a crash never swallows
 * the next one; lines that do not parse are skipped.
 */
import { appendFile, readFile } from "node:fs/promises";
import type { SessionRecord } from "./session-record.js";

/** Records `sessions.json` holds at most, active sessions aside (they are never archived). */
export const REGISTRY_CAP = 200;

/** `<root>/sessions-archive.jsonl` beside `<root>/sessions.json`. */
export function archivePathOf(registryPath: string): string {
  return registryPath.replace(/sessions\.json$/, "sessions-archive.jsonl");
}

/** Every archived record, last copy of each id; [] when there is no archive. */
export async function readArchive(path: string): Promise<SessionRecord[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const byId = new Map<string, SessionRecord>();
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const record = JSON.parse(line) as SessionRecord;
      if (typeof record.id === "string") byId.set(record.id, record);
    } catch {
      // a line torn by a crash: its record is still in sessions.json (see the module comment)
    }
  }
  return [...byId.values()];
}

/**
 * Moves the oldest finished records out of `sessions` (in place) into the archive while there
 * are more than {@link REGISTRY_CAP}. Call under the registry lock, before rewriting it.
 */
export async function archiveOverflow(path: string, sessions: SessionRecord[]): Promise<void> {
  const excess = sessions.length - REGISTRY_CAP;
  if (excess <= 0) return;
  const oldestFirst = sessions
    .filter((record) => record.status !== "active")
    .sort((a, b) => (a.started_at < b.started_at ? -1 : a.started_at > b.started_at ? 1 : 0))
    .slice(0, excess);
  if (oldestFirst.length === 0) return;
  await appendFile(path, oldestFirst.map((record) => `\n${JSON.stringify(record)}`).join(""));
  const moved = new Set(oldestFirst);
  for (let index = sessions.length - 1; index >= 0; index--) {
    if (moved.has(sessions[index]!)) sessions.splice(index, 1);
  }
}

/** Registry records plus archived ones whose id the registry does not hold. */
export function withArchived(
  registry: readonly SessionRecord[],
  archived: readonly SessionRecord[],
): SessionRecord[] {
  const ids = new Set(registry.map((record) => record.id));
  return [...registry, ...archived.filter((record) => !ids.has(record.id))];
}
