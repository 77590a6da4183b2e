/**
 * The events of the modes beyond voting (part of the union in `./events.ts`): personas, the
 * decomposition mode's subtasks and stops, the planning mode's plans and broadcast questions,
 * the execution mode's plan, task statuses and added tasks.
 */
import { z } from "zod";
import { ev } from "./event-envelope.js";
import { PlanTask } from "./plan.js";

/**
 * Builds the schemas of the events that set an agent up or stop it outside voting: its persona,
 * its subtask and its stop (see `buildCoordEventSchema` for why on demand).
 */
export function agentSetupEventSchemas() {
  return {
    /**
     * Decomposition mode: the agent stopped working on its subtask, `complete` (its current answer
     * is its part) or `blocked` (`summary` says why). A new answer it has not seen wakes it again.
     */
    stop: ev("stop", {
      round: z.number().int().positive(),
      status: z.enum(["complete", "blocked"]),
      summary: z.string(),
      /**
       * `agent`: the agent called `stop`; `answer-cap`: it gave `max_new_answers_per_agent` answers
       * in a row without news from the others, so the engine stopped it. Absent means `agent`.
       */
      cause: z.enum(["agent", "answer-cap"]).optional(),
    }),
    /**
     * Decomposition mode, before the first round: the subtask the agent owns. `source`: `config`
     * (its `subtask:` key), `decomposer` (the planning call), `fallback` (the planning call failed;
     * see the `warning` event).
     */
    subtask: ev("subtask", {
      anonId: z.string(),
      subtask: z.string(),
      source: z.enum(["config", "decomposer", "fallback"]),
    }),
    /**
     * The persona put before the agent's system message (persona generation, before the first
     * round). `source`: `generated` by this run's persona call, or `session`: reused from an earlier
     * turn (`persist_across_turns`). Absent means `generated`.
     */
    persona: ev("persona", {
      persona: z.string(),
      source: z.enum(["generated", "session"]).optional(),
    }),
  };
}

/**
 * Builds the schemas of the planning and execution modes' events: plans, broadcast questions and
 * replies, the plan a run executes and its tasks (see `buildCoordEventSchema` for why on demand).
 */
export function planEventSchemas() {
  return {
    /**
     * Planning mode: an accepted plan, right after the `answer` event of the same label (whose
     * `content` is the plan as Markdown). The winner's plan is what `plan.json` stores.
     */
    plan: ev("plan", {
      round: z.number().int().positive(),
      /** The answer label, `agent<N>.<M>`. */
      label: z.string(),
      anonId: z.string(),
      /** `plan.json`'s task objects, every status `pending`. */
      tasks: z.array(PlanTask),
      /** Markdown (requirements.md). */
      requirements: z.string(),
      /** Markdown (design_decisions.md). */
      designDecisions: z.string(),
    }),
    /**
     * Planning mode with `--broadcast human|agents`: the agent asks a question (`ask_others`);
     * `to` says who answers: the user, or the other agents (each a `broadcast-reply`).
     */
    broadcastQuestion: ev("broadcast-question", {
      round: z.number().int().positive(),
      /** `q1`, `q2`, … in the run. */
      questionId: z.string(),
      to: z.enum(["human", "agents"]),
      question: z.string(),
    }),
    /**
     * A reply to a `broadcast-question`: `from` is `human` (the user; no `agentId`) or the real id
     * of the agent that replied (`agentId`). `text` is empty when the user gave no answer.
     */
    broadcastReply: ev("broadcast-reply", {
      questionId: z.string(),
      from: z.string(),
      text: z.string(),
    }),
    /**
     * Execution mode, before the first round: the plan and the chunk this run executes, every task
     * with its status so far (earlier chunks done).
     */
    planExecution: ev("plan-execution", {
      planId: z.string(),
      /** The 1-based chunk this run executes, of `chunks`. */
      chunk: z.number().int().positive(),
      chunks: z.number().int().positive(),
      tasks: z.array(PlanTask),
    }),
    /** Execution mode: the agent set a task's status (its own copy of the plan). */
    taskStatus: ev("task-status", {
      round: z.number().int().positive(),
      taskId: z.string(),
      status: z.enum(["pending", "in_progress", "completed", "verified"]),
      notes: z.string().optional(),
    }),
    /** Execution mode: the agent added a task to the chunk (`task.added_reason` says why). */
    taskAdded: ev("task-added", {
      round: z.number().int().positive(),
      task: PlanTask,
    }),
  };
}
