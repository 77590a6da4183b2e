/**
 * The engine's entry point: `runCoordination(options)` returns the run as an
 * `AsyncIterable<CoordEvent>` (docs/architecture.md "One stream"). It never writes
 * to stdout, files or the network; backends, clock and signal are passed in (CONTRIBUTING.md
 * rule 1).
 *
 * Implements docs/coordination.md: the coordination modes (`./modes/`), the orchestrator timeout,
 * the winner and the final presentation.
 */
import { setMaxListeners } from "node:events";
import type { Clock } from "../clock.js";
import type { CoordEvent, RunEndReason, StopReason } from "../events/index.js";
import type { LocalTool, NoticeSource } from "../tools/index.js";
import { BudgetMeter, effectiveBudget, type RunBudget } from "./budget.js";
import { Coordinator } from "./coordinator.js";
import { createEmitter, type Emitter } from "./emitter.js";
import {
  COORDINATION_MODES,
  type CoordinationEnd,
  type EngineModeName,
  type ModeContext,
  type ModeSettings,
  type PrepareContext,
} from "./modes/index.js";
import { assignPersonas, type PersonaOptions } from "./personas.js";
import type { HumanChannel } from "./modes/plan-settings.js";
import { keepsConclusion, present, winnerGroups } from "./presentation.js";
import type { HistoryTurn } from "./prompts.js";
import { stopDetailOf, stopReasonOf } from "./stop-reason.js";
import { Team, type EngineAgent } from "./team.js";
import type { LimitReached } from "./budget.js";
import { failureMessage, noteDegradation } from "./degradation.js";

export type { EngineAgent, HistoryTurn, PersonaOptions, RunBudget };

/** Options of {@link runCoordination}. */
export interface RunCoordinationOptions {
  runId: string;
  question: string;
  /** Earlier turns of the conversation, oldest first. */
  history?: readonly HistoryTurn[];
  /** The team, in config order; non-empty. */
  agents: readonly EngineAgent[];
  /**
   * The coordination mode (`./modes/index.ts`): `voting`, `quick`, `single`, `decomposition`,
   * `planning` (needs `settings.planning`), `execution` (needs `settings.execution`).
   */
  mode: EngineModeName;
  settings: ModeSettings;
  /** Whole coordination (ms); on expiry the best answer so far is presented. */
  orchestratorTimeoutMs: number;
  /**
   * The straggler rule (ms): once every other agent is done and a winner could be chosen, an
   * agent still working is cut after this long (event `straggler-cut`). Undefined: no rule.
   */
  stragglerTimeoutMs?: number | undefined;
  clock: Clock;
  /**
   * Stops the run from outside. The run ends with the reason the abort carries (see
   * `./stop-reason.ts`: `RunStopped`, a `TimeoutError`), else `interrupted`.
   */
  signal?: AbortSignal;
  /** Tools every agent may use inside its rounds, besides its own `EngineAgent.tools`. */
  localTools?: readonly LocalTool[];
  /**
   * Where the user answers the agents' questions (planning with `--broadcast human`); without it
   * a question to the user is refused as a tool error.
   */
  human?: HumanChannel | undefined;
  /** Persona generation before the first round (`--personas`); none when absent. */
  personas?: PersonaOptions | undefined;
  /**
   * Runner-side facts for the log (an MCP server that failed or died, a snapshot that could not
   * be copied): each notice becomes a `warning` event, from `run-start` until `run-end`.
   */
  notices?: NoticeSource;
  /**
   * True when context paths with write permission exist: the final presentation then always
   * runs, since only the presenter may write there (docs/coordination.md "Voting mode" step 7
   * and "Other modes").
   */
  presenterWrites?: boolean;
  /**
   * The run budget (`./budget.ts`, docs/real-models.md "The run budget"): absent call limits default to
   * `40 × agents + 10` for the run and 40 per agent, so every run is bounded.
   */
  budget?: RunBudget | undefined;
}

/**
 * Runs one coordination. The iterable ends after a `run-end` event; it never throws for agent or
 * provider failures (those are events). It throws only on an internal error.
 */
export function runCoordination(options: RunCoordinationOptions): AsyncIterable<CoordEvent> {
  const emitter = createEmitter(options.runId, options.clock);
  void execute(options, emitter).then(
    () => emitter.close(),
    (error: unknown) => emitter.fail(error),
  );
  return emitter.events;
}

/** `run-end.error` of a run stopped from outside, by stop reason. */
const STOPPED_MESSAGE: Record<StopReason, string> = {
  interrupted: "interrupted by the user",
  shutdown: "the server is shutting down",
  timeout: "stopped by the caller's time limit",
};

async function execute(options: RunCoordinationOptions, baseEmitter: Emitter): Promise<void> {
  const { clock } = options;
  // Every event passes the budget meter and the degradation record (docs/real-models.md).
  const meter = new BudgetMeter(effectiveBudget(options.budget, options.agents.length));
  const degraded: string[] = [];
  let onLimit: (reached: LimitReached) => void = () => undefined;
  const emitter: Emitter = {
    ...baseEmitter,
    emit(body) {
      const event = baseEmitter.emit(body);
      noteDegradation(body, degraded);
      for (const reached of meter.record(body)) {
        baseEmitter.emit(reached);
        noteDegradation(reached, degraded);
        onLimit(reached);
      }
      return event;
    },
  };
  const started = clock.now();
  const history = options.history ?? [];
  const mode = COORDINATION_MODES[options.mode];
  const team = new Team(options.agents);
  const context: ModeContext = {
    team,
    settings: options.settings,
    emitter,
    clock,
    human: options.human,
    conversation: { question: options.question, history },
  };
  emitter.emit({
    type: "run-start",
    question: options.question,
    mode: mode.name,
    agents: team.agents.map((agent) => ({
      id: agent.agent.id,
      anonId: agent.anonId,
      backend: agent.agent.backend.type,
      model: agent.agent.backend.model,
    })),
    historyTurns: history.filter((turn) => turn.role === "user").length,
  });
  const stopNotices = options.notices?.subscribe((notice) =>
    emitter.emit({
      type: "warning",
      ...(notice.agentId !== undefined ? { agentId: notice.agentId } : {}),
      source: notice.source,
      message: notice.message,
    }),
  );
  const runEnd = (reason: RunEndReason, error?: string) => {
    stopNotices?.();
    emitter.emit({
      type: "run-end",
      reason,
      durationMs: clock.now() - started,
      ...(error ? { error } : {}),
      ...(degraded.length > 0 ? { degraded: [...new Set(degraded)] } : {}),
    });
  };

  const rounds = new AbortController();
  // Every agent's model call listens on this signal: a team of more than ten is not a leak
  // (Node would otherwise print a warning into the middle of the terminal UI).
  setMaxListeners(0, rounds.signal);
  const timer = new AbortController();
  const coordinator = new Coordinator({
    mode,
    context,
    question: options.question,
    history,
    localTools: options.localTools ?? [],
    signal: rounds.signal,
    stragglerTimeoutMs: options.stragglerTimeoutMs,
  });
  const stopWith = (reason: CoordinationEnd) => {
    coordinator.stop(reason);
    rounds.abort(new DOMException(reason, "AbortError"));
  };
  // A stop from outside ends the run at once with its reason; the orchestrator's own timeout
  // below still presents the best answer so far.
  let stopped: StopReason | undefined;
  const onStop = () => {
    stopped = stopReasonOf(options.signal!);
    stopWith(stopped);
  };
  if (options.signal?.aborted) onStop();
  options.signal?.addEventListener("abort", onStop, { once: true });
  clock.sleep(options.orchestratorTimeoutMs, timer.signal).then(
    () => {
      degraded.push(
        `the orchestrator timeout (${Math.round(options.orchestratorTimeoutMs / 1000)} s, timeout_settings.orchestrator_timeout_seconds) ended coordination`,
      );
      stopWith("timeout");
    },
    () => undefined,
  );
  onLimit = (reached) => {
    if (reached.scope === "run") stopWith("budget");
    else if (reached.agentId !== undefined) coordinator.removeAgent(reached.agentId);
  };

  let end: CoordinationEnd;
  try {
    // Before the first round: personas (any mode), then the mode's own phase (subtasks).
    const prepare: PrepareContext = {
      ...context,
      question: options.question,
      history,
      signal: rounds.signal,
    };
    if (options.personas !== undefined) await assignPersonas(options.personas, prepare);
    if (mode.prepare !== undefined && !rounds.signal.aborted) await mode.prepare(prepare);
    end = await coordinator.run();
  } finally {
    timer.abort();
    options.signal?.removeEventListener("abort", onStop);
  }

  if (stopped !== undefined)
    return void runEnd(stopped, stopDetailOf(options.signal!) ?? STOPPED_MESSAGE[stopped]);
  // No accepted answer is thrown away (docs/real-models.md): a run that failed, ran out of budget
  // or time after answers were accepted presents the best of them.
  const choice = mode.chooseWinner(end === "completed" ? "completed" : "timeout", context);
  if (choice === undefined && end === "failed") return void runEnd("failed", failureMessage(team));
  if (choice === undefined && end === "budget") {
    return void runEnd("failed", "the run's budget was reached before any answer was accepted");
  }
  if (choice === undefined && end === "completed") {
    // Every agent stopped (decomposition) without anyone giving an answer.
    return void runEnd("failed", "coordination ended without any answer; see the stop events");
  }
  if (choice === undefined) {
    const seconds = Math.round(options.orchestratorTimeoutMs / 1000);
    return void runEnd("timeout", `no answer before the orchestrator timeout (${seconds} s)`);
  }
  const { presenter } = choice;
  const basis = end === "completed" || end === "timeout" ? choice.basis : "partial";
  const tally = team.tally();
  emitter.emit({
    type: "winner",
    agentId: presenter.agent.id,
    anonId: presenter.anonId,
    label: presenter.answer?.label ?? team.visibleAnswers()[0]?.label ?? "",
    // The winning conclusion group's votes (docs/coordination.md "How the winner is chosen").
    votes: tally?.winner === presenter ? tally.votes : (tally?.byAgentId[presenter.agent.id] ?? 0),
    tally: tally?.byAgentId ?? {},
    tieBroken: basis === "votes" && (tally?.tieBroken ?? false),
    basis,
    ...winnerGroups(tally, basis),
  });

  // The presentation runs after a timeout too (the best answer so far), but not after a stop.
  const presentation = new AbortController();
  const onPresentationStop = () =>
    presentation.abort(new DOMException(stopReasonOf(options.signal!), "AbortError"));
  if (options.signal?.aborted) onPresentationStop();
  options.signal?.addEventListener("abort", onPresentationStop, { once: true });
  try {
    const final = await present({
      team,
      presenter,
      question: options.question,
      history,
      // After the budget ran out, or when the presenter was removed, the answer is shown as is.
      skip:
        (mode.skipPresentation(choice, context) && options.presenterWrites !== true) ||
        end === "budget" ||
        presenter.status === "removed",
      plan: mode.presentation?.(choice, context, { question: options.question, history }),
      keepConclusion: keepsConclusion(options.settings, basis),
      localTools: options.localTools ?? [],
      emitter,
      clock,
      signal: presentation.signal,
    });
    if (final === undefined) {
      const reason = stopReasonOf(options.signal!);
      return void runEnd(reason, stopDetailOf(options.signal!) ?? STOPPED_MESSAGE[reason]);
    }
  } finally {
    options.signal?.removeEventListener("abort", onPresentationStop);
  }
  runEnd("completed");
}
