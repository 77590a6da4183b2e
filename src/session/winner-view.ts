/**
 * The winner's view model: the `winner` event turned into {@link WinnerInfo},
 * with the answers grouped by conclusion and each group's agents named by their real ids, and the
 * JSON form of the groups that status.json and `coord logs summary --json` carry. Pure.
 *
 * The groups come from the engine's selection (src/engine/selection.ts, docs/coordination.md
 * "How the winner is chosen"); this file only names and orders what the event says.
 */
import type { EventOf } from "../events/index.js";
import type { RunState, WinnerGroup, WinnerInfo } from "./run-state.js";

/**
 * The {@link WinnerInfo} of a `winner` event.
 * @param state the state before the event: its answers name the agent of each label.
 * @param event the `winner` event.
 * @param agentId the winner's real id, null when no agent has the event's anonymous id.
 */
export function winnerInfo(
  state: RunState,
  event: EventOf<"winner">,
  agentId: string | null,
): WinnerInfo {
  return {
    agentId,
    anonId: event.anonId,
    label: event.label,
    votes: event.votes,
    tally: event.tally,
    tieBroken: event.tieBroken,
    basis: event.basis,
    tieBasis: event.tieBasis ?? null,
    conclusion: event.conclusion ?? null,
    groups: (event.groups ?? []).map((group) => ({
      conclusion: group.conclusion ?? null,
      labels: group.labels,
      agentIds: agentsOf(state, group.labels),
      votes: group.votes,
      agents: group.agents,
      firstAnswers: group.firstAnswers,
      won: group.labels.includes(event.label),
    })),
  };
}

/**
 * The groups worth showing, best first: every group when there is more than one or the one group
 * has a conclusion; none when the run had a single free-form answer group (or the log predates
 * groups).
 */
export function shownGroups(winner: WinnerInfo | null): readonly WinnerGroup[] {
  const groups = winner?.groups ?? [];
  if (groups.length === 1 && groups[0]!.conclusion === null) return [];
  return groups;
}

/**
 * What broke a tie: `tie broken by first answers` (or `votes from outside`, `earliest answer`);
 * `tie broken by config order` for logs written before ties were broken on evidence; "" when
 * there was no tie.
 */
export function tieText(winner: WinnerInfo): string {
  if (!winner.tieBroken) return "";
  return `tie broken by ${winner.tieBasis ?? "config order"}`;
}

/** One conclusion group in status.json and `coord logs summary --json`. */
export interface WinnerGroupJson {
  /** The normalised conclusion (`18`, `B`, a short phrase); null for a free-form answer. */
  conclusion: string | null;
  /** Labels of its answers (`agent<N>.<M>`), superseded ones included, in the order accepted. */
  labels: string[];
  /** Real ids of the agents whose answers are in it, in the order they first answered in it. */
  agent_ids: string[];
  /** Current votes for any of its answers. */
  votes: number;
  /** Agents that gave an answer in it; `first_answers` of them with their first answer. */
  agents: number;
  first_answers: number;
  /** True for the winner's group. */
  won: boolean;
}

/** The winner's groups as JSON, best first; [] when the event had none. */
export function winnerGroupsJson(winner: WinnerInfo): WinnerGroupJson[] {
  return winner.groups.map((group) => ({
    conclusion: group.conclusion,
    labels: [...group.labels],
    agent_ids: [...group.agentIds],
    votes: group.votes,
    agents: group.agents,
    first_answers: group.firstAnswers,
    won: group.won,
  }));
}

/**
 * Real ids of the agents that gave these answers, once each, in label order. A label no answer
 * has (a log cut short) falls back to its agent by anonymous id, else the anonymous id itself.
 */
function agentsOf(state: RunState, labels: readonly string[]): string[] {
  const ids: string[] = [];
  for (const label of labels) {
    const anonId = label.replace(/\.[^.]*$/, "");
    const id =
      state.answers.find((answer) => answer.label === label)?.agentId ??
      state.agents.find((agent) => agent.anonId === anonId)?.id ??
      anonId;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}
