/**
 * The team's shared state during coordination: each agent's answer, vote and liveness, the
 * answer set and its version, and the tally (docs/coordination.md "Voting mode" steps 3 and 6).
 */
import type { Backend } from "../backends/index.js";
import type { PlanDraft, PlanTask } from "../events/index.js";
import type { LocalTool, WorkspaceHooks } from "../tools/index.js";
import { conclusionOf } from "./conclusions.js";
import type { AttributedAnswer, AttributedVote, VisibleAnswer } from "./prompts.js";
import { selectAnswer, type ConclusionGroup, type Selection, type TieBasis } from "./selection.js";

/** One agent as the engine is given it. */
export interface EngineAgent {
  /** Real id (config `agents[].id`). */
  id: string;
  backend: Backend;
  systemMessage?: string | undefined;
  /** Persona text put before the system message (given; persona generation may set one). */
  persona?: string | undefined;
  /** Decomposition mode: the subtask this agent owns (config `agents[].subtask`). */
  subtask?: string | undefined;
  temperature?: number | undefined;
  /** Output cap per model call (tokens). */
  maxOutputTokens?: number | undefined;
  /** Tools of this agent that run inside its rounds (files, commands, MCP; docs/tools.md). */
  tools?: readonly LocalTool[] | undefined;
  /** Its workspace: snapshots on accepted answers, its view of the others' snapshots. */
  workspace?: WorkspaceHooks | undefined;
}

/** The engine's view of one agent during a run. */
export interface AgentState {
  /** 0-based position in config order. */
  index: number;
  agent: EngineAgent;
  /** `agent<N>`, N = index + 1. */
  anonId: string;
  status: "idle" | "working" | "removed";
  /** Rounds started so far. */
  rounds: number;
  answerCount: number;
  answer: { label: string; content: string } | undefined;
  vote: { targetAnonId: string; reason: string } | undefined;
  consecutiveFailures: number;
  /** Its last failed round: what went wrong, in words, and who was at fault (`agent-error.cause`). */
  lastFailure?: { message: string; cause: "provider" | "protocol" | "budget" | "context" };
  /** True once a reply of its model in plain text was heard (the text protocol): no more refusals. */
  speaksText?: boolean;
  /** Labels of the answers the agent has seen (its own included). */
  seenLabels: Set<string>;
  /** Persona put before its system message, if any (given, generated or reused). */
  persona: string | undefined;
  /** Decomposition mode: the subtask it owns (assigned before the first round). */
  subtask: string | undefined;
  /** Decomposition mode: its `stop`, until it starts another round. */
  stop: { status: "complete" | "blocked"; summary: string } | undefined;
  /** Decomposition mode: answers in a row given without news from the other agents. */
  answersWithoutNews: number;
  /** Decomposition mode: other agents' answers it had seen when it last answered. */
  peerAnswersSeen: number;
  /**
   * Voting mode: it re-submitted a current answer word for word, heard as a vote for it (refused
   * as stale when it had not seen that answer, so it votes again in the same round); deferral
   * (step 5) no longer waits for its first answer.
   */
  refusedAsCopy?: boolean;
  /** Planning mode: its current plan (the structured form of its current answer). */
  plan: PlanDraft | undefined;
  /** Planning mode: questions it asked with `ask_others`. */
  questionsAsked: number;
  /** Execution mode: its own copy of the plan (set before the first round). */
  progress: TaskProgress | undefined;
}

/** One agent's copy of the plan in execution mode: every task, its status and notes. */
export interface TaskProgress {
  /** The plan's tasks then the ones the agent added, in order; `status` and `notes` current. */
  tasks: PlanTask[];
  /** Ids of the tasks it added. */
  added: Set<string>;
}

/** A question the user answered (`--broadcast human`), shown to every agent from then on. */
export interface AnsweredQuestion {
  anonId: string;
  question: string;
  /** "" when the user gave no answer. */
  answer: string;
}

/** The team: agents in config order plus the answer-set version. */
export class Team {
  readonly agents: AgentState[];
  /** Labels of every accepted answer, in order; its length is the answer-set version. */
  readonly acceptedLabels: string[] = [];
  /** Planning mode: the user's answers so far, oldest first. */
  readonly answeredQuestions: AnsweredQuestion[] = [];
  /** Planning mode: questions asked so far in the run (numbers `q1`, `q2`, …). */
  questionCount = 0;
  /** Conclusions of the answers noted with {@link Team.noteAnswer}, by label (superseded ones too). */
  private readonly conclusions = new Map<string, string | undefined>();

  constructor(agents: readonly EngineAgent[]) {
    this.agents = agents.map((agent, index) => ({
      index,
      agent,
      anonId: `agent${index + 1}`,
      status: "idle",
      rounds: 0,
      answerCount: 0,
      answer: undefined,
      vote: undefined,
      consecutiveFailures: 0,
      seenLabels: new Set<string>(),
      persona: agent.persona,
      subtask: agent.subtask,
      stop: undefined,
      answersWithoutNews: 0,
      peerAnswersSeen: 0,
      plan: undefined,
      questionsAsked: 0,
      progress: undefined,
    }));
  }

  get version(): number {
    return this.acceptedLabels.length;
  }

  live(): AgentState[] {
    return this.agents.filter((agent) => agent.status !== "removed");
  }

  byAnonId(anonId: string): AgentState | undefined {
    return this.agents.find((agent) => agent.anonId === anonId);
  }

  byId(id: string): AgentState | undefined {
    return this.agents.find((agent) => agent.agent.id === id);
  }

  /** Labels of current answers the agent has not seen. */
  unseenLabels(agent: AgentState): string[] {
    return this.visibleAnswers()
      .map((answer) => answer.label)
      .filter((label) => !agent.seenLabels.has(label));
  }

  /** Current answers, config order, as agents see them. */
  visibleAnswers(): VisibleAnswer[] {
    return this.agents.flatMap((agent) =>
      agent.answer
        ? [{ anonId: agent.anonId, label: agent.answer.label, content: agent.answer.content }]
        : [],
    );
  }

  /** Current answers by real id, for the final presentation. */
  attributedAnswers(): AttributedAnswer[] {
    return this.agents.flatMap((agent) =>
      agent.answer
        ? [{ agentId: agent.agent.id, label: agent.answer.label, content: agent.answer.content }]
        : [],
    );
  }

  /** Current votes by real ids. */
  attributedVotes(): AttributedVote[] {
    return this.agents.flatMap((agent) => {
      const target = agent.vote ? this.byAnonId(agent.vote.targetAnonId) : undefined;
      return agent.vote && target
        ? [{ voterId: agent.agent.id, targetId: target.agent.id, reason: agent.vote.reason }]
        : [];
    });
  }

  /** Clears every vote; returns how many there were. */
  clearVotes(): number {
    let cleared = 0;
    for (const agent of this.agents) {
      if (agent.vote) cleared++;
      agent.vote = undefined;
    }
    return cleared;
  }

  /**
   * Notes the conclusion of `agent`'s current answer (call right after recording it): with the
   * agent's own `short_answer` when it gave one, else extracted (`./conclusions.ts`). An answer
   * not noted is read from its text when the tally needs it.
   */
  noteAnswer(agent: AgentState, shortAnswer?: string): void {
    if (!agent.answer) return;
    this.conclusions.set(agent.answer.label, conclusionOf(agent.answer.content, shortAnswer));
  }

  /** The conclusion of a current or noted answer; undefined: free-form or unknown. */
  conclusionOf(label: string): string | undefined {
    if (this.conclusions.has(label)) return this.conclusions.get(label);
    const holder = this.agents.find((agent) => agent.answer?.label === label);
    return holder?.answer ? conclusionOf(holder.answer.content) : undefined;
  }

  /**
   * The winner by conclusion groups (docs/coordination.md "Voting mode" step 6; rules in
   * `./selection.ts`): every answer of the run grouped by conclusion, a group with more than half
   * of the current votes wins, else the evidence ranking (votes + agents that answered it, then
   * first answers, then votes from outside, then the earliest answer). `winner` holds the group's
   * representative answer; `votes` are the group's current votes; `byAgentId` the current votes per
   * answer's author. Undefined when no agent holds an answer.
   */
  tally():
    | {
        winner: AgentState;
        votes: number;
        tieBroken: boolean;
        tieBasis?: TieBasis;
        rule: Selection["rule"];
        conclusion: string | undefined;
        byAgentId: Record<string, number>;
        groups: ConclusionGroup[];
      }
    | undefined {
    const currentLabels = new Set(this.agents.flatMap((agent) => agent.answer?.label ?? []));
    const answers = this.acceptedLabels.map((label) => ({
      label,
      anonId: label.slice(0, label.lastIndexOf(".")),
      conclusion: this.conclusionOf(label),
      current: currentLabels.has(label),
    }));
    const counts = new Map<AgentState, number>();
    const votes = this.agents.flatMap((voter) => {
      const target = voter.vote ? this.byAnonId(voter.vote.targetAnonId) : undefined;
      if (!target?.answer) return [];
      counts.set(target, (counts.get(target) ?? 0) + 1);
      return [{ voterAnonId: voter.anonId, label: target.answer.label }];
    });
    const selection = selectAnswer(answers, votes);
    const winner = this.agents.find((agent) => agent.answer?.label === selection?.label);
    if (selection === undefined || winner === undefined) return undefined;
    const byAgentId: Record<string, number> = {};
    for (const agent of this.agents)
      if (counts.has(agent)) byAgentId[agent.agent.id] = counts.get(agent)!;
    return {
      winner,
      votes: selection.group.votes,
      tieBroken: selection.tieBroken,
      ...(selection.tieBasis ? { tieBasis: selection.tieBasis } : {}),
      rule: selection.rule,
      conclusion: selection.group.conclusion,
      byAgentId,
      groups: selection.groups,
    };
  }
}
