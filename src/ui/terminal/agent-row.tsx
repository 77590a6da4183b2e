/**
 * One agent on one line, for the compact layout (many agents, or a short terminal):
 * `⠋ alice  gpt-4o  answered agent1.1 · latest streamed text…`. Renders only from the reducer's
 * {@link AgentState}.
 */
import { Box, Text } from "ink";
import type { ReactElement } from "react";
import { type AgentState, agentStatusText } from "../../session/index.js";
import { oneLine, statusColor, statusMark } from "./format.js";

/** Props of {@link AgentRow}. */
export interface AgentRowProps {
  agent: AgentState;
  /** Width in columns. */
  width: number;
  /** Column widths for the agent ids and models, so rows line up. */
  idWidth: number;
  modelWidth: number;
  /** The run has ended: an agent still waiting or working is shown as stopped. */
  runOver?: boolean;
  frame: number;
}

/** A one-line agent row, cut to `width`. */
export function AgentRow({
  agent,
  width,
  idWidth,
  modelWidth,
  frame,
  runOver = false,
}: AgentRowProps): ReactElement {
  const color = statusColor(agent.status);
  const busy = agent.status === "thinking" || agent.status === "tool";
  const latest = busy ? oneLine(agent.text || agent.reasoning) : "";
  const status = agentStatusText(agent, { runOver });
  const room = Math.max(0, width - idWidth - status.length - modelWidth - 10);
  return (
    <Box width={width}>
      <Text wrap="truncate">
        <Text color={color}>{statusMark(agent.status, frame)} </Text>
        <Text bold>{agent.id.padEnd(idWidth)}</Text>
        <Text dimColor> {agent.model.padEnd(modelWidth)} </Text>
        <Text color={color}>{status}</Text>
        {latest && room > 8 ? <Text dimColor> · {latest.slice(-room)}</Text> : null}
      </Text>
    </Box>
  );
}
