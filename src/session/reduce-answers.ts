/**
 * What the answer events (`events/answer-events.ts`) do to the view model: the answers and the
 * current votes (a new answer clears them: `votes-reset`), the winner, and the presenter's
 * streamed final answer.
 */
import type { EventOf } from "../events/index.js";
import { agentIndexOf, type FamilyReducers, unchanged, updateAgent } from "./reducer-table.js";
import type { RunState, VoteRecord } from "./run-state.js";
import { winnerInfo } from "./winner-view.js";

/** The reducers of `answer` to `final-answer`. */
export const answerReducers = {
  answer: (state, event, at) => ({
    ...state,
    answers: [
      ...state.answers,
      {
        label: event.label,
        agentId: event.agentId ?? "",
        anonId: event.anonId,
        round: event.round,
        content: event.content,
        time: at,
      },
    ],
    agents: updateAgent(state, event.agentId, (agent) => ({
      ...agent,
      status: "answered",
      answerCount: agent.answerCount + 1,
      currentAnswerLabel: event.label,
    })),
  }),
  vote: applyVote,
  "vote-refused": unchanged,
  "votes-reset": (state) => ({
    ...state,
    votes: [],
    votesResetCount: state.votesResetCount + 1,
    agents: state.agents.some((agent) => agent.vote !== null)
      ? state.agents.map((agent) =>
          agent.vote === null
            ? agent
            : {
                ...agent,
                vote: null,
                status: agent.status === "voted" ? "waiting" : agent.status,
              },
        )
      : state.agents,
  }),
  winner: (state, event) => {
    const agentId =
      event.agentId ?? state.agents.find((agent) => agent.anonId === event.anonId)?.id ?? null;
    return {
      ...state,
      phase: state.phase === "done" ? "done" : "presenting",
      winner: winnerInfo(state, event, agentId),
    };
  },
  "final-start": (state, event) => {
    const presenterId = event.agentId ?? state.winner?.agentId ?? null;
    return {
      ...state,
      phase: state.phase === "done" ? "done" : "presenting",
      presenterId,
      finalAnswer: "",
      agents: updateAgent(state, presenterId ?? undefined, (agent) => ({
        ...agent,
        status: "presenting",
      })),
    };
  },
  "final-delta": (state, event) => ({
    ...state,
    finalAnswer: (state.finalAnswer ?? "") + event.text,
  }),
  "final-end": unchanged,
  "final-answer": (state, event) => {
    const presenterId = event.agentId ?? state.presenterId ?? state.winner?.agentId ?? null;
    return {
      ...state,
      presenterId,
      finalAnswer: event.content,
      finalAnswerLabel: event.label,
      finalAnswerSource: event.source,
      agents: updateAgent(state, presenterId ?? undefined, (agent) => ({
        ...agent,
        status: "done",
        activeTool: null,
      })),
    };
  },
} satisfies FamilyReducers;

/** Records the vote, replacing the voter's earlier one. */
function applyVote(state: RunState, event: EventOf<"vote">, at: number): RunState {
  const index = agentIndexOf(state, event.agentId);
  const voter = index === undefined ? undefined : state.agents[index];
  const vote: VoteRecord = {
    voterId: event.agentId ?? "",
    voterAnonId: voter?.anonId ?? "",
    targetAgentId: event.targetAgentId,
    targetAnonId: event.targetAnonId,
    label: event.label,
    reason: event.reason,
    round: event.round,
    time: at,
  };
  return {
    ...state,
    votes: [...state.votes.filter((other) => other.voterId !== vote.voterId), vote],
    agents: updateAgent(state, event.agentId, (agent) => ({ ...agent, status: "voted", vote })),
  };
}
