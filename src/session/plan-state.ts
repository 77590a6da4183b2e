/**
 * The planning and execution part of the view model (docs/planning.md): the plans the agents
 * submitted (`plan`), the questions they asked and the replies (`broadcast-question`,
 * `broadcast-reply`), and, in execution mode, the plan being executed with each agent's own
 * progress (`plan-execution`, `task-status`, `task-added`). The reducer (`./reducer.ts`) hands
 * these events to {@link applyPlanEvent}; the terminal UI, `coord logs` and the plan command read
 * the result. Pure.
 */
import type { EventOf, PlanTask, TaskStatus } from "../events/index.js";
import { countStatuses } from "../plan/index.js";

/** An accepted plan (`plan` event). */
export interface PlanRecord {
  readonly label: string;
  readonly agentId: string;
  readonly anonId: string;
  readonly tasks: readonly PlanTask[];
  readonly requirements: string;
  readonly designDecisions: string;
}

/** A question an agent asked (`ask_others`) and the replies so far. */
export interface QuestionRecord {
  readonly questionId: string;
  /** Real id of the agent that asked. */
  readonly agentId: string;
  readonly to: "human" | "agents";
  readonly question: string;
  readonly replies: readonly { readonly from: string; readonly text: string }[];
}

/** One agent's own copy of the plan while it executes the chunk. */
export interface AgentProgress {
  /** Status changes by task id (tasks not here keep the status they started with). */
  readonly statuses: Readonly<Record<string, TaskStatus>>;
  readonly notes: Readonly<Record<string, string>>;
  /** Tasks it added, oldest first. */
  readonly added: readonly PlanTask[];
}

/** The plan an execution run works on (`plan-execution`). */
export interface ExecutionView {
  readonly planId: string;
  readonly chunk: number;
  readonly chunks: number;
  /** The plan as the run started (statuses of earlier chunks included). */
  readonly tasks: readonly PlanTask[];
  /** By real agent id. */
  readonly progress: Readonly<Record<string, AgentProgress>>;
}

/** The plan fields of the run state. */
export interface PlanState {
  /** Every accepted plan, oldest first (planning mode). */
  readonly plans: readonly PlanRecord[];
  readonly questions: readonly QuestionRecord[];
  /** Execution mode: the plan being executed; null otherwise. */
  readonly execution: ExecutionView | null;
}

export const INITIAL_PLAN_STATE: PlanState = { plans: [], questions: [], execution: null };

/** The events {@link applyPlanEvent} handles. */
export type PlanEvent = EventOf<
  | "plan"
  | "broadcast-question"
  | "broadcast-reply"
  | "plan-execution"
  | "task-status"
  | "task-added"
>;

const NO_PROGRESS: AgentProgress = { statuses: {}, notes: {}, added: [] };

/** Applies one planning or execution event. */
export function applyPlanEvent<S extends PlanState>(state: S, event: PlanEvent): S {
  const agentId = event.agentId ?? "";
  switch (event.type) {
    case "plan":
      return {
        ...state,
        plans: [
          ...state.plans,
          {
            label: event.label,
            agentId,
            anonId: event.anonId,
            tasks: event.tasks,
            requirements: event.requirements,
            designDecisions: event.designDecisions,
          },
        ],
      };
    case "broadcast-question":
      return {
        ...state,
        questions: [
          ...state.questions,
          {
            questionId: event.questionId,
            agentId,
            to: event.to,
            question: event.question,
            replies: [],
          },
        ],
      };
    case "broadcast-reply":
      return {
        ...state,
        questions: state.questions.map((question) =>
          question.questionId === event.questionId
            ? {
                ...question,
                replies: [...question.replies, { from: event.from, text: event.text }],
              }
            : question,
        ),
      };
    case "plan-execution":
      return {
        ...state,
        execution: {
          planId: event.planId,
          chunk: event.chunk,
          chunks: event.chunks,
          tasks: event.tasks,
          progress: {},
        },
      };
    case "task-status":
      return updateProgress(state, agentId, (progress) => ({
        ...progress,
        statuses: { ...progress.statuses, [event.taskId]: event.status },
        notes:
          event.notes !== undefined && event.notes !== ""
            ? { ...progress.notes, [event.taskId]: event.notes }
            : progress.notes,
      }));
    case "task-added":
      return updateProgress(state, agentId, (progress) => ({
        ...progress,
        added: [...progress.added, event.task],
      }));
  }
}

function updateProgress<S extends PlanState>(
  state: S,
  agentId: string,
  update: (progress: AgentProgress) => AgentProgress,
): S {
  const execution = state.execution;
  if (execution === null) return state;
  const current = Object.hasOwn(execution.progress, agentId)
    ? execution.progress[agentId]!
    : NO_PROGRESS;
  return {
    ...state,
    execution: { ...execution, progress: { ...execution.progress, [agentId]: update(current) } },
  };
}

/**
 * The plan as one agent has it now: the tasks it started with plus those it added, each with its
 * latest status and notes. Undefined outside execution mode.
 */
export function agentPlanTasks(state: PlanState, agentId: string): PlanTask[] | undefined {
  const execution = state.execution;
  if (execution === null) return undefined;
  const progress = Object.hasOwn(execution.progress, agentId)
    ? execution.progress[agentId]!
    : NO_PROGRESS;
  return [...execution.tasks, ...progress.added].map((task) => {
    const status = Object.hasOwn(progress.statuses, task.id)
      ? progress.statuses[task.id]!
      : task.status;
    const notes = Object.hasOwn(progress.notes, task.id) ? progress.notes[task.id] : task.notes;
    return { ...task, status, ...(notes !== undefined ? { notes } : {}) };
  });
}

/** An agent's progress on the chunk: tasks of the chunk, how many are done, added, verified. */
export interface ChunkProgress {
  /** Tasks of the chunk (added ones included). */
  total: number;
  /** Completed or verified. */
  done: number;
  verified: number;
  added: number;
}

/** {@link ChunkProgress} of one agent; undefined outside execution mode. */
export function chunkProgress(state: PlanState, agentId: string): ChunkProgress | undefined {
  const tasks = agentPlanTasks(state, agentId);
  const execution = state.execution;
  if (tasks === undefined || execution === null) return undefined;
  const chunk = tasks.filter((task) => task.chunk === execution.chunk);
  const counts = countStatuses(chunk);
  const progress = Object.hasOwn(execution.progress, agentId)
    ? execution.progress[agentId]!
    : NO_PROGRESS;
  return {
    total: chunk.length,
    done: counts.completed + counts.verified,
    verified: counts.verified,
    added: progress.added.length,
  };
}

/** Questions to the user that have no reply yet, oldest first. */
export function pendingHumanQuestions(state: PlanState): QuestionRecord[] {
  return state.questions.filter(
    (question) => question.to === "human" && question.replies.length === 0,
  );
}
