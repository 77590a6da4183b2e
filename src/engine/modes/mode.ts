/**
 * The coordination-mode interface (docs/coordination.md "Voting mode", "Other modes"): everything
 * that differs between voting, quick, single agent, decomposition and the modes still to come
 * (planning) is a method here; the coordinator (`../coordinator.ts`), the round (`../agent-round.ts`)
 * and the run (`../run.ts`) ask the mode instead of testing its name.
 *
 * A mode is a plain object; `./index.ts` is the registry that maps a mode name to it.
 */
import type { ToolSpec } from "../../backends/index.js";
import type { Clock } from "../../clock.js";
import type { EventOf } from "../../events/index.js";
import type { OrchestratorConfig } from "../../config/index.js";
import type { SubmitResult } from "../agent-round.js";
import type { Emitter } from "../emitter.js";
import type { PresentationPlan } from "../presentation.js";
import type { HistoryTurn } from "../prompts.js";
import type { AgentState, Team } from "../team.js";
import type { WorkflowCall, WorkflowToolName } from "../workflow-tools.js";
import type { TextCall } from "../text-protocol.js";
import type { LocalTool } from "../../tools/index.js";
import type { ExecutionSettings, HumanChannel, PlanningSettings } from "./plan-settings.js";

/** Orchestrator settings the modes read (the config schema's `orchestrator` keys). */
export type ModeSettings = Pick<
  OrchestratorConfig,
  | "voting_sensitivity"
  | "answer_novelty_requirement"
  | "max_new_answers_per_agent"
  | "max_new_answers_global"
  | "defer_voting_until_all_answered"
  | "skip_final_presentation"
> & {
  /** `orchestrator.presentation`; absent: `keep_conclusion`. */
  presentation?: OrchestratorConfig["presentation"] | undefined;
  /** `orchestrator.tie_break` (voting mode, `../tie-break.ts`); absent: `fresh_answers`. */
  tie_break?: OrchestratorConfig["tie_break"] | undefined;
  /** `orchestrator.unanimous` (voting mode, `../unanimous.ts`); absent: `vote`. */
  unanimous?: OrchestratorConfig["unanimous"] | undefined;
  /** Real id of the agent that presents (quick, decomposition); default per mode. */
  presenter_agent?: string | undefined;
  /** Planning mode: `--plan-depth`, `--plan-steps`, `--plan-chunks`, `--broadcast`. */
  planning?: PlanningSettings | undefined;
  /** Execution mode: the plan and the chunk to execute. */
  execution?: ExecutionSettings | undefined;
};

/** What a mode may read and change while judging: the team, the settings and the stream. */
export interface ModeContext {
  team: Team;
  settings: ModeSettings;
  emitter: Emitter;
  clock: Clock;
  /** Where the user answers questions (`--broadcast human`); absent: nobody answers. */
  human?: HumanChannel | undefined;
  /** The conversation the run answers (for modes whose tools make model calls). */
  conversation: Conversation;
}

/** The conversation the run answers. */
export interface Conversation {
  question: string;
  /** Earlier turns, oldest first. */
  history: readonly HistoryTurn[];
}

/** What a mode's pre-coordination phase works with. */
export interface PrepareContext extends ModeContext, Conversation {
  /** Aborted when the run is stopped (interrupt, timeout, shutdown). */
  signal: AbortSignal;
}

/** How coordination ended before the winner is chosen (the engine's view of `run-end.reason`). */
export type CoordinationEnd =
  "completed" | "failed" | "timeout" | "budget" | "interrupted" | "shutdown";

/** The presenter and why it was chosen (the `winner` event's `basis`). */
export interface WinnerChoice {
  presenter: AgentState;
  basis: EventOf<"winner">["basis"];
}

/** One coordination mode. Methods are called synchronously between awaits (no torn state). */
export interface CoordinationModeSpec {
  /** The `run-start.mode` this mode reports. */
  readonly name: EventOf<"run-start">["mode"];
  /** Names of the workflow tools that can end a round in this mode (for parsing and errors). */
  readonly workflowToolNames: readonly WorkflowToolName[];
  /** Workflow tools offered to `agent` now (caps and the answer set decide). */
  workflowTools(agent: AgentState, context: ModeContext): ToolSpec[];
  /** The system prompt of `agent`'s coordination round. */
  systemPrompt(agent: AgentState, context: ModeContext): string;
  /** Whether an idle live agent should start a round now. */
  isDue(agent: AgentState, context: ModeContext): boolean;
  /**
   * Validates and applies a workflow call in one synchronous step (emitting `answer`, `vote`,
   * `stop`, `votes-reset`, `vote-refused` as it goes).
   * @param seenVersion the answer-set version the agent's conversation shows.
   */
  submit(
    agent: AgentState,
    call: Exclude<WorkflowCall, { kind: "invalid" }>,
    seenVersion: number,
    context: ModeContext,
  ): SubmitResult;
  /** Nothing is running and nothing is due: true when coordination completed (else it failed). */
  isDone(live: readonly AgentState[], context: ModeContext): boolean;
  /**
   * Who presents; undefined when there is no answer to present. Must not change state: the
   * coordinator also asks it whether a winner could be chosen yet (the straggler rule).
   */
  chooseWinner(end: "completed" | "timeout", context: ModeContext): WinnerChoice | undefined;
  /**
   * True when a reply in plain text is heard at once by the text protocol, without a first
   * refusal (quick and single-agent modes: an answer is all they ask for). Default false.
   */
  readonly textAtOnce?: boolean;
  /**
   * Optional: the workflow call a reply in plain text stands for in this mode (planning: a plan
   * written as text). Default: the text protocol (`../text-protocol.ts`).
   */
  textCall?(
    agent: AgentState,
    text: string,
    offered: readonly ToolSpec[],
    id: string,
    context: ModeContext,
  ): TextCall | undefined;
  /** True when the winning answer is final as is (no presentation model call). */
  skipPresentation(choice: WinnerChoice, context: ModeContext): boolean;
  /**
   * Optional tools of the mode that run inside `agent`'s rounds, next to its own (planning: ask
   * the user or the team; execution: the plan tools). They may change the mode's state and emit
   * events; they do no I/O of their own.
   */
  roundTools?(agent: AgentState, context: ModeContext): LocalTool[];
  /**
   * Optional work before the first round (decomposition: assign the subtasks), emitting its own
   * events. Never throws for a model failure: it falls back and says so in a `warning` event.
   */
  prepare?(context: PrepareContext): Promise<void>;
  /**
   * Optional: the mode's own final presentation (decomposition: integrate every part). Default:
   * the winner's presentation of docs/coordination.md "Voting mode" step 7.
   */
  presentation?(
    choice: WinnerChoice,
    context: ModeContext,
    conversation: Conversation,
  ): PresentationPlan;
}
