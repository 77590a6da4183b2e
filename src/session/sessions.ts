/**
 * Memory sessions (spec section 2 "Memory session", ARCHITECTURE.md "Files on disk"): every chat
 * and every single query belongs to a session `session_<YYYYMMDD>_<HHMMSS>` (local time; `_2`,
 * `_3`, … when that second is taken).
 *
 * - `~/.coord/sessions.json`: the registry, `{version: 1, sessions: SessionRecord[]}`, rewritten
 *   atomically (temp file + rename) under a lock directory, so a reader never sees half a file
 *   and two coord processes do not lose each other's updates.
 * - `~/.coord/sessions/<id>/turn_<n>.json`: one {@link TurnRecord} per turn (question, final
 *   answer, winner, times), written atomically; the history a continued session feeds the agents.
 *
 * Paths come from the injected `home`; times from the injected `now` (STYLE.md rule 9).
 */
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
// The npm package, not the store's helper: the session layer sits below the store.
import writeFileAtomic from "write-file-atomic";

/** Registry file format version. A reader refuses versions it does not know. */
export const SESSIONS_FILE_VERSION = 1;

/** `active` while a chat or query runs (or if coord died); then how the session ended. */
export type SessionStatus = "active" | "completed" | "failed" | "timeout" | "interrupted";

/** One session in `sessions.json`. Times are ISO-8601 UTC. */
export interface SessionRecord {
  id: string;
  started_at: string;
  /** null while active. */
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
}

/** One turn, `~/.coord/sessions/<id>/turn_<n>.json`. */
export interface TurnRecord {
  /** 1-based. */
  turn: number;
  question: string;
  /** null when the turn ended without one (failed, interrupted). */
  answer: string | null;
  /** Real agent id of the winner, if any. */
  winner: string | null;
  /** How the turn's run ended: `completed`, `failed`, `timeout`, `interrupted`. */
  status: string;
  started_at: string;
  ended_at: string;
  /** The turn's attempt directory, when logged. */
  log_dir: string | null;
  /** Answers (label, agent, text) and votes (voter → target, reason), for `/inspect`. */
  answers: Array<{ label: string; agent_id: string; content: string }>;
  votes: Array<{ voter_id: string; target_id: string; label: string; reason: string }>;
}

/** A message of the conversation history (the engine's `HistoryTurn` shape). */
export interface HistoryMessage {
  role: "user" | "assistant";
  content: string;
}

/** Where sessions live and what time it is. */
export interface SessionStoreOptions {
  /** Home directory; the store is `<home>/.coord`. */
  home: string;
  /** Epoch ms; default Date.now. */
  now?: () => number;
}

/** Thrown for an unreadable registry (bad JSON, unknown version): names the file. */
export class SessionsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionsFileError";
  }
}

/** `session_<YYYYMMDD>_<HHMMSS>` for `date` in local time. */
export function sessionIdFor(date: Date): string {
  const pad = (value: number, width = 2) => String(value).padStart(width, "0");
  return (
    `session_${pad(date.getFullYear(), 4)}${pad(date.getMonth() + 1)}${pad(date.getDate())}` +
    `_${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`
  );
}

/** The sessions store: registry and turns. All methods are safe to call concurrently. */
export interface SessionStore {
  /** `<home>/.coord/sessions.json`. */
  readonly registryPath: string;
  /** Every session, newest first (by start time). [] when there is no registry yet. */
  list(): Promise<SessionRecord[]>;
  /** The session, or undefined. */
  get(id: string): Promise<SessionRecord | undefined>;
  /** Registers a new active session with a fresh id. */
  create(
    init: Omit<SessionRecord, "id" | "started_at" | "ended_at" | "status" | "turns">,
  ): Promise<SessionRecord>;
  /** Merges `patch` into the record. @throws Error when the id is unknown. */
  update(id: string, patch: Partial<Omit<SessionRecord, "id">>): Promise<SessionRecord>;
  /** Removes the record and its turns (a session whose run never started). */
  remove(id: string): Promise<void>;
  /** Writes `turn_<n>.json` and sets the record's `turns` to at least `n`. */
  saveTurn(id: string, turn: TurnRecord): Promise<void>;
  /** The session's turns, oldest first. [] when it has none. */
  turns(id: string): Promise<TurnRecord[]>;
}

const LOCK_STALE_MS = 10_000;
const LOCK_RETRY_MS = 15;

/** Opens the store under `<home>/.coord` (created on the first write). */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const now = options.now ?? Date.now;
  const root = join(options.home, ".coord");
  const registryPath = join(root, "sessions.json");
  const lockPath = `${registryPath}.lock`;
  const turnsDir = (id: string) => join(root, "sessions", id);
  let queue: Promise<unknown> = Promise.resolve();

  async function read(): Promise<SessionRecord[]> {
    let text: string;
    try {
      text = await readFile(registryPath, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    let parsed: { version?: unknown; sessions?: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new SessionsFileError(
        `${registryPath} is not valid JSON: fix or delete it (coord starts a new one)`,
      );
    }
    if (parsed.version !== SESSIONS_FILE_VERSION || !Array.isArray(parsed.sessions)) {
      throw new SessionsFileError(
        `${registryPath}: unknown format version ${JSON.stringify(parsed.version)} (this coord reads version ${SESSIONS_FILE_VERSION}): upgrade coord`,
      );
    }
    return parsed.sessions as SessionRecord[];
  }

  /** Runs `change` on the registry under the lock (in-process queue + lock directory). */
  function mutate<T>(change: (sessions: SessionRecord[]) => T): Promise<T> {
    const run = queue.then(async () => {
      await mkdir(root, { recursive: true });
      await acquireLock(lockPath, now);
      try {
        const sessions = await read();
        const result = change(sessions);
        await writeFileAtomic(
          registryPath,
          `${JSON.stringify({ version: SESSIONS_FILE_VERSION, sessions }, null, 2)}\n`,
        );
        return result;
      } finally {
        await rm(lockPath, { recursive: true, force: true });
      }
    });
    queue = run.catch(() => undefined);
    return run;
  }

  return {
    registryPath,
    async list() {
      const sessions = await read();
      return [...sessions].sort((a, b) =>
        a.started_at === b.started_at
          ? b.id.localeCompare(a.id)
          : a.started_at < b.started_at
            ? 1
            : -1,
      );
    },
    async get(id) {
      return (await read()).find((session) => session.id === id);
    },
    create(init) {
      return mutate((sessions) => {
        const date = new Date(now());
        const base = sessionIdFor(date);
        const taken = new Set(sessions.map((session) => session.id));
        let id = base;
        for (let suffix = 2; taken.has(id); suffix++) id = `${base}_${suffix}`;
        const record: SessionRecord = {
          id,
          started_at: date.toISOString(),
          ended_at: null,
          status: "active",
          turns: 0,
          ...init,
        };
        sessions.push(record);
        return record;
      });
    },
    update(id, patch) {
      return mutate((sessions) => {
        const index = sessions.findIndex((session) => session.id === id);
        if (index < 0) throw new Error(`session ${id} is not in ${registryPath}`);
        const record = { ...sessions[index]!, ...patch, id };
        sessions[index] = record;
        return record;
      });
    },
    async remove(id) {
      await mutate((sessions) => {
        const index = sessions.findIndex((session) => session.id === id);
        if (index >= 0) sessions.splice(index, 1);
      });
      await rm(turnsDir(id), { recursive: true, force: true });
    },
    async saveTurn(id, turn) {
      await mkdir(turnsDir(id), { recursive: true });
      await writeFileAtomic(
        join(turnsDir(id), `turn_${turn.turn}.json`),
        `${JSON.stringify(turn, null, 2)}\n`,
      );
      await mutate((sessions) => {
        const record = sessions.find((session) => session.id === id);
        if (record) record.turns = Math.max(record.turns, turn.turn);
      });
    },
    async turns(id) {
      let names: string[];
      try {
        names = await readdir(turnsDir(id));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const numbers = names
        .map((name) => /^turn_(\d+)\.json$/.exec(name)?.[1])
        .filter((value): value is string => value !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
      const turns: TurnRecord[] = [];
      for (const number of numbers) {
        const text = await readFile(join(turnsDir(id), `turn_${number}.json`), "utf8");
        turns.push(JSON.parse(text) as TurnRecord);
      }
      return turns;
    },
  };
}

/**
 * The conversation history the turns make: each turn with a final answer gives a user message
 * (its question) and an assistant message (its answer); turns without an answer are left out.
 */
export function historyFromTurns(turns: readonly TurnRecord[]): HistoryMessage[] {
  return turns.flatMap((turn) =>
    turn.answer === null
      ? []
      : [
          { role: "user" as const, content: turn.question },
          { role: "assistant" as const, content: turn.answer },
        ],
  );
}

/** Takes the lock directory, waiting while another process holds it (a stale lock is broken). */
async function acquireLock(path: string, now: () => number): Promise<void> {
  for (;;) {
    try {
      await mkdir(path);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const info = await stat(path).catch(() => null);
    if (info && now() - info.mtimeMs > LOCK_STALE_MS) {
      await rm(path, { recursive: true, force: true });
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
}
