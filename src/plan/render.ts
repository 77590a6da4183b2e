/**
 * A plan as Markdown: the task lines agents and `coord plan` read, and the whole plan (tasks,
 * requirements, design decisions) that is the planning mode's answer. Pure: no I/O.
 */
import type { PlanDraft, PlanTask, TaskStatus } from "../events/index.js";
import { chunksOf } from "./schedule.js";

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
