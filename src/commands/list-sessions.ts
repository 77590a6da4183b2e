/**
 * `coord --list-sessions [--json]`: the memory sessions of `~/.coord/sessions.json`, newest
 * first (spec section 2 "Memory session": ID, timestamp, models, status).
 *
 * Table columns: ID, STARTED (local time, `YYYY-MM-DD HH:MM`), TURNS, STATUS, MODELS. `--json`
 * prints the records as a JSON array (the {@link SessionRecord} fields) for scripts. A session
 * left `active` by a coord process that is gone (`kill -9`, a crash) shows as `interrupted`
 * (src/session/stale-sessions.ts).
 */
import { ConfigError } from "../errors.js";
import { createSessionStore, type SessionRecord, SessionsFileError } from "../session/index.js";

/**
 * Prints the sessions to `out`.
 * @returns the exit code (0).
 * @throws ConfigError when sessions.json cannot be read (names the file).
 */
export async function listSessions(options: {
  home: string;
  json: boolean;
  out: { write(text: string): unknown };
}): Promise<number> {
  const store = createSessionStore({ home: options.home });
  let sessions: SessionRecord[];
  try {
    sessions = await store.list();
  } catch (error) {
    if (error instanceof SessionsFileError) throw new ConfigError(error.message);
    throw error;
  }
  if (options.json) {
    options.out.write(`${JSON.stringify(sessions, null, 2)}\n`);
    return 0;
  }
  if (sessions.length === 0) {
    options.out.write(
      `No sessions yet (${store.registryPath}). Every chat or question starts one.\n`,
    );
    return 0;
  }
  options.out.write(`${formatSessionTable(sessions)}\n`);
  return 0;
}

/** The sessions as an aligned text table with a header row. */
export function formatSessionTable(sessions: readonly SessionRecord[]): string {
  const rows = [
    ["ID", "STARTED", "TURNS", "STATUS", "MODELS"],
    ...sessions.map((session) => [
      session.id,
      localTime(session.started_at),
      String(session.turns),
      session.status,
      session.models.join(", "),
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join("  "),
    )
    .join("\n");
}

/** `YYYY-MM-DD HH:MM` in local time from an ISO timestamp. */
function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
