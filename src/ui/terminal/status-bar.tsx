/**
 * The chat's status bar: session, turns, Refine and working-directory context, then the keys.
 * `session_20250101_120000 · turn 3 · 4 messages of history · Refine on · cwd: read-only · 3 agents`
 */
import { Box, Text } from "ink";
import type { ReactElement } from "react";
import type { ChatStatus } from "./chat-view.js";

/** Props of {@link StatusBar}. */
export interface StatusBarProps {
  status: ChatStatus;
  busy: boolean;
  cancelling: boolean;
  exitArmed: boolean;
  width: number;
}

/** Two lines: the facts, then the keys (or what Ctrl+C will do now). */
export function StatusBar({
  status,
  busy,
  cancelling,
  exitArmed,
  width,
}: StatusBarProps): ReactElement {
  const keys = cancelling
    ? "cancelling the turn… Ctrl+C again to quit"
    : busy
      ? "Ctrl+C cancel the turn (keeps its partial work)"
      : exitArmed
        ? "Ctrl+C again to quit"
        : "Enter send · /help · Ctrl+P cwd context · Ctrl+R Refine · Ctrl+C quit";
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate">
        <Text color="cyan">{status.sessionId}</Text>
        <Text dimColor> · turn {status.turns + 1}</Text>
        {status.historyMessages > 0 ? (
          <Text dimColor> · {status.historyMessages} messages of history</Text>
        ) : null}
        <Text dimColor> · </Text>
        <Text color={status.refine ? "green" : "yellow"}>
          Refine {status.refine ? "on" : "off"}
        </Text>
        <Text dimColor> · </Text>
        <Text color={status.cwdContext === "off" ? "gray" : "magenta"}>
          cwd: {status.cwdContext}
        </Text>
        <Text dimColor> · {status.team}</Text>
      </Text>
      <Text
        wrap="truncate"
        dimColor={!cancelling && !exitArmed}
        color={cancelling || exitArmed ? "yellow" : undefined}
      >
        {keys}
      </Text>
    </Box>
  );
}
