/**
 * The coordination loop (COORDINATION.md "Voting mode", "Single agent", "Quick"): starts rounds,
 * applies workflow calls atomically, restarts agents only when there is something new for them,
 * removes agents that keep failing, and decides when coordination is done.
 *
 * The loop is event-driven: every round end calls {@link Coordinator.schedule}, which starts the
 * rounds now due and detects the end. All state changes happen synchronously between awaits, so
 * concurrent agents never see a half-applied call.
 */
import { BackendError } from "../backends/backend.js";
import type { Clock } from "../clock.js";
import type { CoordinationMode } from "../events/events.js";
import type { OrchestratorConfig } from "../config/schema.js";
import type { LocalTool } from "../tools/tool.js";
import {
  runAgentRound,
  type AgentRoundResult,
  type RoundJudge,
  type SubmitResult,
} from "./agent-round.js";
import type { Emitter } from "./emitter.js";
import { jaccard, NOVELTY_THRESHOLDS } from "./novelty.js";
import {
  coordinationSystemPrompt,
  coordinationUserMessage,
  staleVoteMessage,
  type HistoryTurn,
} from "./prompts.js";
import type { AgentState, Team } from "./team.js";
import { newAnswerTool, voteTool, type WorkflowCall } from "./workflow-tools.js";

/** Orchestrator settings the coordinator reads. */
export type CoordinatorSettings = Pick<
  OrchestratorConfig,
  | "voting_sensitivity"
  | "answer_novelty_requirement"
  | "max_new_answers_per_agent"
  | "max_new_answers_global"
  | "defer_voting_until_all_answered"
>;

/** A failing agent is removed after this many failed rounds in a row. */
export const MAX_CONSECUTIVE_FAILURES = 2;

/** How coordination ended, before the winner is chosen. */
export type CoordinationEnd = "completed" | "failed" | "timeout" | "interrupted";

export interface CoordinatorOptions {
  team: Team;
  mode: Exclude<CoordinationMode, "decomposition">;
  question: string;
  history: readonly HistoryTurn[];
  settings: CoordinatorSettings;
  localTools: readonly LocalTool[];
  emitter: Emitter;
  clock: Clock;
  /** Aborts every round in flight (timeout or interrupt). */
  signal: AbortSignal;
}

/** Runs the rounds of one coordination until done, failed, or stopped from outside. */
export class Coordinator {
  private readonly active = new Set<Promise<void>>();
  private end: CoordinationEnd | undefined;
  private resolveEnd: ((end: CoordinationEnd) => void) | undefined;

  constructor(private readonly options: CoordinatorOptions) {}

  /**
   * Starts every agent and resolves when coordination ends. After it resolves no round is in
   * flight. `stop(reason)` ends it early (timeout, interrupt).
   */
  async run(): Promise<CoordinationEnd> {
    const ended = new Promise<CoordinationEnd>((resolve) => (this.resolveEnd = resolve));
    if (this.end !== undefined) return this.end; // stopped before it started (a signal already aborted)
    this.schedule();
    const end = await ended;
    while (this.active.size > 0) await Promise.allSettled([...this.active]);
    return end;
  }

  /** Ends coordination now; rounds in flight see the options' signal abort. */
  stop(reason: CoordinationEnd): void {
    this.finish(reason);
  }

  private finish(reason: CoordinationEnd): void {
    if (this.end !== undefined) return;
    this.end = reason;
    this.resolveEnd?.(reason);
  }

  /** Starts the rounds now due; detects the end of coordination. */
  private schedule(): void {
    if (this.end !== undefined) return;
    const { team, mode } = this.options;
    const live = team.live();
    if (live.length === 0) return this.finish("failed");
    const everyoneContributed = live.every(
      (agent) => agent.answerCount > 0 || agent.vote !== undefined,
    );
    for (const agent of live) {
      if (agent.status !== "idle") continue;
      if (mode === "voting") {
        // Restart only agents without a valid vote: after a new answer, a reset, or a failure.
        // With deferral, nobody starts voting before every live agent has answered (step 5).
        const due =
          agent.vote === undefined &&
          (agent.answerCount === 0 ||
            !this.options.settings.defer_voting_until_all_answered ||
            everyoneContributed);
        if (due) this.startRound(agent);
      } else if (agent.answerCount === 0) {
        this.startRound(agent); // quick and single: exactly one answer each
      }
    }
    if (live.some((agent) => agent.status === "working")) return;
    const done =
      mode === "voting"
        ? live.every((agent) => agent.vote !== undefined)
        : live.every((agent) => agent.answerCount > 0);
    // Nothing is running and nothing is due: by construction that means done.
    if (done) this.finish("completed");
    else this.finish("failed");
  }

  private startRound(agent: AgentState): void {
    const { team, emitter, settings } = this.options;
    agent.status = "working";
    agent.rounds++;
    const snapshot = { version: team.version, answers: team.visibleAnswers() };
    const unseen = team.unseenLabels(agent);
    if (agent.rounds > 1 && unseen.length > 0) {
      emitter.emit({
        type: "update-injected",
        agentId: agent.agent.id,
        round: agent.rounds,
        labels: unseen,
        via: "restart",
      });
    }
    for (const answer of snapshot.answers) agent.seenLabels.add(answer.label);
    const system = coordinationSystemPrompt({
      systemMessage: agent.agent.systemMessage,
      persona: agent.agent.persona,
      teamSize: team.agents.length,
      sensitivity: settings.voting_sensitivity,
      canAnswer: this.canAnswer(agent),
      canVote: this.canVote(),
    });
    const round = runAgentRound({
      agentId: agent.agent.id,
      backend: agent.agent.backend,
      round: agent.rounds,
      system,
      userMessage: coordinationUserMessage({
        question: this.options.question,
        history: this.options.history,
        answers: snapshot.answers,
      }),
      seen: snapshot,
      judge: this.judgeFor(agent),
      localTools: this.options.localTools,
      emitter,
      clock: this.options.clock,
      signal: this.options.signal,
      temperature: agent.agent.temperature,
      maxOutputTokens: agent.agent.maxOutputTokens,
    }).then((result) => this.roundEnded(agent, result));
    this.active.add(round);
    void round.finally(() => this.active.delete(round));
  }

  private roundEnded(agent: AgentState, result: AgentRoundResult): void {
    agent.status = "idle";
    for (const answer of result.seen.answers) agent.seenLabels.add(answer.label);
    if (result.outcome === "answer" || result.outcome === "vote") {
      agent.consecutiveFailures = 0;
    } else if (result.outcome === "error" || result.outcome === "invalid") {
      agent.consecutiveFailures++;
      const fatal = agent.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES;
      const error = result.error;
      this.options.emitter.emit({
        type: "agent-error",
        agentId: agent.agent.id,
        round: agent.rounds,
        message:
          result.outcome === "invalid"
            ? "no valid workflow call after 3 attempts"
            : error instanceof Error
              ? error.message
              : String(error),
        ...(error instanceof BackendError
          ? {
              provider: error.provider,
              ...(error.status !== undefined ? { status: error.status } : {}),
            }
          : {}),
        retryable: error instanceof BackendError ? error.retryable : result.outcome === "invalid",
        fatal,
      });
      if (fatal) agent.status = "removed";
    }
    this.schedule();
  }

  private canAnswer(agent: AgentState): boolean {
    if (this.options.mode !== "voting") return true;
    const { max_new_answers_per_agent: perAgent, max_new_answers_global: global } =
      this.options.settings;
    if (perAgent !== undefined && agent.answerCount >= perAgent) return false;
    if (global !== undefined && this.options.team.version >= global) return false;
    return true;
  }

  private canVote(): boolean {
    return this.options.mode === "voting" && this.options.team.version > 0;
  }

  private judgeFor(agent: AgentState): RoundJudge {
    const { team } = this.options;
    return {
      workflowTools: () => {
        const tools = [];
        if (this.canAnswer(agent)) tools.push(newAnswerTool());
        if (this.canVote())
          tools.push(voteTool(team.visibleAnswers().map((answer) => answer.anonId)));
        return tools;
      },
      snapshot: () => ({ version: team.version, answers: team.visibleAnswers() }),
      labelsSince: (version) => team.acceptedLabels.slice(version),
      submit: (call, seenVersion) =>
        call.kind === "new_answer"
          ? this.submitAnswer(agent, call.content)
          : this.submitVote(agent, call, seenVersion),
    };
  }

  private submitAnswer(agent: AgentState, content: string): SubmitResult {
    const { team, emitter, settings } = this.options;
    if (!this.canAnswer(agent)) {
      return {
        status: "invalid",
        message:
          "You have reached the answer limit (max_new_answers_per_agent / max_new_answers_global); you can only vote now.",
      };
    }
    for (const other of team.agents) {
      if (!other.answer) continue;
      if (other.answer.content === content) {
        return {
          status: "invalid",
          message: `This answer is identical to ${other.anonId}'s current answer. Vote for it instead, or write a different answer.`,
        };
      }
      const threshold = NOVELTY_THRESHOLDS[settings.answer_novelty_requirement];
      if (threshold !== undefined && jaccard(content, other.answer.content) > threshold) {
        return {
          status: "invalid",
          message: `This answer is too similar to ${other.anonId}'s current answer (answer_novelty_requirement: ${settings.answer_novelty_requirement}). Vote for it, or write a substantially different answer.`,
        };
      }
    }
    agent.answerCount++;
    const label = `${agent.anonId}.${agent.answerCount}`;
    agent.answer = { label, content };
    team.acceptedLabels.push(label);
    agent.seenLabels.add(label);
    emitter.emit({
      type: "answer",
      agentId: agent.agent.id,
      round: agent.rounds,
      label,
      anonId: agent.anonId,
      content,
    });
    const cleared = team.clearVotes();
    if (cleared > 0) emitter.emit({ type: "votes-reset", causeLabel: label, cleared });
    return { status: "accepted", outcome: "answer" };
  }

  private submitVote(
    agent: AgentState,
    call: Extract<WorkflowCall, { kind: "vote" }>,
    seenVersion: number,
  ): SubmitResult {
    const { team, emitter } = this.options;
    const candidates = team.visibleAnswers().map((answer) => answer.anonId);
    if (candidates.length === 0) {
      return {
        status: "invalid",
        message: "There are no answers to vote for yet; use new_answer.",
      };
    }
    const target = team.byAnonId(call.agentId);
    if (!target?.answer) {
      return {
        status: "invalid",
        message: `${call.agentId} has no answer to vote for; vote for one of: ${candidates.join(", ")}.`,
      };
    }
    if (seenVersion !== team.version) {
      const answers = team.visibleAnswers();
      const message = staleVoteMessage(answers);
      emitter.emit({
        type: "vote-refused",
        agentId: agent.agent.id,
        round: agent.rounds,
        targetAnonId: call.agentId,
        message,
      });
      return {
        status: "stale",
        message,
        snapshot: { version: team.version, answers },
        labels: team.acceptedLabels.slice(seenVersion),
      };
    }
    agent.vote = { targetAnonId: target.anonId, reason: call.reason };
    emitter.emit({
      type: "vote",
      agentId: agent.agent.id,
      round: agent.rounds,
      targetAgentId: target.agent.id,
      targetAnonId: target.anonId,
      label: target.answer.label,
      reason: call.reason,
    });
    return { status: "accepted", outcome: "vote" };
  }
}
