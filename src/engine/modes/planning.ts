/**
 * Planning mode (`--plan`, the first phase of `--plan-and-execute`; docs/planning.md):
 * voting mode where the answer is a structured plan. An agent ends its round with
 * `submit_plan(tasks, requirements, design_decisions)` or a vote; a plan is checked (shape, ids
 * unique, dependencies that exist, no cycles, chunks, the `--plan-steps` target) before it is
 * accepted, and a refusal is a tool error listing every problem, so the agent can correct it.
 *
 * An accepted plan is an answer (its Markdown rendering, which the others read and vote on) and
 * a `plan` event with its tasks. The winning plan is final as it was voted: no presentation call
 * (the plan files are written from the winner's `plan` event by the runner's side). With
 * `--broadcast human|agents` every agent also has `ask_others` (`broadcast.ts`).
 */
import { renderPlan } from "../../plan/index.js";
import { askOthersTool, canAsk } from "./broadcast.js";
import { planningSystemPrompt } from "./plan-prompts.js";
import type { PlanningSettings } from "./plan-settings.js";
import { checkSubmission, submitPlanTool } from "./plan-submission.js";
import { planningTextCall } from "./plan-text.js";
import { sensitivityLine } from "../prompts.js";
import { personaOf, recordAnswer, refuseOverCap, refuseUnoriginal, submitVote } from "./answers.js";
import type { CoordinationModeSpec, ModeContext } from "./mode.js";
import { answerAndVoteTools, canVote, soloAwareVoting } from "./solo-voting.js";
import { votingMode } from "./voting.js";

/** The planning settings, or the defaults (`dynamic`, no targets, no broadcast). */
export function planningSettings(context: ModeContext): PlanningSettings {
  return context.settings.planning ?? { depth: "dynamic", broadcast: false };
}

const targetsOf = (settings: PlanningSettings) => ({
  steps: settings.steps,
  chunks: settings.chunks,
});

export const planningMode: CoordinationModeSpec = {
  ...votingMode,
  ...soloAwareVoting,
  name: "planning",
  workflowToolNames: ["submit_plan", "vote"],

  workflowTools: (agent, context) =>
    answerAndVoteTools(agent, context, () => submitPlanTool(targetsOf(planningSettings(context)))),

  systemPrompt(agent, context) {
    const settings = planningSettings(context);
    return planningSystemPrompt({
      systemMessage: agent.agent.systemMessage,
      persona: personaOf(agent, context),
      teamSize: context.team.agents.length,
      settings,
      canVote: canVote(context),
      sensitivity: sensitivityLine(context.settings.voting_sensitivity),
      canAsk: canAsk(agent, settings.broadcast),
      answered: context.team.answeredQuestions,
    });
  },

  roundTools(agent, context) {
    const { broadcast } = planningSettings(context);
    return broadcast === false ? [] : [askOthersTool(agent, broadcast, context)];
  },

  submit(agent, call, seenVersion, context) {
    if (call.kind === "vote") return votingMode.submit(agent, call, seenVersion, context);
    if (call.kind !== "plan") {
      return { status: "invalid", message: "End your turn with submit_plan or vote." };
    }
    const overCap = refuseOverCap(agent, context);
    if (overCap !== undefined) return { status: "invalid", message: overCap };
    const checked = checkSubmission(call.input, targetsOf(planningSettings(context)));
    if (!checked.ok) return { status: "invalid", message: checked.message };
    const content = renderPlan(checked.draft);
    // A plan that exists word for word is agreement: heard as a vote for it (as in voting mode).
    const same = context.team.agents.find((other) => other.answer?.content === content);
    if (same !== undefined && canVote(context)) {
      const reason = "re-submitted this plan unchanged (heard as a vote)";
      const vote = { kind: "vote", call: call.call, agentId: same.anonId, reason } as const;
      return submitVote(agent, vote, seenVersion, context);
    }
    const refusal = refuseUnoriginal(content, context);
    if (refusal !== undefined) return { status: "invalid", message: refusal };
    const result = recordAnswer(agent, content, context);
    agent.plan = checked.draft;
    context.emitter.emit({
      type: "plan",
      agentId: agent.agent.id,
      round: agent.rounds,
      label: agent.answer!.label,
      anonId: agent.anonId,
      tasks: checked.draft.tasks,
      requirements: checked.draft.requirements,
      designDecisions: checked.draft.designDecisions,
    });
    return result;
  },

  textCall: (_agent, text, offered, id, context) =>
    planningTextCall(text, offered, id, planningSettings(context).chunks),

  // The plan is final as voted: the files are written from the winner's `plan` event.
  skipPresentation: () => true,
};
