/**
 * Memory sessions (spec section 2 "Memory session", docs/architecture.md "Files on disk"): every
 * chat and every single query belongs to a session `session_<YYYYMMDD>_<HHMMSS>` (local time; `_2`,
 * `_3`, … when that second is taken).
 *
 * - `~/.coord/sessions.json`: the registry, `{version: 1, sessions: SessionRecord[]}`, rewritten
 *   atomically (the store's one policy, src/store/atomic-write.ts: temp file + rename, no
 *   fsync) under a cross-process lock
 *   (file-lock.ts), so a reader never sees half a file and two coord processes do not lose each
 *   other's updates.
 * - Each record names the process that runs it (`pid`): an `active` session whose process is
 *   gone is reported as `interrupted` by {@link SessionStore.list} and {@link SessionStore.get},
 *   and written so at the next change of the registry (stale-sessions.ts).
 * - `~/.coord/sessions/<id>/turn_<n>.json`: one {@link TurnRecord} per turn (question, final
 *   answer, winner, times), written atomically; the history a continued session feeds the agents.
 *
 * Paths come from the injected `home`; times from the injected `now`; the process id and the
 * "is it alive" check are injectable too (CONTRIBUTING.md rule 9).
 */
import { mkdirSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { StoredFileError } from "../errors.js";
import { redact } from "../redact.js";
import { childPath } from "../safe-name.js";
import { writeFileAtomic } from "../store/index.js";
import { withFileLock } from "./file-lock.js";
import { archiveOverflow, archivePathOf, readArchive, withArchived } from "./sessions-archive.js";
import type { SessionRecord } from "./session-record.js";
import {
  isProcessAlive,
  isStale,
  withLiveStatus,
  type ProcessAliveCheck,
} from "./stale-sessions.js";

export type { SessionRecord, SessionStatus } from "./session-record.js";

/** Registry file format version. A reader refuses versions it does not know. */
export const SESSIONS_FILE_VERSION = 1;

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
  /**
   * The personas the agents ran with (persona generation), by real agent id; absent without
   * personas (and in turns written before coord saved them). Reused by a later turn with
   * `persona_generator.persist_across_turns`.
   */
  personas?: Record<string, string>;
  /**
   * Why the turn's answer (or failure) is degraded, one line per reason (`run-end.degraded`:
   * agents removed, a budget limit, the timeout); absent for a clean turn.
   */
  degraded?: string[];
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
  /** The id written in the sessions this store opens; default `process.pid`. */
  pid?: number;
  /** Whether a session's process still exists; default {@link isProcessAlive}. */
  isAlive?: ProcessAliveCheck;
}

/** Thrown for an unreadable registry (bad JSON, unknown version): names the file. */
export class SessionsFileError extends StoredFileError {
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
  /**
   * Every session, newest first (by start time). [] when there is no registry yet. An `active`
   * session whose process is gone is listed as `interrupted`.
   */
  list(): Promise<SessionRecord[]>;
  /** The session (its status as in {@link list}), or undefined. */
  get(id: string): Promise<SessionRecord | undefined>;
  /** Registers a new active session with a fresh id, owned by this store's process. */
  create(
    init: Omit<SessionRecord, "id" | "started_at" | "ended_at" | "status" | "turns" | "pid">,
  ): Promise<SessionRecord>;
  /**
   * Makes the session active again, owned by this store's process (`--session-id`).
   * @throws Error when the id is unknown.
   */
  reopen(id: string): Promise<SessionRecord>;
  /** Merges `patch` into the record. @throws Error when the id is unknown. */
  update(id: string, patch: Partial<Omit<SessionRecord, "id">>): Promise<SessionRecord>;
  /** Removes the record and its turns (a session whose run never started). */
  remove(id: string): Promise<void>;
  /**
   * Writes `turn_<n>.json`, then in one registry write sets the record's `turns` to at least `n`
   * and applies `patch` (e.g. the log dir, the end status); returns the record.
   * @throws Error when the session is in neither the registry nor its archive.
   */
  saveTurn(
    id: string,
    turn: TurnRecord,
    patch?: Partial<Omit<SessionRecord, "id" | "turns">>,
  ): Promise<SessionRecord>;
  /** The session's turns, oldest first. [] when it has none. */
  turns(id: string): Promise<TurnRecord[]>;
}

/** Opens the store under `<home>/.coord` (created on the first write). */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const now = options.now ?? Date.now;
  const pid = options.pid ?? process.pid;
  const isAlive = options.isAlive ?? ((target: number) => isProcessAlive(target));
  const root = join(options.home, ".coord");
  const registryPath = join(root, "sessions.json");
  const archivePath = archivePathOf(registryPath);
  // A session id names a folder: childPath refuses one that would leave sessions/.
  const turnsDir = (id: string) => childPath(join(root, "sessions"), id);
  let queue: Promise<unknown> = Promise.resolve();

  /**
   * The registry's records. Synchronous, like the lock (file-lock.ts): one small file (at most
   * REGISTRY_CAP records), read without waiting for libuv's pool twice on a run's way to its first
   * model request and once after its last response.
   */
  function read(): SessionRecord[] {
    let text: string;
    try {
      text = readFileSync(registryPath, "utf8");
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

  /**
   * Runs `change` on the registry under the lock (in-process queue + cross-process lock). Stale
   * sessions are written as `interrupted` on the way.
   */
  function mutate<T>(change: (sessions: SessionRecord[]) => T | Promise<T>): Promise<T> {
    const run = queue.then(async () => {
      mkdirSync(root, { recursive: true });
      return withFileLock(registryPath, async () => {
        const sessions = read();
        for (const record of sessions) if (isStale(record, isAlive)) record.status = "interrupted";
        const result = await change(sessions);
        await archiveOverflow(archivePath, sessions);
        await writeFileAtomic(
          registryPath,
          `${JSON.stringify({ version: SESSIONS_FILE_VERSION, sessions }, null, 2)}\n`,
        );
        return result;
      });
    });
    queue = run.catch(() => undefined);
    return run;
  }

  /** Patches one record (a function patch sees the current record) in one registry write. */
  function update(
    id: string,
    patch:
      | Partial<Omit<SessionRecord, "id">>
      | ((record: SessionRecord) => Partial<Omit<SessionRecord, "id">>),
  ): Promise<SessionRecord> {
    return mutate(async (sessions) => {
      let index = sessions.findIndex((session) => session.id === id);
      if (index < 0) {
        // An archived session continued (`--session-id`): it comes back into the registry.
        const archived = (await readArchive(archivePath)).find((session) => session.id === id);
        if (archived) index = sessions.push(archived) - 1;
      }
      if (index < 0) throw new Error(`session ${id} is not in ${registryPath}`);
      const current = sessions[index]!;
      const record = {
        ...current,
        ...(typeof patch === "function" ? patch(current) : patch),
        id,
      };
      sessions[index] = record;
      return record;
    });
  }

  return {
    registryPath,
    async list() {
      const all = withArchived(read(), await readArchive(archivePath));
      const sessions = all.map((record) => withLiveStatus(record, isAlive));
      return sessions.sort((a, b) =>
        a.started_at === b.started_at
          ? b.id.localeCompare(a.id)
          : a.started_at < b.started_at
            ? 1
            : -1,
      );
    },
    async get(id) {
      const record =
        read().find((session) => session.id === id) ??
        (await readArchive(archivePath)).find((session) => session.id === id);
      return record && withLiveStatus(record, isAlive);
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
          pid,
        };
        sessions.push(record);
        return record;
      });
    },
    reopen(id) {
      return update(id, { status: "active", ended_at: null, pid });
    },
    update,
    async remove(id) {
      await mutate((sessions) => {
        const index = sessions.findIndex((session) => session.id === id);
        if (index >= 0) sessions.splice(index, 1);
      });
      await rm(turnsDir(id), { recursive: true, force: true });
    },
    async saveTurn(id, turn, patch = {}) {
      await mkdir(turnsDir(id), { recursive: true });
      await writeFileAtomic(
        join(turnsDir(id), `turn_${turn.turn}.json`),
        redact(`${JSON.stringify(turn, null, 2)}\n`),
      );
      return update(id, (record) => ({ ...patch, turns: Math.max(record.turns, turn.turn) }));
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

/**
 * The personas of the latest turn that has any, by real agent id (for
 * `persona_generator.persist_across_turns`); undefined when no turn has personas.
 */
export function latestPersonas(turns: readonly TurnRecord[]): Record<string, string> | undefined {
  for (let index = turns.length - 1; index >= 0; index--) {
    const personas = turns[index]!.personas;
    if (personas !== undefined && Object.keys(personas).length > 0) return personas;
  }
  return undefined;
}
