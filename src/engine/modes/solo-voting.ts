/**
 * Voting for the planning and execution modes, which a team of one may also run (`--plan` with
 * one agent or `--single-agent`): a lone agent answers once and is done, without voting for
 * itself; a team votes as in voting mode (docs/coordination.md "Voting mode" steps 5 and 6).
 */
import type { AgentState } from "../team.js";
import { voteTool } from "../workflow-tools.js";
import { withinAnswerCaps } from "./answers.js";
import type { ToolSpec } from "../../backends/index.js";
import type { CoordinationModeSpec, ModeContext } from "./mode.js";
import { votingMode } from "./voting.js";

/** True for a team of one agent. */
export const soloTeam = (context: ModeContext): boolean => context.team.agents.length === 1;

/** Voting is offered once there are answers to vote on, and never to a team of one. */
export const canVote = (context: ModeContext): boolean =>
  !soloTeam(context) && context.team.version > 0;

/**
 * The workflow tools of a round: `answerTool()` while `agent` is within its answer caps, `vote`
 * (for the visible answers) while {@link canVote}.
 */
export function answerAndVoteTools(
  agent: AgentState,
  context: ModeContext,
  answerTool: () => ToolSpec,
): ToolSpec[] {
  const tools: ToolSpec[] = [];
  if (withinAnswerCaps(agent, context)) tools.push(answerTool());
  if (canVote(context))
    tools.push(voteTool(context.team.visibleAnswers().map((answer) => answer.anonId)));
  return tools;
}

/** `isDue`, `isDone` and `chooseWinner` of voting mode, with a team of one done once it answered. */
export const soloAwareVoting: Pick<CoordinationModeSpec, "isDue" | "isDone" | "chooseWinner"> = {
  isDue: (agent, context) =>
    soloTeam(context) ? agent.answerCount === 0 : votingMode.isDue(agent, context),
  isDone: (live, context) =>
    soloTeam(context)
      ? live.every((agent) => agent.answerCount > 0)
      : votingMode.isDone(live, context),
  chooseWinner(end, context) {
    const choice = votingMode.chooseWinner(end, context);
    return choice && soloTeam(context) && end === "completed"
      ? { ...choice, basis: "single" }
      : choice;
  },
};
