/**
 * `coord viewer`'s screen (spec §4.2): the live view of a run ({@link RunView}: orchestrator
 * strip, agent panels, tool calls, votes, the final answer) read-only — no input area — between
 * a title line (which log, turn and attempt) and a line saying what the viewer is doing (replay,
 * following a run in progress, finished) and the keys (q quit).
 *
 * Lazy-imported by the viewer command (Ink costs ≈0.5 s to load).
 */
import { Box, render, Text, useInput, useStdin } from "ink";
import { useMemo, useState, useSyncExternalStore, type ReactElement } from "react";
import type { CoordEvent } from "../../events/index.js";
import { initialRunState, type RunState } from "../../session/index.js";
import { formatElapsed } from "./format.js";
import { OrchestratorStrip, stripRows } from "./orchestrator-strip.js";
import { RunView } from "./run-view.js";
import { viewerRecord, type RecordLine } from "./viewer-record.js";
import { createStateStore, type StateStore } from "./state-store.js";
import { useTerminalSize } from "./use-terminal-size.js";
import { useTicker } from "./use-ticker.js";
import { groupRows } from "./vote-tally.js";

/** What the viewer is doing. */
export type ViewerActivity =
  /** Releasing recorded events (instant or at `--replay-speed`). */
  | { kind: "replaying"; speed: number | undefined }
  /** The run has no `run-end` yet: waiting for it to append events. */
  | { kind: "following"; lastEventAt: number }
  /**
   * Every event shown: the run ended (`complete`), or `--no-follow` stopped at what the log
   * holds, or the process writing it is gone without a `run-end` (`writerGone`: killed or crashed).
   */
  | { kind: "finished"; complete: boolean; writerGone?: boolean };

/** One frame's data. */
export interface ViewerFrame {
  state: RunState;
  activity: ViewerActivity;
  /** The viewer is closing: a compact last frame for the scrollback (the final answer follows as text). */
  closing?: boolean;
  /**
   * Every event shown so far, in log order (the caller appends to one array; `state` changes
   * with each). Once finished, the viewer shows the whole record built from them.
   */
  events?: readonly CoordEvent[];
}

/** Props of {@link ViewerApp}. */
export interface ViewerAppProps {
  store: StateStore<ViewerFrame>;
  /** `log_20250101_120000 · turn 2 of 2 · attempt 1 of 2`. */
  title: string;
  /** Epoch ms: the replay's recorded time, or the clock while following. */
  now: () => number;
  /** Called on q, Esc or Ctrl+C (only when the terminal gives key presses). */
  onQuit: () => void;
  /** Spinner and elapsed-time tick, ms; 0 in tests. */
  tickMs?: number;
}

/** The viewer: title, the run's live view, and the activity line. */
export function ViewerApp({
  store,
  title,
  now,
  onQuit,
  tickMs = 200,
}: ViewerAppProps): ReactElement {
  const { state, activity, closing, events } = useSyncExternalStore(store.subscribe, store.get);
  const { columns, rows } = useTerminalSize();
  const tick = useTicker(now, tickMs, activity.kind !== "finished" && closing !== true);
  const { isRawModeSupported } = useStdin();
  const finished = activity.kind === "finished" && closing !== true;
  const width = Math.max(20, columns);
  const record = useMemo(
    () => (finished ? viewerRecord(events ?? [], state, width) : []),
    [finished, events, state, width],
  );
  const [top, setTop] = useState(0);
  const viewport = Math.max(3, rows - 3 - stripRows(state, width));
  const lastTop = Math.max(0, record.length - viewport);
  const shownTop = Math.min(top, lastTop);
  // Read at every render, not only at ticks: an instant replay moves the recorded time at once.
  const current = now();
  if (closing === true) {
    // As a live run leaves it: one line per agent, the winner and its conclusion groups, no
    // final-answer tail.
    return (
      <Box marginBottom={1}>
        <RunView
          state={{ ...state, finalAnswer: null }}
          columns={columns}
          rows={Math.min(rows - 1, state.agents.length + 2 + groupRows(state))}
          now={current}
          frame={tick.frame}
        />
      </Box>
    );
  }
  if (finished) {
    const scroll = (delta: number) => setTop(Math.max(0, Math.min(lastTop, shownTop + delta)));
    const more = record.length > viewport;
    return (
      <Box flexDirection="column">
        <Text wrap="truncate" dimColor>
          <Text color="cyan">coord viewer</Text> · {title}
        </Text>
        <OrchestratorStrip state={state} now={current} width={width} />
        {record.slice(shownTop, shownTop + viewport).map((line, index) => (
          <RecordRow key={shownTop + index} line={line} />
        ))}
        <Text wrap="truncate" dimColor>
          {activityText(activity, current)}
          {more
            ? ` · lines ${shownTop + 1}–${Math.min(record.length, shownTop + viewport)} of ${record.length}${isRawModeSupported ? " · ↑↓ PgUp PgDn Home End scroll" : ""}`
            : ""}
          {isRawModeSupported ? " · q quit" : ""}
        </Text>
        {isRawModeSupported ? (
          <QuitKeys
            onQuit={onQuit}
            onScroll={(delta) => scroll(delta)}
            page={Math.max(1, viewport - 1)}
          />
        ) : null}
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <Text wrap="truncate" dimColor>
        <Text color="cyan">coord viewer</Text> · {title}
      </Text>
      <RunView
        state={state}
        columns={columns}
        rows={Math.max(3, rows - 3)}
        now={current}
        frame={tick.frame}
      />
      <Text wrap="truncate" dimColor>
        {activityText(activity, current)}
        {isRawModeSupported ? " · q quit" : ""}
      </Text>
      {isRawModeSupported ? <QuitKeys onQuit={onQuit} /> : null}
    </Box>
  );
}

/** One line of the finished record. */
function RecordRow({ line }: { line: RecordLine }): ReactElement {
  return (
    <Text wrap="truncate">
      {line.map((segment, index) => (
        <Text
          key={index}
          {...(segment.color !== undefined ? { color: segment.color } : {})}
          bold={segment.bold === true}
          dimColor={segment.dim === true}
        >
          {segment.text}
        </Text>
      ))}
    </Text>
  );
}

/**
 * q, Esc, Ctrl+C quit; once finished, ↑/↓ (k/j) move a line, PgUp/PgDn (b/space) a page,
 * Home/End (g/G) to the top or the bottom of the record.
 */
function QuitKeys({
  onQuit,
  onScroll,
  page = 1,
}: {
  onQuit: () => void;
  onScroll?: (delta: number) => void;
  page?: number;
}): null {
  useInput((input, key) => {
    if (input === "q" || input === "Q" || key.escape || (key.ctrl && input === "c")) onQuit();
    if (onScroll === undefined) return;
    if (key.upArrow || input === "k") onScroll(-1);
    else if (key.downArrow || input === "j") onScroll(1);
    else if (key.pageUp || input === "b") onScroll(-page);
    else if (key.pageDown || input === " ") onScroll(page);
    else if (key.home || input === "g") onScroll(-Number.MAX_SAFE_INTEGER);
    else if (key.end || input === "G") onScroll(Number.MAX_SAFE_INTEGER);
  });
  return null;
}

/** `replay ×2`, `following the run (last event 12.0 s ago)`, `replay finished`. */
export function activityText(activity: ViewerActivity, now: number): string {
  switch (activity.kind) {
    case "replaying":
      return activity.speed === undefined ? "replaying" : `replay ×${activity.speed}`;
    case "following":
      return `following the run as it is written (last event ${formatElapsed(Math.max(0, now - activity.lastEventAt))} ago)`;
    case "finished":
      if (activity.complete) return "replay finished";
      return activity.writerGone === true
        ? "end of the log: the run's coord process is gone without a run-end (killed or crashed)"
        : "end of the log so far (the run has not ended: no run-end event)";
  }
}

/** Options of {@link mountViewer}. */
export interface MountViewerOptions {
  stdout: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  title: string;
  now: () => number;
  /** The first frame drawn; default an empty run, replaying. */
  initial?: ViewerFrame;
}

/** The mounted viewer. */
export interface MountedViewer {
  /** Shows this frame (Ink throttles to its frame rate). */
  update(frame: ViewerFrame): void;
  /** Resolves when the user quits (q, Esc, Ctrl+C); never when keys cannot be read. */
  readonly quit: Promise<void>;
  /** True when the terminal gives key presses (stdin is a TTY). */
  readonly interactive: boolean;
  /** Draws a compact last frame and unmounts, leaving it in the scrollback. */
  close(): Promise<void>;
}

/** Mounts the viewer on a TTY. */
export function mountViewer(options: MountViewerOptions): MountedViewer {
  const store = createStateStore<ViewerFrame>(
    options.initial ?? {
      state: initialRunState(),
      activity: { kind: "replaying", speed: undefined },
    },
  );
  let quit!: () => void;
  const quitPromise = new Promise<void>((resolve) => (quit = resolve));
  const stdin = options.stdin ?? process.stdin;
  const instance = render(
    <ViewerApp store={store} title={options.title} now={options.now} onQuit={() => quit()} />,
    { stdout: options.stdout, stdin, exitOnCtrlC: false, patchConsole: false },
  );
  return {
    update: (frame) => store.set(frame),
    quit: quitPromise,
    interactive: stdin.isTTY === true,
    async close() {
      store.set({ ...store.get(), closing: true });
      // Let Ink draw the last frame (it throttles to ~30 fps) before unmounting.
      await new Promise((resolve) => setTimeout(resolve, 50));
      instance.unmount();
      await instance.waitUntilExit().catch(() => undefined);
    },
  };
}
