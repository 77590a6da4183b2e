/**
 * The vote tally on the current answer set: `Votes 2/3  alice ■■ 2  bob ■ 1`, or the winner once
 * chosen: `★ Winner alice (agent1.1, 3/3 votes)`. Renders only from the reducer's {@link RunState}.
 */
import { Text } from "ink";
import type { ReactElement } from "react";
import type { RunState } from "../../session/index.js";
import { liveAgents, voteTally } from "./format.js";

/** One line: the winner when there is one, else the tally; null before any vote. */
export function VoteTally({ state }: { state: RunState }): ReactElement | null {
  const winner = state.winner;
  if (winner) {
    const id = winner.agentId ?? winner.anonId;
    const detail =
      winner.basis === "votes"
        ? `${winner.label}, ${winner.votes}/${state.agents.length} votes${winner.tieBroken ? ", tie broken by config order" : ""}`
        : winner.basis === "timeout"
          ? `${winner.label}, best answer at the timeout`
          : winner.label;
    if (winner.basis === "decomposition") {
      return (
        <Text wrap="truncate">
          <Text color="yellow">★ Presenter </Text>
          <Text bold>{id}</Text>
          <Text dimColor> (integrates every part)</Text>
        </Text>
      );
    }
    return (
      <Text wrap="truncate">
        <Text color="yellow">★ Winner </Text>
        <Text bold>{id}</Text>
        <Text dimColor> ({detail})</Text>
      </Text>
    );
  }
  const tally = voteTally(state);
  if (tally.length === 0) return null;
  return (
    <Text wrap="truncate">
      <Text bold>
        Votes {state.votes.length}/{liveAgents(state)}{" "}
      </Text>
      {tally.map(({ agentId, votes }) => (
        <Text key={agentId}>
          {" "}
          {agentId} <Text color="blue">{"■".repeat(Math.min(votes, 10))}</Text> {votes}
        </Text>
      ))}
    </Text>
  );
}
