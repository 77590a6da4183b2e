import { type RunState, shownGroups, tieText, type WinnerGroup } from "../../../session/index.js";

/**
 * Votes on the current answer set, per agent voted for: a bar, the count and who voted (in team
 * order); the winner's row marked. After the run the winner event's tally is shown when votes were reset,
 * then the winner and the answers grouped by conclusion.
 */
export function VoteTally({ state }: { state: RunState }) {
  if (state.agents.length === 0) return null;
  // Voters in team order, like the rows: the order votes arrived in is a race between agents.
  const team = state.agents.map((agent) => agent.id);
  const voters = new Map<string, string[]>();
  for (const vote of state.votes) {
    voters.set(vote.targetAgentId, [...(voters.get(vote.targetAgentId) ?? []), vote.voterId]);
  }
  for (const from of voters.values()) from.sort((a, b) => team.indexOf(a) - team.indexOf(b));
  const total = Math.max(1, state.agents.length);
  const winnerId = state.winner?.agentId ?? null;
  return (
    <section className="card votes" data-testid="vote-tally">
      <h2>
        Votes{" "}
        <span className="muted">
          ({state.votes.length} of {state.agents.length})
        </span>
      </h2>
      {state.votesResetCount > 0 && (
        <p className="muted small">
          Votes were reset {state.votesResetCount}× when new answers arrived.
        </p>
      )}
      <ul>
        {state.agents.map((agent) => {
          const from = voters.get(agent.id) ?? [];
          const count = from.length || (state.winner?.tally[agent.id] ?? 0);
          const won = agent.id === winnerId;
          return (
            <li
              key={agent.id}
              className={won ? "won" : ""}
              data-testid="vote-row"
              data-target={agent.id}
              data-count={count}
            >
              <span className="vote-name">
                {agent.id}
                {won && <span className="badge winner-badge">winner</span>}
              </span>
              <span className="bar">
                <span style={{ width: `${(count / total) * 100}%` }} />
              </span>
              <span className="vote-count">{count}</span>
              <span className="voters">{from.length > 0 ? `← ${from.join(", ")}` : ""}</span>
            </li>
          );
        })}
      </ul>
      {state.winner && (
        <p className="winner-line" data-testid="winner">
          Winner: <strong>{state.winner.agentId ?? state.winner.anonId}</strong> (
          {state.winner.label}
          {state.winner.basis === "votes"
            ? `, ${votesText(state.winner.votes)}`
            : state.winner.basis === "partial"
              ? ", coordination did not complete: chosen from the answers in hand"
              : `, by ${state.winner.basis}`}
          {state.winner.tieBroken ? `, ${tieText(state.winner)}` : ""})
        </p>
      )}
      <ConclusionGroups groups={shownGroups(state.winner)} />
    </section>
  );
}

const votesText = (votes: number) => `${votes} vote${votes === 1 ? "" : "s"}`;

/**
 * The answers grouped by conclusion, best first (docs/coordination.md "How the winner is
 * chosen"): each group's conclusion (or "free-form"), its votes, the agents whose answers are in
 * it with the answers' labels; the winner's group marked. Nothing without groups to compare.
 */
function ConclusionGroups({ groups }: { groups: readonly WinnerGroup[] }) {
  if (groups.length === 0) return null;
  return (
    <table className="conclusion-groups" data-testid="conclusion-groups">
      <caption>Answers by conclusion</caption>
      <thead>
        <tr>
          <th>Conclusion</th>
          <th className="num">Votes</th>
          <th>Answers</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group, index) => (
          <tr
            key={index}
            className={group.won ? "won" : ""}
            data-testid="conclusion-group"
            data-conclusion={group.conclusion ?? ""}
            data-votes={group.votes}
          >
            <td className={group.conclusion === null ? "free-form" : "conclusion"}>
              {group.conclusion ?? "free-form"}
              {group.won && <span className="badge winner-badge">winner</span>}
            </td>
            <td className="vote-count">{group.votes}</td>
            <td className="group-agents">
              {group.agentIds.join(", ")}{" "}
              <span className="muted small">({group.labels.join(", ")})</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
