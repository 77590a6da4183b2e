/**
 * Voting for the planning and execution modes, which a team of one may also run (`--plan` with
 * one agent or `--single-agent`): a lone agent answers once and is done, without voting for
 * itself; a team votes as in voting mode (COORDINATION.md steps 5 and 6).
 */
import type { CoordinationModeSpec, ModeContext } from "./mode.js";
import { votingMode } from "./voting.js";

/** True for a team of one agent. */
export const soloTeam = (context: ModeContext): boolean => context.team.agents.length === 1;

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
