/**
 * Planning mode's answer, `submit_plan(tasks, requirements, design_decisions)`: its tool schema,
 * and the check that turns the model's arguments into a {@link PlanDraft} or says, in one tool
 * error, everything that is wrong with it (the shape, then the plan's structure:
 * `checkPlanTasks` in src/plan/checks.ts). Pure.
 */
import type { ToolSpec } from "../../backends/index.js";
import {
  MAX_PLAN_TASKS,
  type PlanDraft,
  type PlanTargets,
  type PlanTask,
  TaskPriority,
} from "../../events/index.js";
import { checkPlanTasks } from "../../plan/index.js";
import { SUBMIT_PLAN } from "../workflow-tools.js";

/** The `submit_plan` tool; `chunk` is required when `--plan-chunks` is given. */
export function submitPlanTool(targets: PlanTargets): ToolSpec {
  const task: Record<string, unknown> = {
    type: "object",
    properties: {
      id: { type: "string", description: "Unique id, e.g. T1." },
      description: { type: "string", description: "What to do, standing on its own." },
      depends_on: {
        type: "array",
        items: { type: "string" },
        description: "Ids of the tasks that must be done first.",
      },
      priority: { type: "string", enum: [...TaskPriority.options] },
      verification: {
        type: "string",
        description: "How to check it is done: a command to run, a file to read back.",
      },
      chunk: {
        type: "integer",
        minimum: 1,
        ...(targets.chunks !== undefined ? { maximum: targets.chunks } : {}),
        description:
          targets.chunks !== undefined
            ? `Which of the ${targets.chunks} chunks (1 to ${targets.chunks}) it belongs to; chunks run in order.`
            : "Which chunk it belongs to (default 1); chunks run in order.",
      },
    },
    required: [
      "id",
      "description",
      "depends_on",
      "priority",
      "verification",
      ...(targets.chunks !== undefined ? ["chunk"] : []),
    ],
    additionalProperties: false,
  };
  return {
    name: SUBMIT_PLAN,
    description:
      "Submit your complete plan for the task. It replaces your previous plan. Nothing is executed now.",
    inputSchema: {
      type: "object",
      properties: {
        tasks: { type: "array", items: task, minItems: 1, maxItems: MAX_PLAN_TASKS },
        requirements: {
          type: "string",
          description: "Markdown: what the result must do (user stories, acceptance criteria).",
        },
        design_decisions: {
          type: "string",
          description: "Markdown: the choices made (structure, tools, formats) and why.",
        },
      },
      required: ["tasks", "requirements", "design_decisions"],
      additionalProperties: false,
    },
  };
}

/** A checked plan, or the one tool error listing its problems. */
export type PlanSubmission = { ok: true; draft: PlanDraft } | { ok: false; message: string };

/** Problems listed in one refusal at most (the rest are summarized). */
const MAX_PROBLEMS_SHOWN = 12;

/**
 * Checks `submit_plan`'s arguments: their shape (lenient where a default is obvious: no
 * `depends_on` is none, no `priority` is medium, no `chunk` is 1 unless `--plan-chunks` asks for
 * chunks), then {@link checkPlanTasks}. Every task comes back `pending`.
 */
export function checkSubmission(input: unknown, targets: PlanTargets): PlanSubmission {
  const problems: string[] = [];
  const record = isRecord(input) ? input : {};
  const rawTasks = record.tasks;
  const tasks: PlanTask[] = [];
  if (!Array.isArray(rawTasks)) {
    problems.push('"tasks" must be an array of task objects');
  } else {
    for (const [index, raw] of rawTasks.entries()) {
      const parsed = parseTask(raw, index, targets, problems);
      if (parsed) tasks.push(parsed);
    }
  }
  const requirements = textField(record, "requirements", problems);
  const designDecisions = textField(record, "design_decisions", problems);
  if (problems.length === 0) problems.push(...checkPlanTasks(tasks, targets));
  if (problems.length > 0) {
    const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
    const more = problems.length - shown.length;
    return {
      ok: false,
      message: `The plan was not accepted: ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}. Fix it and call ${SUBMIT_PLAN} again with the whole plan.`,
    };
  }
  return { ok: true, draft: { tasks, requirements, designDecisions } };
}

function parseTask(
  raw: unknown,
  index: number,
  targets: PlanTargets,
  problems: string[],
): PlanTask | undefined {
  const where = `tasks[${index}]`;
  if (!isRecord(raw)) {
    problems.push(`${where} is not an object`);
    return undefined;
  }
  const id =
    typeof raw.id === "string" ? raw.id.trim() : typeof raw.id === "number" ? `${raw.id}` : "";
  const label = id === "" ? where : `task ${id}`;
  if (id === "") problems.push(`${where} has no "id"`);
  const description = typeof raw.description === "string" ? raw.description.trim() : "";
  const verification = typeof raw.verification === "string" ? raw.verification.trim() : "";
  let dependsOn: string[] = [];
  if (raw.depends_on !== undefined && raw.depends_on !== null) {
    if (Array.isArray(raw.depends_on) && raw.depends_on.every((item) => typeof item === "string"))
      dependsOn = raw.depends_on.map((item) => item.trim());
    else problems.push(`${label}: "depends_on" must be an array of task ids`);
  }
  const priorityParse = TaskPriority.safeParse(raw.priority ?? "medium");
  if (!priorityParse.success) problems.push(`${label}: "priority" must be high, medium or low`);
  let chunk = 1;
  if (raw.chunk === undefined || raw.chunk === null) {
    if (targets.chunks !== undefined)
      problems.push(
        `${label} has no "chunk" (--plan-chunks ${targets.chunks}: 1 to ${targets.chunks})`,
      );
  } else if (typeof raw.chunk === "number" && Number.isInteger(raw.chunk) && raw.chunk >= 1) {
    chunk = raw.chunk;
  } else {
    problems.push(`${label}: "chunk" must be a whole number from 1`);
  }
  return {
    id,
    description,
    status: "pending",
    depends_on: dependsOn,
    priority: priorityParse.success ? priorityParse.data : "medium",
    verification,
    chunk,
  };
}

function textField(record: Record<string, unknown>, key: string, problems: string[]): string {
  const value = record[key];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") {
    problems.push(`"${key}" must be Markdown text`);
    return "";
  }
  return value.trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
