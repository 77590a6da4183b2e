/**
 * A plan's schedule: which statuses count as done, its chunks in order, the tasks that may start
 * now, and the counts by status. Used by the execution mode, the plan state the displays read and
 * `coord plan`. Pure: no I/O.
 */
import type { PlanTask, TaskStatus } from "../events/index.js";

/** True for a status that counts as done (the task's dependents may start). */
export function isDone(status: TaskStatus): boolean {
  return status === "completed" || status === "verified";
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
