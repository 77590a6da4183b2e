/**
 * The coordination loop (docs/coordination.md "Voting mode", "Other modes"): starts the rounds the
 * mode says are due, lets the mode judge every workflow call, removes agents that keep failing, and
 * asks the mode when coordination is done. Nothing here depends on which mode runs.
 *
 * The loop is event-driven: every round end calls {@link Coordinator.schedule}, which starts the
 * rounds now due and detects the end. All state changes happen synchronously between awaits, so
 * concurrent agents never see a half-applied call.
 *
 * The straggler rule (`timeout_settings.straggler_timeout_seconds`): when one
 * agent is still working while every other live agent is done (idle, nothing due) and a winner
 * could be chosen, it is given `stragglerTimeoutMs` more on the injected clock; then its round is
 * aborted, it leaves the team (event `straggler-cut`) and coordination goes on without it.
 *
 * The tie round (`./tie-break.ts`, `orchestrator.tie_break`): in voting mode, when
 * coordination would complete with the best conclusion groups tied, every live agent gets one
 * more round (a fresh answer or a re-vote), once per run; then coordination goes on as usual.
 *
 * Unanimous answers (`./unanimous.ts`, `orchestrator.unanimous: skip_votes`): in voting mode, once
 * every live agent's answer reaches the same conclusion, no round is due and coordination is
 * done without the vote round (a `warning` says so).
 */
import { BackendError } from "../backends/index.js";
import type { LocalTool } from "../tools/index.js";
import {
  runAgentRound,
  type AgentRoundResult,
  type AnswerSnapshot,
  type RoundJudge,
} from "./agent-round.js";
import type { CoordinationEnd, CoordinationModeSpec, ModeContext } from "./modes/index.js";
import { coordinationUserMessage, type HistoryTurn, type VisibleAnswer } from "./prompts.js";
import type { AgentState } from "./team.js";
import { defaultTextCall } from "./text-protocol.js";
import { TieBreak, tieBreakRuleOf } from "./tie-break.js";
import { unanimousConclusion, unanimousRuleOf } from "./unanimous.js";

/** A failing agent is removed after this many failed rounds in a row. */
export const MAX_CONSECUTIVE_FAILURES = 2;

export interface CoordinatorOptions {
  mode: CoordinationModeSpec;
  context: ModeContext;
  question: string;
  history: readonly HistoryTurn[];
  localTools: readonly LocalTool[];
  /** Aborts every round in flight (timeout or interrupt). */
  signal: AbortSignal;
  /** The straggler timeout (ms); undefined: no straggler rule. */
  stragglerTimeoutMs?: number | undefined;
}

/** Runs the rounds of one coordination until done, failed, or stopped from outside. */
export class Coordinator {
  private readonly active = new Set<Promise<void>>();
  /** Each working agent's round, to abort it alone (the straggler rule). */
  private readonly roundControllers = new Map<AgentState, AbortController>();
  /** Agents cut by the straggler rule whose round has not ended yet. */
  private readonly cut = new Set<AgentState>();
  /** The straggler being timed: the agent, its round, and what cancels the timer. */
  private stragglerWatch: { agent: AgentState; round: number; cancel: AbortController } | undefined;
  private end: CoordinationEnd | undefined;
  private resolveEnd: ((end: CoordinationEnd) => void) | undefined;
  private readonly tie: TieBreak;
  /** `orchestrator.unanimous: skip_votes` in voting mode. */
  private readonly skipUnanimousVotes: boolean;
  /** The warning that voting ended on unanimous answers was emitted. */
  private unanimousNoted = false;

  constructor(private readonly options: CoordinatorOptions) {
    const { mode, context } = options;
    const voting = mode.name === "voting";
    this.tie = new TieBreak(voting ? tieBreakRuleOf(context.settings) : "none");
    this.skipUnanimousVotes = voting && unanimousRuleOf(context.settings) === "skip_votes";
  }

  /**
   * Starts every agent and resolves when coordination ends. After it resolves no round is in
   * flight. `stop(reason)` ends it early (timeout, interrupt, shutdown).
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
    this.stopWatching();
    this.end = reason;
    this.resolveEnd?.(reason);
  }

  /** Starts the rounds now due; detects the end of coordination. */
  private schedule(): void {
    if (this.end !== undefined) return;
    const { mode, context } = this.options;
    const live = context.team.live();
    if (live.length === 0) return this.finish("failed");
    const tieRound = this.tie.active;
    // Every answer reaches one conclusion and votes would skip nothing: nobody is due.
    const unanimous =
      !tieRound && this.skipUnanimousVotes ? unanimousConclusion(context.team) : undefined;
    for (const agent of live) {
      const due = tieRound
        ? this.tie.isDue(agent)
        : unanimous === undefined && mode.isDue(agent, context);
      if (agent.status === "idle" && due) this.startRound(agent);
    }
    const working = live.filter((agent) => agent.status === "working");
    if (working.length > 0) return this.watchStraggler(live, working);
    if (tieRound) {
      // Every live agent had its tie round: coordination goes on (after fresh answers, a vote).
      this.tie.end();
      return this.schedule();
    }
    // Nothing is running and nothing is due: by construction that means done (or stuck: failed),
    // unless the vote ended in a tie and the run has its tie round still (`./tie-break.ts`).
    const voted = mode.isDone(live, context);
    if (!voted && unanimous !== undefined) this.noteUnanimous(unanimous);
    const done = voted || unanimous !== undefined;
    if (done && this.tie.begin(context)) return this.schedule();
    this.finish(done ? "completed" : "failed");
  }

  /** The `warning` that voting ends on unanimous answers, once per run. */
  private noteUnanimous(conclusion: string): void {
    if (this.unanimousNoted) return;
    this.unanimousNoted = true;
    this.options.context.emitter.emit({
      type: "warning",
      source: "orchestrator",
      message: `every answer concludes ${conclusion}; voting ends without a vote round (orchestrator.unanimous: skip_votes)`,
    });
  }

  private startRound(agent: AgentState): void {
    const { mode, context } = this.options;
    const { team, emitter } = context;
    agent.status = "working";
    agent.stop = undefined; // a stopped agent that starts a round works again (decomposition)
    agent.rounds++;
    const tieRound = this.tie.active;
    if (tieRound) this.tie.started(agent);
    const snapshot = {
      version: team.version,
      answers: tieRound ? this.tie.shown() : team.visibleAnswers(),
    };
    const unseen = tieRound ? [] : team.unseenLabels(agent);
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
    // The round's own signal: the coordination's, or this agent alone being cut.
    const controller = new AbortController();
    const forward = () => controller.abort(this.options.signal.reason);
    if (this.options.signal.aborted) forward();
    else this.options.signal.addEventListener("abort", forward, { once: true });
    this.roundControllers.set(agent, controller);
    const opening = (answers: readonly VisibleAnswer[]) =>
      tieRound
        ? this.tie.userMessage(context, answers)
        : coordinationUserMessage({
            question: this.options.question,
            history: this.options.history,
            answers,
          });
    const round = runAgentRound({
      agentId: agent.agent.id,
      backend: agent.agent.backend,
      round: agent.rounds,
      system: () =>
        tieRound ? this.tie.systemPrompt(agent, context) : mode.systemPrompt(agent, context),
      userMessage: opening(snapshot.answers),
      openingMessage: opening,
      seen: snapshot,
      judge: tieRound ? this.tieJudgeFor(agent, snapshot) : this.judgeFor(agent),
      localTools: [
        ...(agent.agent.tools ?? []),
        ...this.options.localTools,
        ...(mode.roundTools?.(agent, context) ?? []),
      ],
      workspace: agent.agent.workspace,
      emitter,
      clock: context.clock,
      signal: controller.signal,
      temperature: agent.agent.temperature,
      maxOutputTokens: agent.agent.maxOutputTokens,
    }).then((result) => {
      this.options.signal.removeEventListener("abort", forward);
      this.roundControllers.delete(agent);
      this.roundEnded(agent, result);
    });
    this.active.add(round);
    void round.finally(() => this.active.delete(round));
  }

  private roundEnded(agent: AgentState, result: AgentRoundResult): void {
    agent.status = "idle";
    if (result.heardText === true) agent.speaksText = true;
    for (const answer of result.seen.answers) agent.seenLabels.add(answer.label);
    switch (result.outcome) {
      case "answer":
      case "vote":
      case "stop":
        agent.consecutiveFailures = 0;
        break;
      case "error":
      case "invalid":
        this.roundFailed(agent, result);
        break;
      case "aborted":
        break;
    }
    if (this.cut.delete(agent)) agent.status = "removed";
    this.schedule();
  }

  /**
   * Times the straggler, if there is one now: exactly one agent working, every other live agent
   * done (nothing is due: `schedule` just started whatever was), and a winner could be chosen.
   * Otherwise stops timing.
   */
  private watchStraggler(live: readonly AgentState[], working: readonly AgentState[]): void {
    const { stragglerTimeoutMs } = this.options;
    const [agent] = working;
    const { mode, context } = this.options;
    if (
      stragglerTimeoutMs === undefined ||
      agent === undefined ||
      working.length !== 1 ||
      live.length < 2 ||
      mode.chooseWinner("completed", context) === undefined
    ) {
      return this.stopWatching();
    }
    const watch = this.stragglerWatch;
    if (watch?.agent === agent && watch.round === agent.rounds) return; // already timed
    this.stopWatching();
    const cancel = new AbortController();
    const round = agent.rounds;
    this.stragglerWatch = { agent, round, cancel };
    context.clock.sleep(stragglerTimeoutMs, cancel.signal).then(
      () => this.cutStraggler(agent, round, stragglerTimeoutMs),
      () => undefined,
    );
  }

  private stopWatching(): void {
    this.stragglerWatch?.cancel.abort();
    this.stragglerWatch = undefined;
  }

  private cutStraggler(agent: AgentState, round: number, waitedMs: number): void {
    this.stragglerWatch = undefined;
    if (this.end !== undefined || agent.status !== "working" || agent.rounds !== round) return;
    const seconds = Math.round(waitedMs / 100) / 10;
    this.options.context.emitter.emit({
      type: "straggler-cut",
      agentId: agent.agent.id,
      round,
      waitedMs,
      message: `still working ${seconds} s after every other agent was done; the run goes on without it (timeout_settings.straggler_timeout_seconds)`,
    });
    this.cut.add(agent);
    this.roundControllers.get(agent)?.abort(new DOMException("cut as a straggler", "AbortError"));
  }

  /**
   * Removes an agent from the team now (its per-agent budget ran out): its round in flight is
   * aborted and it takes no further part; coordination goes on without it.
   */
  removeAgent(agentId: string): void {
    const agent = this.options.context.team.byId(agentId);
    if (agent === undefined || agent.status === "removed") return;
    agent.lastFailure = { message: "reached its budget", cause: "budget" };
    if (agent.status === "working") {
      this.cut.add(agent);
      this.roundControllers.get(agent)?.abort(new DOMException("budget reached", "AbortError"));
    } else {
      agent.status = "removed";
      queueMicrotask(() => this.schedule());
    }
  }

  private roundFailed(agent: AgentState, result: AgentRoundResult): void {
    agent.consecutiveFailures++;
    const fatal = agent.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES;
    const error = result.error;
    const cause =
      result.outcome === "invalid" ? "protocol" : result.contextExceeded ? "context" : "provider";
    const message =
      result.outcome === "invalid"
        ? (result.diagnosis ?? "no valid workflow call after 3 attempts")
        : error instanceof Error
          ? error.message
          : String(error);
    agent.lastFailure = { message, cause };
    this.options.context.emitter.emit({
      type: "agent-error",
      agentId: agent.agent.id,
      round: agent.rounds,
      message,
      ...(error instanceof BackendError
        ? {
            provider: error.provider,
            ...(error.status !== undefined ? { status: error.status } : {}),
          }
        : {}),
      retryable: error instanceof BackendError ? error.retryable : result.outcome === "invalid",
      fatal,
      cause,
    });
    if (fatal) agent.status = "removed";
  }

  private judgeFor(agent: AgentState): RoundJudge {
    const { mode, context } = this.options;
    const { team } = context;
    return {
      workflowToolNames: mode.workflowToolNames,
      workflowTools: () => mode.workflowTools(agent, context),
      snapshot: () => ({ version: team.version, answers: team.visibleAnswers() }),
      labelsSince: (version) => team.acceptedLabels.slice(version),
      textRefusals: () => (mode.textAtOnce === true || agent.speaksText === true ? 0 : 1),
      textCall: (text, offered, id) =>
        mode.textCall
          ? mode.textCall(agent, text, offered, id, context)
          : defaultTextCall(text, offered, id),
      submit: (call, seenVersion) => {
        const result = mode.submit(agent, call, seenVersion, context);
        if (result.status === "accepted" && result.outcome === "answer") this.snapshot(agent);
        // A refused call can make others due (voting: an answer refused as a copy ends the wait
        // for first answers); schedule once the round has reacted to the refusal.
        else if (result.status !== "accepted") queueMicrotask(() => this.schedule());
        return result;
      },
    };
  }

  /**
   * The judge of `agent`'s tie round: the tie round's tools and rules (`./tie-break.ts`). A fresh
   * answer's round keeps the answer set it opened with (no update shows the others' answers).
   */
  private tieJudgeFor(agent: AgentState, opened: AnswerSnapshot): RoundJudge {
    const judge = this.judgeFor(agent);
    const { context } = this.options;
    const fresh = opened.answers.length === 0;
    return {
      ...judge,
      workflowTools: () => this.tie.workflowTools(),
      snapshot: () => (fresh ? opened : judge.snapshot()),
      labelsSince: (version) => (fresh ? [] : judge.labelsSince(version)),
      submit: (call, seenVersion) => {
        const result = this.tie.submit(agent, call, seenVersion, context);
        if (result.status === "accepted" && result.outcome === "answer") this.snapshot(agent);
        return result;
      },
    };
  }

  /**
   * Snapshots the author's workspace in the same synchronous step that accepted its answer, so
   * the copy is queued before any other agent's next view refresh (docs/tools.md "Workspaces").
   * Coordination ends only after the copy and its `workspace-snapshot` event.
   */
  private snapshot(agent: AgentState): void {
    const hooks = agent.agent.workspace;
    const label = agent.answer?.label;
    if (hooks?.snapshot === undefined || label === undefined) return;
    const { emitter } = this.options.context;
    const pending = hooks.snapshot(label).then(
      (report) => {
        if (report)
          emitter.emit({ type: "workspace-snapshot", agentId: agent.agent.id, label, ...report });
      },
      () => undefined,
    );
    this.active.add(pending);
    void pending.finally(() => this.active.delete(pending));
  }
}
