/**
 * The Ink live view of a single query (`coord "<question>"` on a TTY): mounts {@link RunView},
 * feeds it the reducer's state, and at the end leaves a compact summary (one line per agent, the
 * winner and its conclusion groups) in the scrollback, so the final answer printed after it reads as plain text.
 *
 * Lazy-imported by the run command (Ink costs ≈0.5 s to load).
 */
import { Box, render, Text, useInput } from "ink";
import { useState, useSyncExternalStore, type ReactElement } from "react";
import { initialRunState, type RunState } from "../../session/index.js";
import { RunView } from "./run-view.js";
import { createStateStore, type StateStore } from "./state-store.js";
import { useTerminalSize } from "./use-terminal-size.js";
import { useTicker } from "./use-ticker.js";
import { groupRows } from "./vote-tally.js";

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
  /**
   * The terminal's input, read only while a plan executes (`execution` mode), where Ctrl+P (the
   * chat's working-directory toggle) is blocked with a message (spec §4.1) and Ctrl+C is passed
   * on as SIGINT (raw mode turns it into a key).
   */
  stdin?: NodeJS.ReadStream | undefined;
}

/** Shown when Ctrl+P is pressed while a plan executes (spec §4.1). */
export const CTRL_P_BLOCKED =
  "Ctrl+P is blocked while a plan executes: the working-directory scope cannot change mid-execution.";

/** Mounts the live view on `stdout`. */
export function mountLiveRun(options: LiveRunOptions): LiveRun {
  const store = createStateStore<{ state: RunState; ended: boolean }>({
    state: initialRunState(),
    ended: false,
  });
  const now = options.now ?? Date.now;
  const keys = options.stdin?.isTTY === true ? options.stdin : undefined;
  const instance = render(<LiveRunApp store={store} now={now} keys={keys !== undefined} />, {
    stdout: options.stdout,
    ...(keys !== undefined ? { stdin: keys } : {}),
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
  keys,
}: {
  store: StateStore<{ state: RunState; ended: boolean }>;
  now: () => number;
  /** True when the terminal's input may be read. */
  keys: boolean;
}): ReactElement {
  const { state, ended } = useSyncExternalStore(store.subscribe, store.get);
  const [blocked, setBlocked] = useState(false);
  useInput(
    (input, key) => {
      if (key.ctrl && input === "p") setBlocked(true);
      else if (key.ctrl && input === "c") process.kill(process.pid, "SIGINT");
    },
    { isActive: keys && !ended && state.mode === "execution" },
  );
  const { columns, rows } = useTerminalSize();
  const tick = useTicker(now, 200, !ended);
  // The end frame stays in the scrollback: keep it short (compact rows, no final-answer tail).
  const view = ended ? { ...state, finalAnswer: null } : state;
  return (
    <Box flexDirection="column" marginBottom={ended ? 1 : 0}>
      <RunView
        state={view}
        columns={columns}
        rows={
          ended
            ? Math.min(rows - 1, view.agents.length + 2 + groupRows(view))
            : rows - (blocked ? 2 : 1)
        }
        now={tick.now}
        frame={tick.frame}
      />
      {blocked && !ended ? <Text color="yellow">{CTRL_P_BLOCKED}</Text> : null}
    </Box>
  );
}
