/**
 * One agent as a bordered panel: id and model, status (thinking, using a tool, answered
 * `agent2.1`, voted for …, stopped, error, removed), its subtask and persona, the tools it
 * called, and the tail of its streamed text with reasoning set apart (dim, italic, marked `∴`). Renders only from the reducer's
 * {@link AgentState} (CONTRIBUTING.md rule 3).
 */
import { Box, Text } from "ink";
import type { ReactElement } from "react";
import { type AgentState, agentStatusText } from "../../session/index.js";
import { oneLine, statusColor, statusMark, tailLines, toolSummary } from "./format.js";

/** Props of {@link AgentPanel}. */
export interface AgentPanelProps {
  agent: AgentState;
  /** Outer width in columns (border included). */
  width: number;
  /** Outer height in rows (border included); at least 4. */
  height: number;
  /** Spinner frame counter. */
  frame: number;
  /** The agent's current answer's text, shown while it streams nothing. */
  answer?: string | undefined;
  /** The run has ended: an agent still waiting or working is shown as stopped. */
  runOver?: boolean;
}

/** A bordered agent panel of exactly `width` × `height` cells. */
export function AgentPanel({
  agent,
  width,
  height,
  frame,
  answer,
  runOver = false,
}: AgentPanelProps): ReactElement {
  const inner = Math.max(1, width - 4);
  const tools = toolSummary(agent);
  const roles = roleLines(agent);
  // A wide panel has room for the status on the header line.
  const oneLineHeader = width >= 64;
  const bodyLines = Math.max(
    0,
    height - 2 - (oneLineHeader ? 1 : 2) - roles.length - (tools ? 1 : 0),
  );
  const { reasoning, text } = streamedLines(agent, inner - 2, bodyLines);
  // Nothing streamed in this round yet: say what the agent stands on (its vote, its answer).
  const standing =
    reasoning.length + text.length > 0 ? [] : standingLines(agent, answer, inner, bodyLines);
  const color = statusColor(agent.status);
  const dim = agent.status === "removed";
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={color}
      width={width}
      height={height}
      paddingX={1}
      flexShrink={0}
    >
      <Text wrap="truncate" dimColor={dim}>
        <Text color={color}>{statusMark(agent.status, frame)} </Text>
        <Text bold>{agent.id}</Text>
        <Text dimColor> {agent.model}</Text>
        {oneLineHeader ? <Text color={color}> · {agentStatusText(agent, { runOver })}</Text> : null}
      </Text>
      {oneLineHeader ? null : (
        <Text wrap="truncate" color={color}>
          {agentStatusText(agent, { runOver })}
        </Text>
      )}
      {roles.map((line, index) => (
        <Text key={`role${index}`} wrap="truncate" color="magenta">
          {line}
        </Text>
      ))}
      {tools ? (
        <Text wrap="truncate" color="yellow">
          ⚙ {tools}
        </Text>
      ) : null}
      {reasoning.map((line, index) => (
        <Text key={`r${index}`} wrap="truncate" dimColor italic>
          ∴ {line}
        </Text>
      ))}
      {standing.map((line, index) => (
        <Text key={`s${index}`} wrap="truncate" dimColor>
          {line}
        </Text>
      ))}
      {text.map((line, index) => (
        <Text key={`t${index}`} wrap="truncate">
          {line}
        </Text>
      ))}
    </Box>
  );
}

/**
 * The streamed lines that fit: the text's tail, with up to a third of the room (at least one
 * line) for the reasoning's tail when both exist; all of it for whichever exists alone.
 */
export function streamedLines(
  agent: Pick<AgentState, "text" | "reasoning">,
  width: number,
  count: number,
): { reasoning: string[]; text: string[] } {
  if (count <= 0) return { reasoning: [], text: [] };
  const hasText = agent.text.trim() !== "";
  const hasReasoning = agent.reasoning.trim() !== "";
  if (!hasReasoning) return { reasoning: [], text: tailLines(agent.text, width, count) };
  if (!hasText) return { reasoning: tailLines(agent.reasoning, width, count), text: [] };
  const reasoningRoom = count === 1 ? 0 : Math.max(1, Math.floor(count / 3));
  const text = tailLines(agent.text, width, count - reasoningRoom);
  return {
    reasoning: tailLines(agent.reasoning, width, count - text.length),
    text,
  };
}

/** The agent's subtask (`▸`, decomposition mode) and persona (`◇`), one truncated line each. */
function roleLines(agent: AgentState): string[] {
  return [
    ...(agent.subtask !== null ? [`▸ ${oneLine(agent.subtask.text)}`] : []),
    ...(agent.persona !== null ? [`◇ ${oneLine(agent.persona)}`] : []),
  ];
}

/** The vote's reason or the stop's summary (quoted), else the current answer: the first lines that fit. */
function standingLines(
  agent: AgentState,
  answer: string | undefined,
  width: number,
  count: number,
): string[] {
  if (count <= 0) return [];
  if (agent.status === "voted" && agent.vote?.reason) {
    return headLines(`“${agent.vote.reason}”`, width, count);
  }
  if (agent.status === "stopped" && agent.stop?.summary) {
    return headLines(`“${agent.stop.summary}”`, width, count);
  }
  if (answer !== undefined && agent.currentAnswerLabel) {
    return headLines(`${agent.currentAnswerLabel}: ${answer}`, width, count);
  }
  return [];
}

/** The first `count` lines of `text` wrapped at `width`, the last cut with `…` if more follow. */
function headLines(text: string, width: number, count: number): string[] {
  const all = tailLines(text, width, Number.MAX_SAFE_INTEGER);
  if (all.length <= count) return all;
  const lines = all.slice(0, count);
  lines[count - 1] = `${lines[count - 1]!.slice(0, Math.max(0, width - 1))}…`;
  return lines;
}
