/**
 * The vote tally on the current answer set: `Votes 2/3  alice ■■ 2  bob ■ 1`, or the winner once
 * chosen: `★ Winner alice (agent1.1, 3/3 votes)` and, when the answers reached conclusions, one
 * line per conclusion group, best first: `  ★ 18   2 votes  alice, bob`. Renders only
 * from the reducer's {@link RunState}.
 */
import { Text } from "ink";
import type { ReactElement } from "react";
import { type RunState, shownGroups, tieText, type WinnerGroup } from "../../session/index.js";
import { liveAgents, voteTally } from "./format.js";

/** Conclusion groups listed under the winner at most; more are summed up on the last line. */
const MAX_GROUP_ROWS = 4;

/** Widest conclusion column (characters); longer conclusions are cut with `…`. */
const CONCLUSION_COLUMNS = 16;

/** Rows the conclusion groups take under the winner line (0 without a winner or groups). */
export function groupRows(state: RunState): number {
  if (state.winner === null || state.winner.basis === "decomposition") return 0;
  return Math.min(MAX_GROUP_ROWS, shownGroups(state.winner).length);
}

/**
 * One line: the winner when there is one (and its conclusion groups, {@link groupRows} lines),
 * else the tally; null before any vote.
 */
export function VoteTally({ state }: { state: RunState }): ReactElement | null {
  const winner = state.winner;
  if (winner) {
    const id = winner.agentId ?? winner.anonId;
    const tie = winner.tieBroken ? `, ${tieText(winner)}` : "";
    const detail =
      winner.basis === "votes"
        ? `${winner.label}, ${winner.votes}/${state.agents.length} votes${tie}`
        : winner.basis === "timeout"
          ? `${winner.label}, best answer at the timeout`
          : winner.basis === "partial"
            ? `${winner.label}, coordination did not complete${tie}`
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
      <>
        <Text wrap="truncate">
          <Text color="yellow">★ Winner </Text>
          <Text bold>{id}</Text>
          <Text dimColor> ({detail})</Text>
        </Text>
        <GroupLines groups={shownGroups(winner)} />
      </>
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

/**
 * One line per conclusion group, best first: the winner's starred, the conclusion (or
 * `free-form`), its votes and the agents whose answers are in it. Past {@link MAX_GROUP_ROWS}
 * the last line sums up the rest.
 */
function GroupLines({ groups }: { groups: readonly WinnerGroup[] }): ReactElement | null {
  if (groups.length === 0) return null;
  const shown = groups.length > MAX_GROUP_ROWS ? groups.slice(0, MAX_GROUP_ROWS - 1) : groups;
  const rest = groups.slice(shown.length);
  const names = shown.map((group) => cut(group.conclusion ?? "free-form", CONCLUSION_COLUMNS));
  const width = Math.max(...names.map((name) => name.length));
  return (
    <>
      {shown.map((group, index) => (
        <Text key={index} wrap="truncate">
          {"  "}
          {group.won ? <Text color="yellow">★ </Text> : "  "}
          {group.conclusion === null ? (
            <Text dimColor>{names[index]!.padEnd(width)}</Text>
          ) : (
            <Text bold={group.won}>{names[index]!.padEnd(width)}</Text>
          )}
          {"  "}
          <Text color="blue">{votesText(group.votes).padEnd(9)}</Text>
          <Text dimColor>{group.agentIds.join(", ")}</Text>
        </Text>
      ))}
      {rest.length > 0 ? (
        <Text wrap="truncate" dimColor>
          {"    "}… {rest.length} more group{rest.length === 1 ? "" : "s"} (
          {votesText(rest.reduce((sum, group) => sum + group.votes, 0))}; coord logs summary)
        </Text>
      ) : null}
    </>
  );
}

const votesText = (votes: number) => `${votes} vote${votes === 1 ? "" : "s"}`;

/** `text` in at most `columns` characters, cut with `…`. */
function cut(text: string, columns: number): string {
  return text.length <= columns ? text : `${text.slice(0, columns - 1)}…`;
}
