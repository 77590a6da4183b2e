/**
 * Execution mode (`--execute-plan`, the second phase of `--plan-and-execute`;
 * docs/planning.md): one run executes one chunk of a plan. Every agent works through the chunk
 * on its own, in its own workspace, with the plan tools (`execution-tools.ts`) and its file
 * tools; it gives its result with `new_answer` once no task of the chunk is in progress or
 * completed but unverified, and every pending one carries notes saying why it was not done
 * (counted as skipped); then the team votes as in voting mode and the winner presents. The winner's copy of the plan
 * is the plan's progress (the runner reads it from the `task-status` / `task-added` events).
 *
 * Before the first round it emits `plan-execution` (the plan and the chunk).
 */
import { executionTools, newProgress, progressOf, unfinishedWork } from "./execution-tools.js";
import { executionSystemPrompt } from "./plan-prompts.js";
import { sensitivityLine } from "../prompts.js";
import { newAnswerTool } from "../workflow-tools.js";
import {
  personaOf,
  recordAnswer,
  refuseOverCap,
  refuseUnoriginal,
  withinAnswerCaps,
} from "./answers.js";
import type { CoordinationModeSpec, ModeContext } from "./mode.js";
import { answerAndVoteTools, canVote, soloAwareVoting } from "./solo-voting.js";
import { votingMode } from "./voting.js";

/** The execution settings; @throws Error when the runner gave none (a programming error). */
function executionOf(context: ModeContext) {
  const execution = context.settings.execution;
  if (execution === undefined) throw new Error("execution mode needs settings.execution");
  return execution;
}

export const executionMode: CoordinationModeSpec = {
  ...votingMode,
  ...soloAwareVoting,
  name: "execution",

  workflowTools: (agent, context) => answerAndVoteTools(agent, context, newAnswerTool),

  systemPrompt(agent, context) {
    const execution = executionOf(context);
    return executionSystemPrompt({
      systemMessage: agent.agent.systemMessage,
      persona: personaOf(agent, context),
      teamSize: context.team.agents.length,
      execution,
      tasks: progressOf(agent, execution).tasks,
      canVote: canVote(context),
      canAnswer: withinAnswerCaps(agent, context),
      sensitivity: sensitivityLine(context.settings.voting_sensitivity),
    });
  },

  roundTools: (agent, context) => executionTools(agent, context),

  submit(agent, call, seenVersion, context) {
    if (call.kind !== "new_answer") return votingMode.submit(agent, call, seenVersion, context);
    const execution = executionOf(context);
    const overCap = refuseOverCap(agent, context);
    if (overCap !== undefined) return { status: "invalid", message: overCap };
    const unfinished = unfinishedWork(progressOf(agent, execution), execution.chunk);
    if (unfinished !== undefined) return { status: "invalid", message: unfinished };
    const refusal = refuseUnoriginal(call.content, context);
    if (refusal !== undefined) return { status: "invalid", message: refusal };
    return recordAnswer(agent, call.content, context);
  },

  async prepare(context) {
    const execution = executionOf(context);
    for (const agent of context.team.agents) agent.progress = newProgress(execution);
    context.emitter.emit({
      type: "plan-execution",
      planId: execution.planId,
      chunk: execution.chunk,
      chunks: execution.chunks,
      tasks: execution.tasks.map((task) => ({ ...task })),
    });
  },
};
