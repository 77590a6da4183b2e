/**
 * `coord viewer [LOG_DIR] [--turn N] [--attempt N] [--replay-speed N] [--pick] [--no-follow]
 * [--web [--port N]]` (spec §4.2; docs/sharing.md "coord viewer"): a run log shown in the live
 * terminal view, read-only. The events go through the one reducer (src/commands/viewer-feed.ts);
 * the Ink view draws them when stdout is a terminal, trace lines otherwise. `--web` serves the
 * same view in a browser (src/server/terminal-web.ts).
 *
 * Exit codes: 0 once the log was shown (whatever the run's outcome) or the user quit; 1 for a
 * missing or unreadable log and bad flags (ConfigError, EventLogError).
 */
import { join } from "node:path";
import { systemClock, type Clock } from "../clock.js";
import type { CoordEvent } from "../events/index.js";
import { selectRun } from "../logs/index.js";
import { defaultLogRoot } from "../runner/index.js";
import { initialRunState, type RunState } from "../session/index.js";
import { createSessionStore, logWriterStatus } from "../sessions/index.js";
import { LOG_FILES } from "../store/index.js";
import { traceSubscriber } from "../ui/plain/index.js";
import type { ViewerActivity, ViewerFrame } from "../ui/terminal/index.js";
import { inkCanDraw } from "./ink-can-draw.js";
import type { CommandIO } from "./io.js";
import { openViewerFeed } from "./viewer-feed.js";

/** The viewer's flags after parsing. */
export interface ViewerFlags {
  /** `LOG_DIR`: a log, turn or attempt directory. */
  logDir?: string | undefined;
  turn?: number | undefined;
  attempt?: number | undefined;
  /** `--replay-speed`; undefined is instant. */
  replaySpeed?: number | undefined;
  pick: boolean;
  /** False with `--no-follow`. */
  follow: boolean;
  web: boolean;
  port: number;
}

/** The viewer's outside world. */
export interface ViewerIO extends CommandIO {
  stdin: NodeJS.ReadStream;
  /** Replay timing; default the system clock. */
  clock?: Clock;
}

/**
 * Shows the selected run.
 * @returns the exit code (0).
 * @throws ConfigError for a missing log, turn or attempt, or `--pick` without a terminal;
 *   EventLogError for an unreadable events.jsonl.
 */
export async function viewerCommand(flags: ViewerFlags, io: ViewerIO): Promise<number> {
  const root = defaultLogRoot(io.env, io.cwd);
  // A run killed with kill -9 never writes its run-end: the sessions registry of this HOME says
  // whether the process logging to a directory still runs (a log it does not know: unknown).
  const sessions = createSessionStore({ home: io.home });
  const writerStatus = (dir: string) => logWriterStatus(sessions, dir);
  let logDir = flags.logDir;
  if (flags.pick) {
    const { pickRun } = await import("./viewer-pick.js");
    logDir = await pickRun(
      root,
      { stdin: io.stdin, stdout: io.stdout as NodeJS.WriteStream },
      writerStatus,
    );
    if (logDir === undefined) return 0;
  }
  const selected = await selectRun({
    root,
    cwd: io.cwd,
    logDir,
    turn: flags.turn,
    attempt: flags.attempt,
    pathHint: "name a log (coord viewer agent_outputs/log_…)",
  });
  if (flags.web) {
    const { serveViewerWeb } = await import("./viewer-web.js");
    return serveViewerWeb(
      {
        attemptDir: selected.attemptDir,
        replaySpeed: flags.replaySpeed,
        follow: flags.follow,
        port: flags.port,
      },
      io,
    );
  }
  const title = [
    selected.logDir.split(/[\\/]/).at(-1) ?? selected.logDir,
    `turn ${selected.turn} of ${selected.turns.length}`,
    `attempt ${selected.attempt} of ${selected.attempts.length}`,
  ].join(" · ");
  const eventsPath = join(selected.attemptDir, LOG_FILES.events);
  const clock = io.clock ?? systemClock;
  // Following stops when the process logging there is gone (an unknown log: until Ctrl+C).
  const writerGone = async () => (await writerStatus(selected.logDir)) === "gone";
  const params = { flags, io, eventsPath, clock, writerGone };
  if (inkCanDraw(io.stdout)) return viewInTerminal({ ...params, title });
  return viewAsText(params);
}

interface ViewParams {
  flags: ViewerFlags;
  io: ViewerIO;
  eventsPath: string;
  clock: Clock;
  /** See ViewerFeedOptions.writerGone. */
  writerGone: () => Promise<boolean>;
}

/** The Ink view; stays after the end until the user quits (when keys can be read). */
async function viewInTerminal(params: ViewParams & { title: string }): Promise<number> {
  const { flags, io, eventsPath, clock, title, writerGone } = params;
  const stop = new AbortController();
  io.signal?.addEventListener("abort", () => stop.abort(), { once: true });
  const feed = await openViewerFeed({
    eventsPath,
    speed: flags.replaySpeed,
    follow: flags.follow,
    clock,
    signal: stop.signal,
    writerGone,
  });
  const { mountViewer } = await import("../ui/terminal/viewer-app.js");
  // Mounted at the first frame worth drawing: an instant replay draws no frame before its end
  // (the whole run at once, not an animation of it).
  let view: ReturnType<typeof mountViewer> | undefined;
  const mount = (frame: ViewerFrame) => {
    if (view !== undefined) return view.update(frame);
    view = mountViewer({
      stdout: io.stdout as NodeJS.WriteStream,
      stdin: io.stdin,
      title,
      now: feed.now,
      initial: frame,
    });
    void view.quit.then(() => stop.abort());
  };
  let state: RunState | undefined;
  const events: CoordEvent[] = [];
  let activity: ViewerActivity = { kind: "replaying", speed: flags.replaySpeed };
  const show = () => {
    if (activity.kind === "replaying" && activity.speed === undefined) return;
    mount({ state: state ?? initialRunState(), activity, events });
  };
  let finalState: RunState;
  try {
    finalState = await feed.run({
      event(event, next) {
        events.push(event);
        state = next;
        show();
      },
      activity(next) {
        activity = next;
        show();
      },
    });
    // The end stays on screen until the user quits (q, Esc, Ctrl+C) or a signal stops us.
    if (view?.interactive === true && !stop.signal.aborted) {
      const shown = view;
      await new Promise<void>((resolve) => {
        void shown.quit.then(resolve);
        stop.signal.addEventListener("abort", () => resolve(), { once: true });
      });
    }
  } finally {
    await view?.close();
  }
  if (finalState.finalAnswer !== null && finalState.phase === "done") {
    io.stdout.write(`${finalState.finalAnswer}\n`);
  }
  return 0;
}

/** Trace lines on stdout (stdout is a pipe or a file), then the final answer. */
async function viewAsText(params: ViewParams): Promise<number> {
  const { flags, io, eventsPath, clock, writerGone } = params;
  const write = (line: string) => io.stdout.write(`${line}\n`);
  const trace = traceSubscriber(write);
  let followingSaid = false;
  const feed = await openViewerFeed({
    eventsPath,
    speed: flags.replaySpeed,
    follow: flags.follow,
    clock,
    writerGone,
    ...(io.signal ? { signal: io.signal } : {}),
  });
  const state = await feed.run({
    event: (event: CoordEvent) => trace(event),
    activity(activity) {
      if (activity.kind === "following" && !followingSaid) {
        followingSaid = true;
        io.stderr.write("coord: the run has not ended: following it (Ctrl+C to stop)\n");
      }
      if (activity.kind === "finished" && activity.writerGone === true) {
        io.stderr.write(
          "coord: the run's coord process is gone without a run-end (killed or crashed): that is all it wrote\n",
        );
      }
    },
  });
  if (state.finalAnswer !== null && state.phase === "done") {
    write("");
    write(state.finalAnswer);
  }
  return 0;
}
