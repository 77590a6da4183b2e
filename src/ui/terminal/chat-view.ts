/**
 * The view model of the interactive chat (src/commands/chat.ts owns it; the Ink chat app renders
 * it): printed blocks, the live run's reducer state, and the status bar's facts; plus the actions
 * the keys and the input line trigger.
 */
import type { RunState } from "../../session/index.js";

/** A block of output printed once above the live region (and kept in the scrollback). */
export interface ChatBlock {
  /** Unique, increasing. */
  id: number;
  /** `question`: the user's line; `answer`: a final answer; `info`/`error`: command output. */
  kind: "question" | "answer" | "info" | "error" | "summary";
  text: string;
  /** For `answer`: who wrote it, e.g. `alice (agent1.final)`. */
  title?: string;
}

/** What the status bar shows. */
export interface ChatStatus {
  sessionId: string;
  /** Turns recorded in the session so far. */
  turns: number;
  /** Conversation messages the next turn will see. */
  historyMessages: number;
  /** Refine on (voting loop) or off (`--quick`). */
  refine: boolean;
  /** `off`, `read-only`, `read-write`. */
  cwdContext: string;
  /** Agents that take part, e.g. `3 agents` or `bob only`. */
  team: string;
}

/** The chat's whole view model. */
export interface ChatViewState {
  blocks: readonly ChatBlock[];
  /** The running turn's reducer state; null when idle. */
  run: RunState | null;
  /** A turn is running. */
  busy: boolean;
  /** The first Ctrl+C of a running turn was pressed: the turn is being cancelled. */
  cancelling: boolean;
  /** Ctrl+C pressed once while idle: a second one exits. */
  exitArmed: boolean;
  status: ChatStatus;
  /** Set when the chat has ended: the last line to show (input and status bar go away). */
  farewell: string | null;
}

/** What the UI asks the chat to do. */
export interface ChatActions {
  /** A line typed and sent with Enter (a question or a slash command). */
  submit: (line: string) => void;
  /** Ctrl+C: cancels the running turn, or arms / performs the exit. */
  interrupt: () => void;
  /** Ctrl+P: off → read-only → read-write → off, for the next turn. */
  cycleCwdContext: () => void;
  /** Ctrl+R: Refine on/off, for the next turn. */
  toggleRefine: () => void;
  /** Ctrl+D on an empty line: leave like /quit. */
  quit: () => void;
}
