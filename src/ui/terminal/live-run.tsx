/**
 * The Ink live view of a single query (`coord "<question>"` on a TTY): mounts {@link RunView},
 * feeds it the reducer's state, and at the end leaves a compact summary (one line per agent and
 * the winner) in the scrollback, so the final answer printed after it reads as plain text.
 *
 * Lazy-imported by the run command (Ink costs ≈0.5 s to load).
 */
import { Box, render } from "ink";
import { useSyncExternalStore, type ReactElement } from "react";
import { initialRunState, type RunState } from "../../session/index.js";
import { RunView } from "./run-view.js";
import { createStateStore, type StateStore } from "./state-store.js";
import { useTerminalSize } from "./use-terminal-size.js";
import { useTicker } from "./use-ticker.js";

/** The mounted live view. */
export interface LiveRun {
  /** Shows this state (throttled by Ink to its frame rate). */
  update(state: RunState): void;
  /** Draws the compact end frame and unmounts; resolves once Ink has written it. */
  finish(state: RunState): Promise<void>;
}

/** Options of {@link mountLiveRun}. */
export interface LiveRunOptions {
  /** A TTY stream to draw on. */
  stdout: NodeJS.WriteStream;
  /** Epoch ms; default Date.now. */
  now?: () => number;
}

/** Mounts the live view on `stdout`. */
export function mountLiveRun(options: LiveRunOptions): LiveRun {
  const store = createStateStore<{ state: RunState; ended: boolean }>({
    state: initialRunState(),
    ended: false,
  });
  const now = options.now ?? Date.now;
  const instance = render(<LiveRunApp store={store} now={now} />, {
    stdout: options.stdout,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  return {
    update(state) {
      store.set({ state, ended: false });
    },
    async finish(state) {
      store.set({ state, ended: true });
      // Let React and Ink draw the end frame (Ink throttles to ~30 fps) before unmounting.
      await new Promise((resolve) => setTimeout(resolve, 50));
      instance.unmount();
      await instance.waitUntilExit().catch(() => undefined);
    },
  };
}

function LiveRunApp({
  store,
  now,
}: {
  store: StateStore<{ state: RunState; ended: boolean }>;
  now: () => number;
}): ReactElement {
  const { state, ended } = useSyncExternalStore(store.subscribe, store.get);
  const { columns, rows } = useTerminalSize();
  const tick = useTicker(now, 200, !ended);
  // The end frame stays in the scrollback: keep it short (compact rows, no final-answer tail).
  const view = ended ? { ...state, finalAnswer: null } : state;
  return (
    <Box flexDirection="column" marginBottom={ended ? 1 : 0}>
      <RunView
        state={view}
        columns={columns}
        rows={ended ? Math.min(rows - 1, view.agents.length + 2) : rows - 1}
        now={tick.now}
        frame={tick.frame}
      />
    </Box>
  );
}
