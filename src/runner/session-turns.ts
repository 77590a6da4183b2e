/**
 * The session side of a command: open a memory session (a new one, or `--session-id` /
 * `session_id:` to continue one), run turns in it, and close it (spec section 2 "Memory
 * session", section 4.1 `--session-id`). Shared by the single query and the chat loop.
 */
import { stat } from "node:fs/promises";
import type { Config } from "../config/index.js";
import { ConfigError } from "../errors.js";
import { type LogFlags, type PreparedRun, runLogOptions } from "./prepare-run.js";
import type { RunLogOptions } from "./start-run.js";
import type { RunState } from "../session/index.js";
import {
  createSessionStore,
  FileLockError,
  historyFromTurns,
  type HistoryMessage,
  type SessionRecord,
  SessionsFileError,
  type SessionStatus,
  type SessionStore,
  type TurnRecord,
  turnRecordFromState,
} from "../sessions/index.js";

/** An open session: its record, its turns so far and the history they make. */
export interface OpenSession {
  store: SessionStore;
  record: SessionRecord;
  turns: TurnRecord[];
  /** Conversation history (user/assistant pairs of answered turns), oldest first. */
  history: HistoryMessage[];
  /** True when continuing an earlier session. */
  continued: boolean;
  /** A continued session's record before it was reopened (for {@link discardSession}). */
  before?: SessionRecord;
  /**
   * The `log_…` directory this process created for the session (its first logged turn here);
   * later turns of this process log in it as `turn_<n>`. Undefined until then: an earlier
   * process's directory (`record.log_dir`, maybe under another working directory) is never
   * written again.
   */
  ownLogDir?: string;
}

/** How many recent ids an unknown `--session-id` error lists. */
const RECENT_IDS = 5;

/**
 * Opens the session named by `sessionId` (or the config's `session_id`), else registers a new one;
 * either way the session is `active` and records this process's id (`pid`).
 * @throws ConfigError (exit 1) for an unknown id, listing the most recent ids, or for an
 *   unreadable sessions.json, or one another process keeps locked.
 */
export async function openSession(options: {
  home: string;
  sessionId: string | undefined;
  config: Config;
  configPath: string | undefined;
  cwd: string;
  kind: SessionRecord["kind"];
  now?: () => number;
}): Promise<OpenSession> {
  const store = createSessionStore({
    home: options.home,
    ...(options.now ? { now: options.now } : {}),
  });
  const id = options.sessionId ?? options.config.session_id;
  try {
    if (id !== undefined) {
      const found = await store.get(id);
      if (!found) throw await unknownSession(store, id);
      const turns = await store.turns(id);
      const record = await store.reopen(id);
      return {
        store,
        record,
        turns,
        history: historyFromTurns(turns),
        continued: true,
        before: found,
      };
    }
    const record = await store.create({
      kind: options.kind,
      models: options.config.agents.map(
        (agent) => `${agent.backend.type}/${agent.backend.model ?? agent.id}`,
      ),
      config_path: options.configPath ?? null,
      log_dir: null,
      cwd: options.cwd,
    });
    return { store, record, turns: [], history: [], continued: false };
  } catch (error) {
    if (error instanceof SessionsFileError || error instanceof FileLockError)
      throw new ConfigError(error.message);
    throw error;
  }
}

/**
 * `--continue` / `-c`: the id of the session to continue, the one of this working directory
 * used last (the latest end time, else start time, of the sessions whose `cwd` is `cwd`). A
 * session another coord process is still running (`active`) is skipped: two processes must not
 * write the same session.
 * @throws ConfigError (exit 1) when no session was started in `cwd`, or sessions.json cannot be
 *   read.
 */
export async function latestSessionId(home: string, cwd: string): Promise<string> {
  const store = createSessionStore({ home });
  let sessions: SessionRecord[];
  try {
    sessions = await store.list();
  } catch (error) {
    if (error instanceof SessionsFileError) throw new ConfigError(error.message);
    throw error;
  }
  const lastUsed = (record: SessionRecord) => Date.parse(record.ended_at ?? record.started_at);
  const here = sessions
    .filter((record) => record.cwd === cwd && record.status !== "active")
    .sort((a, b) => lastUsed(b) - lastUsed(a));
  const latest = here[0];
  if (latest === undefined)
    throw new ConfigError(
      `--continue: no finished session was started in ${cwd} (${sessions.length} elsewhere: coord --list-sessions, then --session-id ID); ask without --continue to start one`,
    );
  return latest.id;
}

async function unknownSession(store: SessionStore, id: string): Promise<ConfigError> {
  const recent = (await store.list()).slice(0, RECENT_IDS).map((session) => session.id);
  return new ConfigError(
    `--session-id ${id}: no such session in ${store.registryPath}; ` +
      (recent.length === 0
        ? "there are no sessions yet (run coord once to start one)"
        : `recent sessions: ${recent.join(", ")} (coord --list-sessions shows all)`),
  );
}

/**
 * The `log_…` directory to log the next turn in: the one this process made for the session, if it
 * still exists; else undefined (a new one where any new run goes).
 */
async function sessionLogDir(session: OpenSession): Promise<string | undefined> {
  const dir = session.ownLogDir;
  if (dir === undefined) return undefined;
  const info = await stat(dir).catch(() => null);
  return info?.isDirectory() ? dir : undefined;
}

/**
 * The run-log options of the session's next turn (`turn_<n>`, n its turn number in the session):
 * in the `log_…` directory this process already made for the session when it still exists, else
 * in a new `log_<now>` directory under the current `COORD_LOG_DIR` / `agent_outputs`, like any
 * new run (so a session continued with `--continue` or `--session-id` logs where `coord logs`
 * in this directory finds it, never in the first run's directory).
 * @param options.enabled false for `--no-logs`: no log at all (nor with `ui.logging_enabled: false`).
 * @param options.onError told once of the first log write failure.
 * @param options.root the log root of a new `log_…` directory; default as any new run's.
 */
export async function turnLogOptions(
  session: OpenSession,
  prepared: Pick<PreparedRun, "env" | "config">,
  options: LogFlags & { root?: string | undefined },
): Promise<RunLogOptions | undefined> {
  return runLogOptions(prepared, {
    ...options,
    logDir: await sessionLogDir(session),
    turn: session.record.turns + 1,
  });
}

/**
 * Names the turn's `log_…` directory in the session as soon as the run has created it (the
 * first turn of this process; its later turns log in the same directory), so that a reader can tell
 * whether the log is still being written (`coord viewer` following a run: an `active` session
 * whose process is gone wrote its last event). Best effort: a registry that cannot be written
 * now is written by {@link recordTurn} at the end of the turn.
 * @param runDir the run's `log_…` directory; undefined with `--no-logs`.
 */
export async function noteLogDir(session: OpenSession, runDir: string | undefined): Promise<void> {
  if (runDir === undefined) return;
  session.ownLogDir = runDir;
  if (session.record.log_dir === runDir) return;
  try {
    session.record = await session.store.update(session.record.id, { log_dir: runDir });
  } catch {
    // recordTurn writes it (or says why it cannot) when the turn ends.
  }
}

/**
 * Records a finished turn (turn file + registry) and appends it to the session's history.
 * @param options.logDir the turn's attempt directory; options.runDir its `log_…` directory.
 */
export async function recordTurn(
  session: OpenSession,
  options: {
    question: string;
    state: RunState;
    startedAt: number;
    endedAt: number;
    logDir: string | undefined;
    runDir: string | undefined;
    /** Also end the session with this status, in the same registry write (a one-shot run). */
    close?: Exclude<SessionStatus, "active">;
  },
): Promise<TurnRecord> {
  const turn = turnRecordFromState(options.state, {
    turn: session.record.turns + 1,
    question: options.question,
    startedAt: options.startedAt,
    endedAt: options.endedAt,
    logDir: options.logDir ?? null,
  });
  session.record = await session.store.saveTurn(session.record.id, turn, {
    ...(options.runDir !== undefined ? { log_dir: options.runDir } : {}),
    ...(options.close !== undefined
      ? { status: options.close, ended_at: new Date(options.endedAt).toISOString() }
      : {}),
  });
  if (options.runDir !== undefined) session.ownLogDir = options.runDir;
  session.turns.push(turn);
  session.history = historyFromTurns(session.turns);
  return turn;
}

/** Marks the session ended with `status`. */
export async function closeSession(
  session: OpenSession,
  status: Exclude<SessionStatus, "active">,
  now: () => number = Date.now,
): Promise<void> {
  session.record = await session.store.update(session.record.id, {
    status,
    ended_at: new Date(now()).toISOString(),
  });
}

/**
 * Undoes {@link openSession} when the run could not start (a missing key, a bad model file): a
 * new session is removed, a continued one gets its earlier status back. Never throws.
 */
export async function discardSession(session: OpenSession): Promise<void> {
  const { store, record, before } = session;
  await (
    before
      ? store.update(record.id, {
          status: before.status,
          ended_at: before.ended_at,
          pid: before.pid,
        })
      : store.remove(record.id)
  ).catch(() => undefined);
}
