/**
 * What the planning and execution modes are given (docs/planning.md): the flags of a
 * planning run (`--plan-depth`, `--plan-steps`, `--plan-chunks`, `--broadcast`), the plan and
 * chunk an execution run works on, and the channel through which the user answers questions.
 * The runner fills these in `ModeSettings.planning` / `ModeSettings.execution`.
 */
import type { PlanTask } from "../../events/index.js";

/** `--plan-depth`: how fine the tasks are. */
export const PLAN_DEPTHS = ["dynamic", "shallow", "medium", "deep"] as const;
export type PlanDepth = (typeof PLAN_DEPTHS)[number];

/** `--broadcast`: who an agent may ask while planning; `false`: nobody (fully autonomous). */
export type BroadcastMode = "human" | "agents" | false;

/** Settings of planning mode. */
export interface PlanningSettings {
  depth: PlanDepth;
  /** `--plan-steps N`: target task count. */
  steps?: number | undefined;
  /** `--plan-chunks N`: the tasks are grouped into exactly N chunks. */
  chunks?: number | undefined;
  broadcast: BroadcastMode;
}

/** Settings of execution mode: the plan and the chunk this run executes. */
export interface ExecutionSettings {
  /** The plan's id (`20260101_120000_123456`). */
  planId: string;
  /** The 1-based chunk to execute (a chunk number that occurs in `tasks`). */
  chunk: number;
  /** How many chunks the plan has. */
  chunks: number;
  /** Every task of the plan with its current status (earlier chunks done). */
  tasks: readonly PlanTask[];
  /** requirements.md. */
  requirements: string;
  /** design_decisions.md. */
  designDecisions: string;
}

/** A question an agent asks the user (`--broadcast human`). */
export interface HumanQuestion {
  /** `q1`, `q2`, … in the run. */
  questionId: string;
  /** Real id and anonymous id of the agent asking. */
  agentId: string;
  anonId: string;
  question: string;
}

/**
 * How the user answers the agents' questions: the terminal UI's input line, or a prompt on the
 * terminal (src/commands/human-channel.ts). The engine only awaits it.
 */
export interface HumanChannel {
  /**
   * Asks the user and resolves with the answer ("" when the user skipped it).
   * @throws the signal's reason when the run is stopped before the user answered.
   */
  ask(question: HumanQuestion, signal: AbortSignal): Promise<string>;
}
