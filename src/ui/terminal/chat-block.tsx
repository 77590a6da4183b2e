/**
 * One printed block of the chat (a {@link ChatBlock}): the user's question, a final answer under
 * a rule naming its author, command output, an error, or a turn summary.
 */
import { Box, Text } from "ink";
import type { ReactElement } from "react";
import type { ChatBlock as Block } from "./chat-view.js";

/** Renders `block` at `width` columns. */
export function ChatBlock({ block, width }: { block: Block; width: number }): ReactElement {
  switch (block.kind) {
    case "question":
      return (
        <Box marginTop={1} width={width}>
          <Text bold color="cyan">
            ›{" "}
          </Text>
          <Text bold>{block.text}</Text>
        </Box>
      );
    case "answer":
      return (
        <Box flexDirection="column" width={width} marginTop={1}>
          <Text color="magenta" wrap="truncate">
            ── {block.title ?? "Final answer"}{" "}
            {"─".repeat(Math.max(0, width - (block.title ?? "Final answer").length - 4))}
          </Text>
          <Text>{block.text}</Text>
        </Box>
      );
    case "error":
      return (
        <Box width={width} marginTop={1}>
          <Text color="red">{block.text}</Text>
        </Box>
      );
    case "summary":
      return (
        <Box width={width}>
          <Text dimColor>{block.text}</Text>
        </Box>
      );
    case "info":
      return (
        <Box width={width} marginTop={1}>
          <Text>{block.text}</Text>
        </Box>
      );
  }
}
