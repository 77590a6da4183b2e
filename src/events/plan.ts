/**
 * The plan format (spec §2 "Plan", issue 11; docs/planning.md): a task list made by the planning
 * mode (`--plan`, `--plan-and-execute`) and executed chunk by chunk (`--execute-plan`). The task
 * object is `plan.json`'s, the same in the events that carry tasks (`plan`, `plan-execution`,
 * `task-added`), in snake_case as MassGen writes it.
 *
 * {@link checkPlanTasks} is the one structural check a plan passes before it is accepted: from
 * an agent (its problems come back as a tool error) or from a `plan.json` read from disk.
 * Pure: no I/O.
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
  /** `--plan-steps N`: the task count must be within {@link stepTolerance} of N. */
  steps?: number | undefined;
  /** `--plan-chunks N`: every task's chunk is 1…N and no chunk is empty. */
  chunks?: number | undefined;
}

/** How far a plan's task count may be from `--plan-steps N`: 20 % of N, at least 1. */
export function stepTolerance(steps: number): number {
  return Math.max(1, Math.round(steps * 0.2));
}

/** True for a status that counts as done (the task's dependents may start). */
export function isDone(status: TaskStatus): boolean {
  return status === "completed" || status === "verified";
}

/**
 * The structural problems of a task list, one sentence each (empty when it is valid): no tasks,
 * too many, an empty or malformed or duplicate id, an empty description or verification, a
 * dependency that does not exist or is the task itself, a cycle (named task by task), a task
 * depending on a task of a later chunk, and the targets (task count, chunk count, empty chunks).
 */
export function checkPlanTasks(tasks: readonly PlanTask[], targets: PlanTargets = {}): string[] {
  const problems: string[] = [];
  if (tasks.length === 0) return ["the plan has no tasks"];
  if (tasks.length > MAX_PLAN_TASKS)
    problems.push(`the plan has ${tasks.length} tasks; at most ${MAX_PLAN_TASKS} are allowed`);
  const byId = new Map<string, PlanTask>();
  for (const [index, task] of tasks.entries()) {
    if (!TASK_ID_PATTERN.test(task.id)) {
      problems.push(
        `task ${index + 1} has id ${JSON.stringify(task.id)}: use letters, digits, _ - . (at most 40), e.g. T${index + 1}`,
      );
    } else if (byId.has(task.id)) {
      problems.push(`task id ${task.id} is used twice: ids must be unique`);
    }
    byId.set(task.id, task);
    if (task.description.trim() === "") problems.push(`task ${task.id} has no description`);
    if (task.verification.trim() === "")
      problems.push(`task ${task.id} says nothing in verification (how to check it is done)`);
  }
  for (const task of tasks) {
    for (const dependency of task.depends_on) {
      const target = byId.get(dependency);
      if (dependency === task.id) problems.push(`task ${task.id} depends on itself`);
      else if (target === undefined)
        problems.push(`task ${task.id} depends on ${dependency}, which is not a task of the plan`);
      else if (target.chunk > task.chunk)
        problems.push(
          `task ${task.id} (chunk ${task.chunk}) depends on ${dependency} of a later chunk (${target.chunk}): chunks run in order`,
        );
    }
  }
  const cycle = findCycle(tasks);
  if (cycle !== undefined) problems.push(`the dependencies form a cycle: ${cycle.join(" → ")}`);
  if (targets.steps !== undefined) {
    const tolerance = stepTolerance(targets.steps);
    if (Math.abs(tasks.length - targets.steps) > tolerance)
      problems.push(
        `the plan has ${tasks.length} tasks; --plan-steps asks for ${targets.steps} (${targets.steps - tolerance} to ${targets.steps + tolerance})`,
      );
  }
  if (targets.chunks !== undefined) {
    const outside = tasks.filter((task) => task.chunk > targets.chunks!);
    if (outside.length > 0)
      problems.push(
        `tasks ${outside.map((task) => task.id).join(", ")} have a chunk above ${targets.chunks} (--plan-chunks ${targets.chunks}: chunks 1 to ${targets.chunks})`,
      );
    const used = new Set(tasks.map((task) => task.chunk));
    const empty = Array.from({ length: targets.chunks }, (_, index) => index + 1).filter(
      (chunk) => !used.has(chunk),
    );
    if (empty.length > 0)
      problems.push(
        `chunk${empty.length === 1 ? "" : "s"} ${empty.join(", ")} ha${empty.length === 1 ? "s" : "ve"} no task (--plan-chunks ${targets.chunks}: give every chunk at least one)`,
      );
  }
  return problems;
}

/** One dependency cycle as ids (`[T1, T3, T1]`), or undefined. Unknown ids are ignored. */
export function findCycle(tasks: readonly PlanTask[]): string[] | undefined {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (id: string): string[] | undefined => {
    const mark = state.get(id);
    if (mark === "done") return undefined;
    if (mark === "visiting") return [...path.slice(path.indexOf(id)), id];
    state.set(id, "visiting");
    path.push(id);
    for (const dependency of byId.get(id)?.depends_on ?? []) {
      if (!byId.has(dependency) || dependency === id) continue;
      const found = visit(dependency);
      if (found) return found;
    }
    path.pop();
    state.set(id, "done");
    return undefined;
  };
  for (const task of tasks) {
    const found = visit(task.id);
    if (found) return found.reverse();
  }
  return undefined;
}

/** The chunk numbers of a plan, ascending, without gaps removed (e.g. `[1, 2]`). */
export function chunksOf(tasks: readonly PlanTask[]): number[] {
  return [...new Set(tasks.map((task) => task.chunk))].sort((a, b) => a - b);
}

/**
 * Tasks of `chunk` that may start now: pending, every dependency done.
 * @param statuses the current status by id (tasks not in it keep their own `status`).
 */
export function readyTasks(
  tasks: readonly PlanTask[],
  chunk: number,
  statuses: ReadonlyMap<string, TaskStatus> = new Map(),
): PlanTask[] {
  const statusOf = (task: PlanTask) => statuses.get(task.id) ?? task.status;
  const byId = new Map(tasks.map((task) => [task.id, task]));
  return tasks.filter(
    (task) =>
      task.chunk === chunk &&
      statusOf(task) === "pending" &&
      task.depends_on.every((id) => {
        const dependency = byId.get(id);
        return dependency !== undefined && isDone(statusOf(dependency));
      }),
  );
}

/** Counts of a plan's tasks by status. */
export function countStatuses(tasks: readonly PlanTask[]): Record<TaskStatus, number> {
  const counts: Record<TaskStatus, number> = {
    pending: 0,
    in_progress: 0,
    completed: 0,
    verified: 0,
  };
  for (const task of tasks) counts[task.status]++;
  return counts;
}

/** The task list as Markdown lines: `- [ ] T1 (chunk 1, high; after T0): description — verify: …`. */
export function renderTaskLines(tasks: readonly PlanTask[]): string[] {
  const box: Record<TaskStatus, string> = {
    pending: "[ ]",
    in_progress: "[~]",
    completed: "[x]",
    verified: "[v]",
  };
  return tasks.map((task) => {
    const after = task.depends_on.length > 0 ? `; after ${task.depends_on.join(", ")}` : "";
    return `- ${box[task.status]} ${task.id} (chunk ${task.chunk}, ${task.priority}${after}): ${task.description} — verify: ${task.verification}`;
  });
}

/** A plan as one Markdown text: what agents read of each other's plans, and the final answer. */
export function renderPlan(draft: PlanDraft): string {
  const chunks = chunksOf(draft.tasks);
  return [
    `## Tasks (${draft.tasks.length}${chunks.length > 1 ? ` in ${chunks.length} chunks` : ""})`,
    "",
    ...renderTaskLines(draft.tasks),
    "",
    "## Requirements",
    "",
    draft.requirements.trim() || "(none given)",
    "",
    "## Design decisions",
    "",
    draft.designDecisions.trim() || "(none given)",
  ].join("\n");
}
