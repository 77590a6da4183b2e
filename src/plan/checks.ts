/**
 * The structural check a plan passes before it is accepted: from an agent (its problems come
 * back as a tool error from the planning mode's `submit_plan`) or from a `plan.json` read from
 * disk (src/store/plans.ts). Includes the dependency-cycle search. Pure: no I/O.
 */
import {
  MAX_PLAN_TASKS,
  TASK_ID_PATTERN,
  type PlanTargets,
  type PlanTask,
} from "../events/index.js";

/** How far a plan's task count may be from `--plan-steps N`: 20 % of N, at least 1. */
export function stepTolerance(steps: number): number {
  return Math.max(1, Math.round(steps * 0.2));
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
