/**
 * The final answer while it streams: a header naming the presenter and the tail of the text
 * that fits in `height` rows. The whole answer is printed as plain text once the run ends.
 */
import { Box, Text } from "ink";
import type { ReactElement } from "react";
import type { RunState } from "../../session/index.js";
import { tailLines } from "./format.js";

/** Props of {@link FinalAnswer}. */
export interface FinalAnswerProps {
  state: RunState;
  width: number;
  /** Rows available, header included; at least 2. */
  height: number;
}

/** The streamed final answer; null before the final phase. */
export function FinalAnswer({ state, width, height }: FinalAnswerProps): ReactElement | null {
  if (state.finalAnswer === null) return null;
  const presenter = state.presenterId ?? state.winner?.agentId ?? "?";
  const lines = tailLines(state.finalAnswer, Math.max(1, width), Math.max(1, height - 1));
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate" color="magenta" bold>
        ── Final answer · {presenter}
        {state.finalAnswerLabel ? ` (${state.finalAnswerLabel})` : ""} ──
      </Text>
      {lines.map((line, index) => (
        <Text key={index} wrap="truncate">
          {line}
        </Text>
      ))}
    </Box>
  );
}
