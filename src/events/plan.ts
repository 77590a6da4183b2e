/**
 * The plan format (spec §2 "Plan"; docs/planning.md): a task list made by the planning mode
 * (`--plan`, `--plan-and-execute`) and executed chunk by chunk (`--execute-plan`). The task
 * object is `plan.json`'s, the same in the events that carry tasks (`plan`, `plan-execution`,
 * `task-added`), in snake_case as MassGen writes it.
 *
 * Types and schema only: the checks a plan passes, its schedule and its Markdown form are in
 * src/plan/.
 */
import { z } from "zod";

/** A task's progress: `pending` → `in_progress` → `completed` (done) → `verified` (checked). */
export const TaskStatus = z.enum(["pending", "in_progress", "completed", "verified"]);
export type TaskStatus = z.infer<typeof TaskStatus>;

export const TaskPriority = z.enum(["high", "medium", "low"]);
export type TaskPriority = z.infer<typeof TaskPriority>;

/** Allowed task ids: letters, digits, `_`, `-`, `.`; at most 40 characters. */
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/;

/** Most tasks a plan may hold (a `deep` plan is ≈100+; this bounds a runaway model). */
export const MAX_PLAN_TASKS = 500;

/** One task of a plan (`plan.json` `tasks[]`). */
export const PlanTask = z.object({
  /** Unique within the plan, e.g. `T1`. */
  id: z.string(),
  description: z.string(),
  status: TaskStatus,
  /** Ids of the tasks that must be done (completed or verified) before this one starts. */
  depends_on: z.array(z.string()),
  priority: TaskPriority,
  /** How to check the task is done (a command to run, a file to read back). */
  verification: z.string(),
  /** 1-based chunk: execution runs the chunks one after another, in order. */
  chunk: z.number().int().positive(),
  /** What the executing agent said when it last changed the status. */
  notes: z.string().optional(),
  /** Present on a task added during execution: why it was added. */
  added_reason: z.string().optional(),
});
export type PlanTask = z.infer<typeof PlanTask>;

/** What the team agrees on when planning: the tasks, the requirements, the design decisions. */
export interface PlanDraft {
  tasks: PlanTask[];
  /** Markdown: what the result must do (requirements.md). */
  requirements: string;
  /** Markdown: the choices made and why (design_decisions.md). */
  designDecisions: string;
}

/** Targets a plan is checked against (`--plan-steps`, `--plan-chunks`). */
export interface PlanTargets {
  /** `--plan-steps N`: the task count must be within `stepTolerance(N)` of N (src/plan/). */
  steps?: number | undefined;
  /** `--plan-chunks N`: every task's chunk is 1…N and no chunk is empty. */
  chunks?: number | undefined;
}
