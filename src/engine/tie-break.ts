/**
 * Ties broken on new evidence (docs/selection.md "Ties"). When voting ends with
 * the best conclusion groups tied (`Team.tally().tieBroken`: no majority, equal scores), nothing in
 * the run tells them apart, so the protocol spends one more round per live agent, once per run
 * (`orchestrator.tie_break`):
 *
 * - `fresh_answers` (the default): each live agent answers the question again without seeing any
 *   answer (a self-consistency sample; only `new_answer` is offered). The answer replaces its
 *   current one (event `answer`, votes cleared as for any answer), then the team votes again as
 *   usual on the new answer set; every answer of the run stays in its conclusion group's count.
 *   A tie involving a free-form answer (no conclusion: every fresh answer would be a group of its
 *   own, so the samples could not add up) gets the `revote` round instead.
 * - `revote`: each live agent votes once more, told the vote is tied between the named answers
 *   (only `vote`, for the tied answers, is offered); its new vote replaces its old one, and an
 *   agent that casts none keeps its old vote.
 * - `none`: no round.
 *
 * The round is announced by a `warning` event (source `orchestrator`), its model calls are
 * ordinary rounds (`round-start` … `round-end`) counted in the run budget; a budget or timeout
 * reached before or during it ends coordination as usual. A tie that remains is broken by the
 * selection's later keys and reported (`winner.tieBroken`, `winner.tieBasis`; `./selection.ts`).
 */
import type { ToolSpec } from "../backends/index.js";
import type { SubmitResult } from "./agent-round.js";
import { personaOf, recordAnswer, submitVote } from "./modes/answers.js";
import type { ModeContext, ModeSettings } from "./modes/mode.js";
import {
  coordinationSystemPrompt,
  coordinationUserMessage,
  freshAnswerMessage,
  personaPrompt,
  tieVoteNotice,
  type VisibleAnswer,
} from "./prompts.js";
import type { AgentState } from "./team.js";
import { newAnswerTool, voteTool, type WorkflowCall } from "./workflow-tools.js";

/** `orchestrator.tie_break`: what the protocol does when the vote ends in a tie. */
export type TieBreakRule = "fresh_answers" | "revote" | "none";

/** The rule when the settings name none (the config schema's default). */
export const DEFAULT_TIE_BREAK: TieBreakRule = "fresh_answers";

/** The one tie round of a run: what it is, what was tied, and which agents have had their round. */
export class TieBreak {
  private round:
    | { rule: Exclude<TieBreakRule, "none">; tied: VisibleAnswer[]; started: Set<AgentState> }
    | undefined;
  private used = false;

  constructor(private readonly rule: TieBreakRule) {}

  /** True while the tie round is due or running. */
  get active(): boolean {
    return this.round !== undefined;
  }

  /**
   * Starts the tie round when voting ended in a tie and the run has not had one (emits the
   * `warning` that announces it).
   * @returns true when it started: the coordinator then schedules the agents it makes due.
   */
  begin(context: ModeContext): boolean {
    if (this.used || this.rule === "none") return false;
    const { team, emitter } = context;
    const tally = team.tally();
    if (tally === undefined || !tally.tieBroken || team.live().length < 2) return false;
    const current = new Map(team.visibleAnswers().map((answer) => [answer.label, answer]));
    const top = tally.groups.find((group) => group.labels.some((label) => current.has(label)));
    const tied = tally.groups
      .filter((group) => group.score === top?.score)
      .flatMap((group) => {
        const held = group.labels.filter((label) => current.has(label));
        return held.length > 0 ? [current.get(held.at(-1)!)!] : [];
      });
    if (tied.length < 2) return false;
    this.used = true;
    const freeForm = tied.some((answer) => team.conclusionOf(answer.label) === undefined);
    const rule = this.rule === "fresh_answers" && freeForm ? "revote" : this.rule;
    this.round = { rule, tied, started: new Set() };
    const named = tied
      .map((answer) => {
        const conclusion = team.conclusionOf(answer.label);
        return conclusion !== undefined ? `${answer.label} (${conclusion})` : answer.label;
      })
      .join(", ");
    const what =
      rule === "revote"
        ? "each agent votes once more between them"
        : "each agent answers the question again without seeing the answers, then the team votes again";
    const why = rule === this.rule ? "" : ", a free-form answer is tied: a re-vote instead";
    emitter.emit({
      type: "warning",
      source: "orchestrator",
      message: `the vote is tied between ${named}; ${what} (orchestrator.tie_break: ${this.rule}${why})`,
    });
    return true;
  }

  /** During the tie round: true for a live agent that has not had its tie round yet. */
  isDue(agent: AgentState): boolean {
    return this.round !== undefined && !this.round.started.has(agent);
  }

  /** Marks `agent`'s tie round as started (one per agent). */
  started(agent: AgentState): void {
    this.round?.started.add(agent);
  }

  /** Ends the tie round (every live agent has had its round and none is working). */
  end(): void {
    this.round = undefined;
  }

  /** The workflow tools of an agent's tie round. */
  workflowTools(): ToolSpec[] {
    if (this.round?.rule === "revote")
      return [voteTool(this.round.tied.map((answer) => answer.anonId))];
    return [newAnswerTool()];
  }

  /** The system prompt of `agent`'s tie round. */
  systemPrompt(agent: AgentState, context: ModeContext): string {
    const revote = this.round?.rule === "revote";
    return coordinationSystemPrompt({
      systemMessage: agent.agent.systemMessage,
      persona: revote ? personaOf(agent, context) : personaPrompt(agent.persona, false),
      teamSize: context.team.agents.length,
      sensitivity: context.settings.voting_sensitivity,
      canAnswer: !revote,
      canVote: revote,
    });
  }

  /** The answers the tie round shows (`revote`: the tied ones; `fresh_answers`: none). */
  shown(): VisibleAnswer[] {
    return this.round?.rule === "revote" ? this.round.tied : [];
  }

  /** The opening message of a tie round. */
  userMessage(context: ModeContext, answers: readonly VisibleAnswer[]): string {
    const { question, history } = context.conversation;
    if (this.round?.rule !== "revote") return freshAnswerMessage({ question, history });
    return [
      coordinationUserMessage({ question, history, answers }),
      tieVoteNotice(this.round.tied.map((answer) => answer.anonId)),
    ].join("\n\n");
  }

  /**
   * Judges a workflow call of a tie round: `revote` accepts only a vote for a tied answer,
   * `fresh_answers` only a new answer (recorded without the novelty check and the answer caps:
   * agreeing with its own earlier answer is a sample like any other).
   */
  submit(
    agent: AgentState,
    call: Exclude<WorkflowCall, { kind: "invalid" }>,
    seenVersion: number,
    context: ModeContext,
  ): SubmitResult {
    const round = this.round;
    if (round?.rule === "revote") {
      const names = round.tied.map((answer) => answer.anonId);
      if (call.kind !== "vote" || !names.includes(call.agentId)) {
        return {
          status: "invalid",
          message: `The vote is tied between ${names.join(", ")}: call vote for one of them.`,
        };
      }
      return submitVote(agent, call, seenVersion, context);
    }
    if (call.kind !== "new_answer") {
      return { status: "invalid", message: "Answer the question: call new_answer." };
    }
    const result = recordAnswer(agent, call.content, context);
    context.team.noteAnswer(agent, call.shortAnswer);
    return result;
  }
}

/** `orchestrator.tie_break` of the run's settings, {@link DEFAULT_TIE_BREAK} when absent. */
export function tieBreakRuleOf(settings: ModeSettings): TieBreakRule {
  return settings.tie_break ?? DEFAULT_TIE_BREAK;
}
