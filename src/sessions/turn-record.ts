/**
 * A finished run, written down as a session turn ({@link TurnRecord}): the question, the final
 * answer, the winner, the answers and the votes, the personas, why it was degraded, derived from
 * the reducer's state (CONTRIBUTING.md rule 3: nothing is tracked twice).
 */
import type { RunState } from "../session/index.js";
import type { TurnRecord } from "./sessions.js";

/**
 * @param options.turn 1-based turn number.
 * @param options.startedAt epoch ms the turn started; options.endedAt epoch ms it ended.
 * @param options.logDir the turn's attempt directory, or null without logs.
 */
export function turnRecordFromState(
  state: RunState,
  options: {
    turn: number;
    question: string;
    startedAt: number;
    endedAt: number;
    logDir: string | null;
  },
): TurnRecord {
  const completed = state.endReason === "completed" && state.finalAnswer !== null;
  const personas = Object.fromEntries(
    state.agents.flatMap((agent) => (agent.persona !== null ? [[agent.id, agent.persona]] : [])),
  );
  return {
    turn: options.turn,
    question: options.question,
    answer: completed ? state.finalAnswer : null,
    winner: state.winner?.agentId ?? null,
    status: state.endReason ?? "interrupted",
    started_at: new Date(options.startedAt).toISOString(),
    ended_at: new Date(options.endedAt).toISOString(),
    log_dir: options.logDir,
    answers: state.answers.map((answer) => ({
      label: answer.label,
      agent_id: answer.agentId,
      content: answer.content,
    })),
    votes: state.votes.map((vote) => ({
      voter_id: vote.voterId,
      target_id: vote.targetAgentId,
      label: vote.label,
      reason: vote.reason,
    })),
    ...(Object.keys(personas).length > 0 ? { personas } : {}),
    ...(state.degraded.length > 0 ? { degraded: [...state.degraded] } : {}),
  };
}
