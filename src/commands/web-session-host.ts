/**
 * The {@link WebHost} of `coord --web` (docs/web.md): the page shows one memory session at a
 * time. Each question is a turn of it, run as in the chat and the one-shot run
 * (src/runner/turn.ts: the session's history, `turn_<n>` in the session's log directory, recorded in
 * ~/.coord/sessions.json); earlier sessions open from the registry and their logs, and a
 * question there continues them. One turn runs at a time.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseEventLog } from "../events/index.js";
import {
  closeSession,
  discardSession,
  openSession,
  type OpenSession,
  type PreparedRun,
  type RunHandle,
  type RunningTurn,
  runTurn,
} from "../runner/index.js";
import {
  feedRun,
  logWorkspaceRoots,
  type RunKey,
  type SessionSummary,
  type SessionView,
  type TurnView,
  type WebHost,
  WebHostError,
  type WorkspaceRoot,
} from "../server/index.js";
import type { LiveRun } from "../session/index.js";
import { createSessionStore, type TurnRecord } from "../sessions/index.js";
import type { Tracing } from "../tracing/index.js";
import type { CommandIO } from "./io.js";

/** Options of {@link createSessionWebHost}. */
export interface SessionWebHostOptions {
  prepared: PreparedRun;
  io: CommandIO;
  logs: boolean;
  debug: boolean;
  /** `--session-id`: show (and continue) that session first. */
  sessionId?: string | undefined;
  /** Told of problems the page cannot show (a log that cannot be written). */
  warn: (line: string) => void;
  /** Traces each turn when on (`--tracing`, `COORD_TRACING_ENABLED`; docs/tracing.md). */
  tracing?: Tracing | undefined;
  /** `--output-file`: rewritten with each answered turn's answer (src/runner/output-file.ts). */
  outputFile?: string | undefined;
}

/** The host, plus what the command needs to stop it. */
export interface SessionWebHost extends WebHost {
  /** Stops the running turn (it ends `shutdown`), waits for it, and closes the open session. */
  shutdown(): Promise<void>;
  /** Resolves when the turn running now (if any) has ended and been recorded. */
  idle(): Promise<void>;
}

interface Shown {
  id: string | null;
  turns: TurnRecord[];
  /** Set once a question opened (or continued) the session in this process. */
  open?: OpenSession;
}

interface Running {
  key: RunKey;
  turn: number;
  question: string;
  handle: RunHandle;
  finished: Promise<void>;
}

/**
 * Creates the host.
 * @throws ConfigError for an unknown `--session-id` (the registry's recent ids are named).
 */
export async function createSessionWebHost(
  options: SessionWebHostOptions,
): Promise<SessionWebHost> {
  const { prepared, io } = options;
  const store = createSessionStore({ home: io.home });
  const listeners = new Set<(view: SessionView) => void>();
  /** Runs of this process, by key (kept for reconnecting pages and workspace roots). */
  const runs = new Map<
    RunKey,
    { live: LiveRun; logDir: string | undefined; workspaces: Readonly<Record<string, string>> }
  >();
  let shown: Shown = { id: null, turns: [] };
  let running: Running | undefined;

  if (options.sessionId !== undefined) {
    // Opens it now so an unknown id fails before the server starts (exit 1).
    const open = await openSession({
      home: io.home,
      sessionId: options.sessionId,
      config: prepared.config,
      configPath: prepared.configPath,
      cwd: io.cwd,
      kind: "interactive",
    });
    shown = { id: open.record.id, turns: open.turns, open };
  }

  const view = (): SessionView => {
    const turns: TurnView[] = shown.turns.map((turn) => ({
      key: `${shown.id}/${turn.turn}`,
      turn: turn.turn,
      question: turn.question,
      status: turn.status,
      logDir: turn.log_dir,
    }));
    if (running) {
      turns.push({
        key: running.key,
        turn: running.turn,
        question: running.question,
        status: "running",
        logDir: running.handle.logDir ?? null,
      });
    }
    return {
      id: shown.id,
      title: turns[0]?.question ?? "New session",
      askable: true,
      busy: running !== undefined,
      turns,
    };
  };
  const changed = () => {
    const current = view();
    for (const listener of listeners) listener(current);
  };
  const refuseWhileBusy = () => {
    if (running) throw new WebHostError(409, "a turn is running: wait for it to end");
  };
  const closeOpen = async () => {
    if (shown.open) await closeSession(shown.open, "completed").catch(() => undefined);
  };

  /** Starts a turn of the shown session (src/runner/turn.ts); it ends in the background. */
  async function startTurn(question: string): Promise<void> {
    shown.open ??= await openSession({
      home: io.home,
      sessionId: shown.id ?? undefined,
      config: prepared.config,
      configPath: prepared.configPath,
      cwd: io.cwd,
      kind: "interactive",
    });
    const session = shown.open;
    shown.id = session.record.id;
    let turn: RunningTurn;
    try {
      turn = await runTurn({
        prepared,
        question,
        session,
        io,
        logs: options.logs,
        debug: options.debug,
        outputFile: options.outputFile,
        tracing: options.tracing,
        warn: options.warn,
        subscriberName: "a page's feed",
      });
    } catch (error) {
      if (session.turns.length === 0) {
        await discardSession(session);
        shown = { id: null, turns: [] };
      }
      throw new WebHostError(400, (error as Error).message);
    }
    const { handle } = turn;
    const key = `${session.record.id}/${turn.turn}`;
    runs.set(key, { live: handle.live, logDir: handle.logDir, workspaces: handle.workspaces });
    const finished = turn.finished.then(
      (result) => {
        if (shown.open === session) shown.turns = session.turns;
        if (result.outputError) {
          options.warn(
            `cannot write --output-file ${options.outputFile}: ${result.outputError.message}`,
          );
        }
      },
      (error: Error) => options.warn(`the run failed internally: ${error.message}`),
    );
    running = { key, turn: turn.turn, question, handle, finished };
    void finished.finally(() => {
      running = undefined;
      changed();
    });
  }

  /** Where a run's events are: this process's runs first, else the session's turn record. */
  async function sourceOf(key: RunKey) {
    const own = runs.get(key);
    if (own) return own;
    const slash = key.lastIndexOf("/");
    const sessionId = key.slice(0, slash);
    const turnNumber = Number(key.slice(slash + 1));
    const turns = await store.turns(sessionId).catch(() => [] as TurnRecord[]);
    const turn = turns.find((candidate) => candidate.turn === turnNumber);
    if (!turn) throw new WebHostError(404, `no run ${key}`);
    return { live: undefined, logDir: turn.log_dir ?? undefined, workspaces: {} };
  }

  return {
    current: view,
    async listSessions(): Promise<SessionSummary[]> {
      const sessions = await store.list();
      return Promise.all(
        sessions.map(async (session) => {
          const first = session.turns > 0 ? (await store.turns(session.id))[0] : undefined;
          return {
            id: session.id,
            startedAt: session.started_at,
            status: session.status,
            kind: session.kind,
            models: session.models,
            turns: session.turns,
            title: first?.question ?? "(no questions)",
          };
        }),
      );
    },
    async openSession(id) {
      refuseWhileBusy();
      if (id === shown.id) return view();
      const record = await store.get(id);
      if (!record) throw new WebHostError(404, `no session ${id} in ${store.registryPath}`);
      await closeOpen();
      shown = { id, turns: await store.turns(id) };
      changed();
      return view();
    },
    async newSession() {
      refuseWhileBusy();
      await closeOpen();
      shown = { id: null, turns: [] };
      changed();
      return view();
    },
    async ask(question) {
      refuseWhileBusy();
      if (question.trim() === "") throw new WebHostError(400, "the question is empty");
      await startTurn(question.trim());
      changed();
      return view();
    },
    async subscribe(key, after, listener) {
      return feedRun(await sourceOf(key), after, listener);
    },
    async workspaceRoots(key): Promise<WorkspaceRoot[]> {
      const source = await sourceOf(key);
      const agentIds = source.live
        ? source.live.state.agents.map((agent) => agent.id)
        : await agentIdsFromLog(source.logDir);
      // The live workspaces only while the run goes on: then its snapshots tell what it did.
      const running = source.live !== undefined && !source.live.ended;
      return logWorkspaceRoots(source.logDir, agentIds, running ? source.workspaces : {});
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async idle() {
      await running?.finished;
    },
    async shutdown() {
      const current = running;
      if (current) {
        current.handle.stop("shutdown");
        await current.finished;
      }
      if (shown.open) {
        const last = shown.open.turns.at(-1);
        await closeSession(
          shown.open,
          current
            ? "interrupted"
            : last && last.status !== "completed"
              ? statusOf(last.status)
              : "completed",
        ).catch(() => undefined);
      }
    },
  };
}

function statusOf(status: string): "completed" | "failed" | "timeout" | "interrupted" {
  return status === "failed" || status === "timeout" || status === "interrupted"
    ? status
    : "completed";
}

/** The agents of a logged run, from its run-start event (config order). */
async function agentIdsFromLog(logDir: string | undefined): Promise<string[]> {
  if (!logDir) return [];
  const text = await readFile(join(logDir, "events.jsonl"), "utf8").catch(() => "");
  try {
    const start = parseEventLog(text).events.find((event) => event.type === "run-start");
    return start?.type === "run-start" ? start.agents.map((agent) => agent.id) : [];
  } catch {
    return []; // an unreadable log has no workspaces to show
  }
}
