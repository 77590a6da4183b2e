/**
 * What the models are told in planning and execution mode (docs/planning.md; docs/coordination.md
 * "Prompts": the rules stated plainly, anonymous ids only). Execution agents get the plan's
 * tasks, the chunk they execute and how to use the plan tools; planning agents get the plan's
 * format, its granularity and whom they may ask.
 */
import type { PlanTask } from "../../events/index.js";
import { chunksOf, renderTaskLines, stepTolerance } from "../../plan/index.js";
import type { ExecutionSettings, PlanDepth, PlanningSettings } from "./plan-settings.js";
import type { AnsweredQuestion } from "../team.js";

const DEPTH: Record<PlanDepth, string> = {
  dynamic:
    "Choose the number of tasks the task needs: a handful for a small change, dozens for a project.",
  shallow: "Make a shallow plan: 5 to 10 tasks, the main steps only.",
  medium: "Make a medium plan: 20 to 50 tasks, each a focused piece of work.",
  deep: "Make a deep plan: 100 tasks or more, each small enough to do and check in one step.",
};

/** Most questions one agent may ask in a run (`ask_others`). */
export const MAX_QUESTIONS_PER_AGENT = 3;

/** The granularity line: `--plan-steps` when given, else `--plan-depth`. */
export function granularityLine(settings: PlanningSettings): string {
  if (settings.steps === undefined) return DEPTH[settings.depth];
  const tolerance = stepTolerance(settings.steps);
  return `Make ${settings.steps} tasks (${settings.steps - tolerance} to ${settings.steps + tolerance} are accepted).`;
}

/** System prompt of a planning round. */
export function planningSystemPrompt(options: {
  systemMessage?: string | undefined;
  persona?: string | undefined;
  teamSize: number;
  settings: PlanningSettings;
  canVote: boolean;
  sensitivity: string;
  /** Whether `ask_others` is offered now (broadcast on, questions left). */
  canAsk: boolean;
  answered: readonly AnsweredQuestion[];
}): string {
  const { settings } = options;
  const parts: string[] = [];
  if (options.persona) parts.push(options.persona);
  if (options.systemMessage) parts.push(options.systemMessage);
  const intro =
    options.teamSize === 1
      ? "Make a plan for the task in the original message: a plan, not the work itself (nothing is executed now). End your turn with exactly one tool call:"
      : `You are one of ${options.teamSize} agents making a plan for the task in the original message: a plan, not the work itself (nothing is executed now). Agents are anonymous: agent1, agent2, and so on. Read the current plans, then end your turn with exactly one tool call:`;
  parts.push(
    [
      intro,
      "- submit_plan(tasks, requirements, design_decisions): your own complete plan.",
      options.canVote ? "- vote(agent_id, reason): choose the best current plan." : "",
      options.canVote ? options.sensitivity : "",
    ]
      .filter((line) => line !== "")
      .join("\n"),
  );
  parts.push(
    [
      "The plan:",
      "- tasks: each with a unique id (T1, T2, …), a description that stands on its own, depends_on (ids of tasks that must be done first; no cycles), priority (high, medium or low), verification (how to check it is done: a command to run, a file to read back) and chunk.",
      `- ${granularityLine(settings)}`,
      settings.chunks !== undefined
        ? `- Group the tasks into exactly ${settings.chunks} chunks, numbered 1 to ${settings.chunks}, none empty. Execution runs chunk 1, then chunk 2, and so on; a task may depend only on tasks of its own or an earlier chunk.`
        : "- chunk: 1 for every task unless the work falls into stages executed one after another (then 1, 2, …; a task may depend only on tasks of its own or an earlier chunk).",
      "- requirements: Markdown: what the result must do (user stories, acceptance criteria).",
      "- design_decisions: Markdown: the choices made (structure, tools, formats) and why.",
    ].join("\n"),
  );
  if (options.canAsk) {
    parts.push(
      settings.broadcast === "human"
        ? `If something only the user can decide is unclear, ask the user with ask_others(question) (at most ${MAX_QUESTIONS_PER_AGENT} questions, short and specific). The answer comes back as the tool result, and every agent sees it.`
        : `If you need another view, ask the other agents with ask_others(question) (at most ${MAX_QUESTIONS_PER_AGENT} questions). Their replies come back as the tool result.`,
    );
  }
  if (options.answered.length > 0) {
    const lines = options.answered.map(
      (entry) =>
        `Q (${entry.anonId}): ${entry.question}\nA: ${entry.answer === "" ? "(no answer: decide and state your assumption)" : entry.answer}`,
    );
    parts.push(`The user answered these questions; follow the answers:\n${lines.join("\n")}`);
  }
  return parts.join("\n\n");
}

/** The prompt of another agent's reply to `ask_others` (`--broadcast agents`). */
export function replySystemPrompt(options: {
  systemMessage?: string | undefined;
  anonId: string;
  askerAnonId: string;
  teamSize: number;
}): string {
  return [
    options.systemMessage ?? "",
    `You are ${options.anonId}, one of ${options.teamSize} agents planning the same task. ${options.askerAnonId} asks you a question. Reply in a few sentences from what you know of the task and your own plan. Do not call tools.`,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** The user message of a reply: the task, the replier's current plan, the question. */
export function replyUserMessage(options: {
  question: string;
  ownPlan: string | undefined;
  asked: string;
}): string {
  return [
    `<ORIGINAL MESSAGE>\n${options.question}\n</ORIGINAL MESSAGE>`,
    options.ownPlan !== undefined ? `<YOUR PLAN>\n${options.ownPlan}\n</YOUR PLAN>` : "",
    `<QUESTION>\n${options.asked}\n</QUESTION>`,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** System prompt of an execution round. */
export function executionSystemPrompt(options: {
  systemMessage?: string | undefined;
  persona?: string | undefined;
  teamSize: number;
  execution: ExecutionSettings;
  /** The agent's own copy of the plan (its statuses). */
  tasks: readonly PlanTask[];
  canVote: boolean;
  canAnswer: boolean;
  sensitivity: string;
}): string {
  const { execution } = options;
  const parts: string[] = [];
  if (options.persona) parts.push(options.persona);
  if (options.systemMessage) parts.push(options.systemMessage);
  const earlier = options.tasks.filter((task) => task.chunk < execution.chunk);
  const current = options.tasks.filter((task) => task.chunk === execution.chunk);
  const stage =
    execution.chunks > 1
      ? `chunk ${execution.chunk} of ${execution.chunks} of plan ${execution.planId}`
      : `plan ${execution.planId}`;
  parts.push(
    options.teamSize === 1
      ? `You execute ${stage} for the task in the original message, with your tools, in your workspace.`
      : `You are one of ${options.teamSize} agents executing ${stage} for the task in the original message. Each agent does the work on its own, with its tools, in its own workspace; then the team votes for the best result. Agents are anonymous: agent1, agent2, and so on.`,
  );
  parts.push(
    [
      `Tasks of this ${execution.chunks > 1 ? "chunk" : "plan"} (your copy; [ ] pending, [~] in progress, [x] completed, [v] verified):`,
      ...renderTaskLines(current),
      earlier.length > 0
        ? `Earlier chunks, done (their work is in your workspace): ${earlier.map((task) => task.id).join(", ")}.`
        : "",
      execution.chunks > 1 && execution.chunk < execution.chunks
        ? `Later chunks (${chunksOf(options.tasks)
            .filter((chunk) => chunk > execution.chunk)
            .join(", ")}) are not yours: do not start them.`
        : "",
    ]
      .filter((line) => line !== "")
      .join("\n"),
  );
  if (execution.requirements.trim() !== "")
    parts.push(`<REQUIREMENTS>\n${execution.requirements.trim()}\n</REQUIREMENTS>`);
  if (execution.designDecisions.trim() !== "")
    parts.push(`<DESIGN DECISIONS>\n${execution.designDecisions.trim()}\n</DESIGN DECISIONS>`);
  parts.push(
    [
      "How to work:",
      "1. get_ready_tasks() lists the tasks you can start now (pending, their dependencies done).",
      '2. update_task_status(task_id, "in_progress"), do the task with your tools, then update_task_status(task_id, "completed", notes).',
      '3. Check each completed task as its verification says (read the file back, run the command), then update_task_status(task_id, "verified", notes: what you checked).',
      "4. If the work needs a task the plan lacks, add_task(description, verification, depends_on, reason).",
      "5. A task you cannot do: set it to pending with notes saying why (an answer is refused while a task of the chunk is untouched).",
    ].join("\n"),
  );
  const choices: string[] = [];
  if (options.canAnswer)
    choices.push(
      "- new_answer(content): when no task of yours is in progress or completed-but-unverified: what you did, task by task.",
    );
  if (options.canVote)
    choices.push(
      "- vote(agent_id, reason): choose the best current result (the others' work is in your view of their workspaces).",
    );
  parts.push(
    [
      "End your turn with exactly one workflow call:",
      ...choices,
      options.canVote && options.canAnswer ? options.sensitivity : "",
    ]
      .filter((line) => line !== "")
      .join("\n"),
  );
  return parts.join("\n\n");
}
