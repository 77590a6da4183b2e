/**
 * The engine's entry point: `runCoordination(options)` returns the run as an
 * `AsyncIterable<CoordEvent>` (ARCHITECTURE.md "One idea holds it together"). It never writes
 * to stdout, files or the network; backends, clock and signal are passed in (STYLE.md rule 1).
 *
 * Implements COORDINATION.md: voting mode (default), single agent, quick; the orchestrator
 * timeout; the winner; the final presentation.
 */
import { setMaxListeners } from "node:events";
import type { Clock } from "../clock.js";
import type { CoordEvent } from "../events/events.js";
import type { LocalTool } from "../tools/tool.js";
import { Coordinator, type CoordinationEnd, type CoordinatorSettings } from "./coordinator.js";
import { createEmitter, type Emitter } from "./emitter.js";
import { present } from "./presentation.js";
import type { HistoryTurn } from "./prompts.js";
import { Team, type AgentState, type EngineAgent } from "./team.js";

export type { EngineAgent, HistoryTurn };

/** Options of {@link runCoordination}. */
export interface RunCoordinationOptions {
  runId: string;
  question: string;
  /** Earlier turns of the conversation, oldest first. */
  history?: readonly HistoryTurn[];
  /** The team, in config order; non-empty. */
  agents: readonly EngineAgent[];
  /**
   * `voting` (default protocol), `quick` (one answer each, presenter writes the final answer),
   * `single` (one agent's answer is final).
   */
  mode: "voting" | "quick" | "single";
  settings: CoordinatorSettings & {
    skip_final_presentation: boolean;
    /** Real id of the presenter in quick mode; default the first agent. */
    presenter_agent?: string | undefined;
  };
  /** Whole coordination (ms); on expiry the best answer so far is presented. */
  orchestratorTimeoutMs: number;
  clock: Clock;
  /** Interrupt (Ctrl+C): the run ends with reason `interrupted`. */
  signal?: AbortSignal;
  /** Tools that run inside rounds (files, MCP). */
  localTools?: readonly LocalTool[];
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

async function execute(options: RunCoordinationOptions, emitter: Emitter): Promise<void> {
  const { clock } = options;
  const started = clock.now();
  const history = options.history ?? [];
  const team = new Team(options.agents);
  emitter.emit({
    type: "run-start",
    question: options.question,
    mode: options.mode,
    agents: team.agents.map((agent) => ({
      id: agent.agent.id,
      anonId: agent.anonId,
      backend: agent.agent.backend.type,
      model: agent.agent.backend.model,
    })),
    historyTurns: history.filter((turn) => turn.role === "user").length,
  });
  const runEnd = (reason: "completed" | "failed" | "timeout" | "interrupted", error?: string) =>
    emitter.emit({
      type: "run-end",
      reason,
      durationMs: clock.now() - started,
      ...(error ? { error } : {}),
    });

  const rounds = new AbortController();
  // Every agent's model call listens on this signal: a team of more than ten is not a leak
  // (Node would otherwise print a warning into the middle of the terminal UI).
  setMaxListeners(0, rounds.signal);
  const timer = new AbortController();
  const coordinator = new Coordinator({
    team,
    mode: options.mode,
    question: options.question,
    history,
    settings: options.settings,
    localTools: options.localTools ?? [],
    emitter,
    clock,
    signal: rounds.signal,
  });
  const stopWith = (reason: CoordinationEnd) => {
    coordinator.stop(reason);
    rounds.abort(new DOMException(reason, "AbortError"));
  };
  const onInterrupt = () => stopWith("interrupted");
  if (options.signal?.aborted) onInterrupt();
  options.signal?.addEventListener("abort", onInterrupt, { once: true });
  clock.sleep(options.orchestratorTimeoutMs, timer.signal).then(
    () => stopWith("timeout"),
    () => undefined,
  );

  let end: CoordinationEnd;
  try {
    end = await coordinator.run();
  } finally {
    timer.abort();
    options.signal?.removeEventListener("abort", onInterrupt);
  }

  if (end === "interrupted") return void runEnd("interrupted", "interrupted by the user");
  if (end === "failed") {
    return void runEnd(
      "failed",
      "every agent failed; see the agent-error events for the providers' messages",
    );
  }
  const choice = chooseWinner(team, options, end);
  if (choice === undefined) {
    const seconds = Math.round(options.orchestratorTimeoutMs / 1000);
    return void runEnd("timeout", `no answer before the orchestrator timeout (${seconds} s)`);
  }
  const { presenter, basis } = choice;
  const tally = team.tally();
  emitter.emit({
    type: "winner",
    agentId: presenter.agent.id,
    anonId: presenter.anonId,
    label: presenter.answer?.label ?? team.visibleAnswers()[0]?.label ?? "",
    votes: tally?.byAgentId[presenter.agent.id] ?? 0,
    tally: tally?.byAgentId ?? {},
    tieBroken: basis === "votes" && (tally?.tieBroken ?? false),
    basis,
  });

  const presentation = new AbortController();
  const onPresentationInterrupt = () =>
    presentation.abort(new DOMException("interrupted", "AbortError"));
  if (options.signal?.aborted) onPresentationInterrupt();
  options.signal?.addEventListener("abort", onPresentationInterrupt, { once: true });
  const skip =
    basis === "single" ||
    (basis === "quick" && team.agents.length === 1) ||
    (basis !== "quick" && options.settings.skip_final_presentation);
  try {
    const final = await present({
      team,
      presenter,
      question: options.question,
      history,
      skip,
      emitter,
      clock,
      signal: presentation.signal,
    });
    if (final === undefined) return void runEnd("interrupted", "interrupted by the user");
  } finally {
    options.signal?.removeEventListener("abort", onPresentationInterrupt);
  }
  runEnd("completed");
}

/** Who presents, and why (the `winner` event's `basis`); undefined when there is no answer. */
function chooseWinner(
  team: Team,
  options: RunCoordinationOptions,
  end: "completed" | "timeout",
): { presenter: AgentState; basis: "votes" | "timeout" | "single" | "quick" } | undefined {
  const firstWithAnswer = team.agents.find((agent) => agent.answer !== undefined);
  if (firstWithAnswer === undefined) return undefined;
  if (options.mode === "single") return { presenter: firstWithAnswer, basis: "single" };
  if (options.mode === "quick") {
    const named = options.settings.presenter_agent
      ? team.byId(options.settings.presenter_agent)
      : undefined;
    const presenter = [named, ...team.agents].find(
      (agent) => agent !== undefined && agent.status !== "removed",
    );
    return { presenter: presenter ?? firstWithAnswer, basis: "quick" };
  }
  const tally = team.tally();
  if (end === "timeout") return { presenter: tally?.winner ?? firstWithAnswer, basis: "timeout" };
  return { presenter: tally?.winner ?? firstWithAnswer, basis: "votes" };
}
