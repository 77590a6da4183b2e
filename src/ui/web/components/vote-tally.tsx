import type { RunState } from "../../../session/run-state.js";

/**
 * Votes on the current answer set, per agent voted for: a bar, the count and who voted (in team
 * order); the winner's row marked. After the run the winner event's tally is shown when votes were reset.
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
            ? `, ${state.winner.votes} vote${state.winner.votes === 1 ? "" : "s"}`
            : `, by ${state.winner.basis}`}
          {state.winner.tieBroken ? ", tie broken by config order" : ""})
        </p>
      )}
    </section>
  );
}
