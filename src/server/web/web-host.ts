/**
 * What the browser UI's server (`coord --web`, docs/web.md) needs from the command that runs it:
 * the session the page shows, earlier sessions, asking a question, and the runs' events. The
 * command implements it (a memory session of turns for `coord --web`, one analysis run for
 * `coord logs analyze --ui webui`); the Hono app (web-app.ts) only serves it.
 *
 * A run is named by a {@link RunKey}, `<session id>/<turn>`, the same in every message.
 */
import type { CoordEvent } from "../../events/index.js";

/** `<session id>/<turn>` (turn 1-based). */
export type RunKey = string;

/** One turn of a session, as the page lists it. Times are ISO-8601 UTC. */
export interface TurnView {
  key: RunKey;
  turn: number;
  question: string;
  /** `running` while its run goes on; then how it ended (`completed`, `failed`, …). */
  status: string;
  /** The turn's attempt directory, when logged. */
  logDir: string | null;
}

/** The session the page shows. */
export interface SessionView {
  /** null before the first question of a new session. */
  id: string | null;
  /** A short title: the first question, or what the page is for. */
  title: string;
  /** False for a view that takes no questions (an earlier session of another kind, an analysis). */
  askable: boolean;
  /** True while a turn runs (the question box waits). */
  busy: boolean;
  turns: TurnView[];
}

/** One earlier session in the session list. */
export interface SessionSummary {
  id: string;
  startedAt: string;
  status: string;
  kind: string;
  models: string[];
  turns: number;
  /** The first turn's question, when it has one. */
  title: string;
}

/**
 * A directory the workspace browser may show (read-only): a snapshot of an agent's workspace, the
 * final result (the presenter's last snapshot), or, while the run goes on, an agent's live
 * workspace; see workspace-roots.ts.
 */
export interface WorkspaceRoot {
  /**
   * Names it in the API (`?root=`): stable while the run adds roots (`alice/snapshots/agent1.2`,
   * `alice/live`).
   */
  id: string;
  /** What the page shows: the snapshot's label (`agent1.2`), `Final result` or `live`. */
  label: string;
  /** Absolute path. */
  path: string;
  /** The agent whose workspace it is. */
  agentId: string;
  /**
   * The snapshot's label: `agent<N>.<M>` (with answer `agent<N>.<M>`) or `agent<N>.final`; `""`
   * for a live workspace.
   */
  snapshot: string;
  /** True for the run's result. */
  final: boolean;
  /** True for the agent's live workspace (`.coord/workspaces/<run>/<name>/`), offered while the run goes on. */
  live: boolean;
  /** True for the agent's newest answer snapshot (and the final result). */
  latest: boolean;
}

/** One directory entry of a workspace. `size` in bytes (0 for directories). */
export interface FileEntry {
  name: string;
  kind: "dir" | "file";
  size: number;
}

/** How a workspace file is previewed. */
export type PreviewKind = "text" | "markdown" | "image" | "binary" | "too-large";

/** A listed directory or a previewed file; `path` is relative to the root (`""` for the root). */
export type FileView =
  | { kind: "dir"; path: string; entries: FileEntry[] }
  | { kind: "file"; path: string; size: number; preview: PreviewKind; text?: string };

/**
 * An error the page should see with an HTTP status (400 bad input, 403 outside the allowed
 * directories, 404 unknown, 409 busy).
 */
export class WebHostError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = "WebHostError";
  }
}

/** Receives one event of a run, in seq order. */
export type RunEventListener = (event: CoordEvent) => void;

/** The command's side of the browser UI. */
export interface WebHost {
  /** The session the page shows now. */
  current(): SessionView;
  /** Every memory session, newest first. */
  listSessions(): Promise<SessionSummary[]>;
  /**
   * Shows an earlier session (its turns from their logs); the next question continues it.
   * @throws WebHostError 404 for an unknown id, 409 while a turn runs.
   */
  openSession(id: string): Promise<SessionView>;
  /** Starts a new empty session (the next question opens it). @throws WebHostError 409 while busy. */
  newSession(): Promise<SessionView>;
  /**
   * Asks the team: a new turn of the current session.
   * @throws WebHostError 409 while a turn runs, 400 for an empty question or a view that takes none.
   */
  ask(question: string): Promise<SessionView>;
  /**
   * Sends the run's events with `seq > after`, oldest first, then the live ones until it ends.
   * Events already sent are never sent again and none is skipped (live runs from memory, others
   * from their events.jsonl).
   * @returns a function that stops the feed.
   * @throws WebHostError 404 for an unknown run.
   */
  subscribe(key: RunKey, after: number, listener: RunEventListener): Promise<() => void>;
  /** The directories the workspace browser offers for a run (may be empty). */
  workspaceRoots(key: RunKey): Promise<WorkspaceRoot[]>;
  /** Told whenever {@link current} changes (a turn starts or ends, a session opens). */
  onChange(listener: (view: SessionView) => void): () => void;
}
