/**
 * The interactive chat in Ink: printed blocks (questions, answers, command output) go to the
 * scrollback once through `<Static>`; below them the live run view while a turn runs, the input
 * line while idle, and the status bar. Keys: Ctrl+C cancel / quit, Ctrl+P working-directory
 * context, Ctrl+R Refine, Ctrl+D quit on an empty line. Renders only the {@link ChatViewState}
 * the chat command owns (whose run state comes from the shared reducer).
 */
import { Box, render, Static, Text, useInput, type Instance } from "ink";
import { useRef, useState, useSyncExternalStore, type ReactElement } from "react";
import { ChatBlock } from "./chat-block.js";
import type { ChatActions, ChatViewState } from "./chat-view.js";
import { PromptInput } from "./prompt-input.js";
import { RunView } from "./run-view.js";
import type { StateStore } from "./state-store.js";
import { StatusBar } from "./status-bar.js";
import { useTerminalSize } from "./use-terminal-size.js";
import { useTicker } from "./use-ticker.js";

/** Props of {@link ChatApp}. */
export interface ChatAppProps {
  store: StateStore<ChatViewState>;
  actions: ChatActions;
  /** Epoch ms. */
  now: () => number;
  /** Spinner/clock period in ms; 0 stops ticking (tests). Default 200. */
  tickMs?: number;
}

/** Rows kept free below the live run view: input/status bar and one spare. */
const CHROME_ROWS = 4;

/** The chat screen. */
export function ChatApp({ store, actions, now, tickMs = 200 }: ChatAppProps): ReactElement {
  const view = useSyncExternalStore(store.subscribe, store.get);
  const { columns, rows } = useTerminalSize();
  const tick = useTicker(now, tickMs, view.busy);
  // Read by the key handler at key time: Ink re-registers the handler only after a render is
  // committed, so two quick keys would otherwise see a stale line state.
  const empty = useRef(true);
  const setEmpty = (value: boolean) => {
    empty.current = value;
  };
  const [sent, setSent] = useState<string[]>([]);
  const [clearCount, setClearCount] = useState(0);
  useInput((input, key) => {
    if (!key.ctrl) return;
    // Ctrl+C on a line being typed clears it; otherwise it cancels the turn or quits.
    const busy = store.get().busy;
    if (input === "c" && !busy && !empty.current) {
      empty.current = true;
      setClearCount((count) => count + 1);
    } else if (input === "c") actions.interrupt();
    else if (input === "p") actions.cycleCwdContext();
    else if (input === "r") actions.toggleRefine();
    else if (input === "d" && empty.current && !busy) actions.quit();
  });
  const width = Math.max(20, columns);
  return (
    <Box flexDirection="column">
      <Static items={[...view.blocks]}>
        {(block) => <ChatBlock key={block.id} block={block} width={width} />}
      </Static>
      {view.farewell !== null ? (
        <Box marginTop={1}>
          <Text dimColor>{view.farewell}</Text>
        </Box>
      ) : null}
      {view.run && view.farewell === null ? (
        <Box marginTop={1}>
          <RunView
            state={view.run}
            columns={width}
            rows={Math.max(3, rows - CHROME_ROWS - 1)}
            now={tick.now}
            frame={tick.frame}
          />
        </Box>
      ) : null}
      {view.busy || view.farewell !== null ? null : (
        <Box marginTop={1}>
          <PromptInput
            active={!view.busy}
            history={sent}
            onEmptyChange={setEmpty}
            clearCount={clearCount}
            onSubmit={(line) => {
              setSent((previous) => [...previous, line]);
              setEmpty(true);
              actions.submit(line);
            }}
          />
        </Box>
      )}
      {view.farewell === null ? (
        <StatusBar
          status={view.status}
          busy={view.busy}
          cancelling={view.cancelling}
          exitArmed={view.exitArmed}
          width={width}
        />
      ) : null}
    </Box>
  );
}

/** Mounts the chat on the terminal (raw mode on stdin); unmount it with the returned instance. */
export function mountChatApp(
  props: ChatAppProps & { stdout: NodeJS.WriteStream; stdin: NodeJS.ReadStream },
): Instance {
  const { stdout, stdin, ...appProps } = props;
  return render(<ChatApp {...appProps} />, {
    stdout,
    stdin,
    exitOnCtrlC: false,
    patchConsole: false,
  });
}
