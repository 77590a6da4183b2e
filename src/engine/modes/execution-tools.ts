/**
 * Execution mode's plan tools (docs/planning.md "Executing"): each agent keeps
 * its own copy of the plan ({@link TaskProgress}) and works through the chunk with
 *
 * - `get_task_plan()`: every task with its status;
 * - `get_ready_tasks()`: the chunk's tasks it may start now (pending, dependencies done);
 * - `update_task_status(task_id, status, notes)`: `in_progress`, `completed`, `verified`, or back
 *   to `pending` (a task it cannot do); a task starts only once its dependencies are done, is
 *   verified only once completed, and belongs to the chunk being executed;
 * - `add_task(description, verification, depends_on, priority, reason)`: a task the work needs
 *   that the plan lacks, added to the chunk with the reason.
 *
 * Each change is an event (`task-status`, `task-added`); a refused call is a tool error saying
 * what to do instead. No I/O.
 */
import { type PlanTask, TaskPriority, TaskStatus } from "../../events/index.js";
import { isDone, readyTasks, renderTaskLines } from "../../plan/index.js";
import type { LocalTool } from "../../tools/index.js";
import type { ModeContext } from "./mode.js";
import type { ExecutionSettings } from "./plan-settings.js";
import type { AgentState, TaskProgress } from "../team.js";

export const EXECUTION_TOOL_NAMES = [
  "get_task_plan",
  "get_ready_tasks",
  "update_task_status",
  "add_task",
] as const;

/** A fresh copy of the plan for one agent. */
export function newProgress(execution: ExecutionSettings): TaskProgress {
  return { tasks: execution.tasks.map((task) => ({ ...task })), added: new Set() };
}

/** The agent's progress (created on first use). */
export function progressOf(agent: AgentState, execution: ExecutionSettings): TaskProgress {
  agent.progress ??= newProgress(execution);
  return agent.progress;
}

/**
 * Why the agent may not give its answer yet (a task of the chunk in progress, completed but not
 * verified, or pending without notes saying why it was not done), or undefined.
 */
export function unfinishedWork(progress: TaskProgress, chunk: number): string | undefined {
  const mine = progress.tasks.filter((task) => task.chunk === chunk);
  const running = mine.filter((task) => task.status === "in_progress").map((task) => task.id);
  const unchecked = mine.filter((task) => task.status === "completed").map((task) => task.id);
  const untouched = mine
    .filter((task) => task.status === "pending" && (task.notes ?? "").trim() === "")
    .map((task) => task.id);
  const problems = [
    running.length > 0
      ? `${running.join(", ")} ${running.length === 1 ? "is" : "are"} still in progress (finish ${running.length === 1 ? "it" : "them"}, or set ${running.length === 1 ? "it" : "them"} back to pending and say why)`
      : "",
    unchecked.length > 0
      ? `${unchecked.join(", ")} ${unchecked.length === 1 ? "is" : "are"} completed but not verified (check ${unchecked.length === 1 ? "it" : "them"} as the verification says, then set verified)`
      : "",
    untouched.length > 0
      ? `${untouched.join(", ")} ${untouched.length === 1 ? "is" : "are"} not done (do ${untouched.length === 1 ? "it" : "them"}, or set ${untouched.length === 1 ? "it" : "them"} to pending with notes saying why you cannot)`
      : "",
  ].filter((problem) => problem !== "");
  return problems.length > 0 ? `Not yet: ${problems.join("; ")}.` : undefined;
}

/** The plan tools of one agent. */
export function executionTools(agent: AgentState, context: ModeContext): LocalTool[] {
  const execution = context.settings.execution;
  if (execution === undefined) return [];
  const progress = () => progressOf(agent, execution);
  const find = (id: unknown): PlanTask => {
    const task = progress().tasks.find((candidate) => candidate.id === id);
    if (typeof id !== "string" || task === undefined)
      throw new Error(`No task ${JSON.stringify(id)} in the plan; get_task_plan lists the tasks.`);
    return task;
  };
  const scope: ToolScope = { agent, context, execution, progress, find };
  return [
    getTaskPlanTool(scope),
    getReadyTasksTool(scope),
    updateTaskStatusTool(scope),
    addTaskTool(scope),
  ];
}

/** What each plan tool of one agent works on. */
interface ToolScope {
  agent: AgentState;
  context: ModeContext;
  execution: ExecutionSettings;
  /** The agent's own copy of the plan. */
  progress: () => TaskProgress;
  /** @throws Error naming the id when the plan has no such task. */
  find: (id: unknown) => PlanTask;
}

/** A JSON Schema object with exactly these properties. */
function object(properties: Record<string, unknown>, required: string[]) {
  return { type: "object", properties, required, additionalProperties: false };
}

/** `get_task_plan()`: every task with its status. */
function getTaskPlanTool(scope: ToolScope): LocalTool {
  const { progress } = scope;
  return {
    spec: {
      name: "get_task_plan",
      description: "Every task of the plan with its current status (your copy).",
      inputSchema: object({}, []),
    },
    execute: async () => renderTaskLines(progress().tasks).join("\n"),
  };
}

/** `get_ready_tasks()`: the chunk's tasks that may start now, or what is still open. */
function getReadyTasksTool(scope: ToolScope): LocalTool {
  const { execution, progress } = scope;
  return {
    spec: {
      name: "get_ready_tasks",
      description: `Tasks of chunk ${execution.chunk} you can start now: pending, their dependencies done.`,
      inputSchema: object({}, []),
    },
    async execute() {
      const ready = readyTasks(progress().tasks, execution.chunk);
      if (ready.length > 0) return renderTaskLines(ready).join("\n");
      const open = progress().tasks.filter(
        (task) => task.chunk === execution.chunk && task.status !== "verified",
      );
      return open.length === 0
        ? "Every task of this chunk is verified: give your answer."
        : `No task is ready; still open: ${renderTaskLines(open).join("; ")}`;
    },
  };
}

/** `update_task_status(task_id, status, notes)`: one checked transition, a `task-status` event. */
function updateTaskStatusTool(scope: ToolScope): LocalTool {
  const { agent, context, execution, progress, find } = scope;
  return {
    spec: {
      name: "update_task_status",
      description:
        "Set a task's status: in_progress when you start it, completed when done, verified once checked, pending when you cannot do it.",
      inputSchema: object(
        {
          task_id: { type: "string" },
          status: { type: "string", enum: [...TaskStatus.options] },
          notes: { type: "string", description: "What you did, checked, or why not." },
        },
        ["task_id", "status"],
      ),
    },
    async execute(input) {
      const fields = record(input);
      const task = find(fields.task_id);
      const status = TaskStatus.safeParse(fields.status);
      if (!status.success)
        throw new Error('"status" must be pending, in_progress, completed or verified.');
      const notes = typeof fields.notes === "string" ? fields.notes.trim() : "";
      checkTransition(task, status.data, progress(), execution);
      task.status = status.data;
      if (notes !== "") task.notes = notes;
      context.emitter.emit({
        type: "task-status",
        agentId: agent.agent.id,
        round: Math.max(1, agent.rounds),
        taskId: task.id,
        status: status.data,
        ...(notes !== "" ? { notes } : {}),
      });
      return `${task.id} is ${status.data}.`;
    },
  };
}

/** `add_task(description, verification, depends_on, priority, reason)`: a task of this chunk, a `task-added` event. */
function addTaskTool(scope: ToolScope): LocalTool {
  const { agent, context, execution, progress, find } = scope;
  return {
    spec: {
      name: "add_task",
      description: `Add a task the work needs that the plan lacks, to chunk ${execution.chunk}.`,
      inputSchema: object(
        {
          description: { type: "string" },
          verification: { type: "string", description: "How to check it is done." },
          depends_on: { type: "array", items: { type: "string" } },
          priority: { type: "string", enum: [...TaskPriority.options] },
          reason: { type: "string", description: "Why the plan needs it." },
        },
        ["description", "verification", "reason"],
      ),
    },
    async execute(input) {
      const fields = record(input);
      const text = (key: string) => {
        const value = fields[key];
        return typeof value === "string" ? value.trim() : "";
      };
      for (const key of ["description", "verification", "reason"])
        if (text(key) === "") throw new Error(`add_task needs a non-empty "${key}".`);
      const dependsOn = Array.isArray(fields.depends_on) ? fields.depends_on : [];
      for (const id of dependsOn) {
        const dependency = find(id);
        if (dependency.chunk > execution.chunk)
          throw new Error(
            `${dependency.id} belongs to a later chunk; depend on this chunk's tasks or earlier ones.`,
          );
      }
      const priority = TaskPriority.safeParse(fields.priority ?? "medium");
      const task: PlanTask = {
        id: freeId(progress()),
        description: text("description"),
        status: "pending",
        depends_on: dependsOn as string[],
        priority: priority.success ? priority.data : "medium",
        verification: text("verification"),
        chunk: execution.chunk,
        added_reason: text("reason"),
      };
      progress().tasks.push(task);
      progress().added.add(task.id);
      context.emitter.emit({
        type: "task-added",
        agentId: agent.agent.id,
        round: Math.max(1, agent.rounds),
        task,
      });
      return `Added ${task.id} to chunk ${execution.chunk}.`;
    },
  };
}

/** @throws Error saying why `task` may not go to `status` now. */
function checkTransition(
  task: PlanTask,
  status: TaskStatus,
  progress: TaskProgress,
  execution: ExecutionSettings,
): void {
  if (task.chunk < execution.chunk)
    throw new Error(
      `${task.id} was done in chunk ${task.chunk}; this run executes chunk ${execution.chunk}.`,
    );
  if (task.chunk > execution.chunk)
    throw new Error(
      `${task.id} belongs to chunk ${task.chunk}; this run executes chunk ${execution.chunk}: leave it for later.`,
    );
  if (status === "verified" && !isDone(task.status))
    throw new Error(`${task.id} is ${task.status}: complete it first, then verify it.`);
  if (status === "in_progress" || status === "completed") {
    const open = task.depends_on.filter((id) => {
      const dependency = progress.tasks.find((candidate) => candidate.id === id);
      return dependency === undefined || !isDone(dependency.status);
    });
    if (open.length > 0)
      throw new Error(
        `${task.id} depends on ${open.join(", ")}, not done yet: do ${open.length === 1 ? "it" : "them"} first.`,
      );
  }
}

/** The next `A<n>` id not used in the plan. */
function freeId(progress: TaskProgress): string {
  const used = new Set(progress.tasks.map((task) => task.id));
  for (let index = 1; ; index++) if (!used.has(`A${index}`)) return `A${index}`;
}

function record(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" ? (input as Record<string, unknown>) : {};
}
