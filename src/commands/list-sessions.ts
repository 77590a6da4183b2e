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
import { createSessionStore, type SessionRecord, SessionsFileError } from "../sessions/index.js";
import { renderTable } from "../ui/plain/index.js";

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

/** Sessions the text table shows, newest first; `--json` lists every one. */
export const MAX_SESSIONS_SHOWN = 20;

/**
 * The sessions as an aligned text table with a header row: the {@link MAX_SESSIONS_SHOWN} newest,
 * then a line counting the older ones. A model used by several agents is named once, with its
 * count (`openai/gpt-4o-mini ×3`).
 */
export function formatSessionTable(sessions: readonly SessionRecord[]): string {
  const shown = sessions.slice(0, MAX_SESSIONS_SHOWN);
  const table = renderTable(
    [
      { header: "ID" },
      { header: "STARTED" },
      { header: "TURNS" },
      { header: "STATUS" },
      { header: "MODELS" },
    ],
    shown.map((session) => [
      session.id,
      localTime(session.started_at),
      String(session.turns),
      session.status,
      modelsText(session.models),
    ]),
  );
  const older = sessions.length - shown.length;
  return older > 0
    ? `${table}\n… and ${older} older session${older === 1 ? "" : "s"} (coord --list-sessions --json lists every one)`
    : table;
}

/** Each model once, in first-use order, with `×N` when several agents use it. */
function modelsText(models: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const model of models) counts.set(model, (counts.get(model) ?? 0) + 1);
  return [...counts].map(([model, n]) => (n > 1 ? `${model} ×${n}` : model)).join(", ");
}

/** `YYYY-MM-DD HH:MM` in local time from an ISO timestamp. */
function localTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
