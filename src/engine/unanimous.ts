/**
 * Unanimous answers (`orchestrator.unanimous`, docs/coordination.md "Voting mode"): when every
 * live agent's current answer reaches the same conclusion (`./conclusions.ts`), the votes can only
 * go to that one conclusion group (`./selection.ts`: votes count for groups, and only a group
 * holding a current answer can win). With `skip_votes` voting ends there, without the vote round;
 * the group wins on evidence and its earliest current answer presents. What is given up: a voter
 * that would have revised its answer to another conclusion and won the others over.
 * With `vote` (the default) the team votes as usual. Pure functions, no I/O.
 */
import type { ModeSettings } from "./modes/index.js";
import type { Team } from "./team.js";

/** `orchestrator.unanimous`: what voting mode does when every answer has one conclusion. */
export type UnanimousRule = "vote" | "skip_votes";

/** The rule when the config gives none. */
export const DEFAULT_UNANIMOUS: UnanimousRule = "vote";

/** `orchestrator.unanimous` of the run's settings, {@link DEFAULT_UNANIMOUS} when absent. */
export function unanimousRuleOf(settings: ModeSettings): UnanimousRule {
  return settings.unanimous ?? DEFAULT_UNANIMOUS;
}

/**
 * The one conclusion every current answer reaches, when at least two live agents hold an answer
 * each and every live agent does; undefined otherwise (an agent still without an answer, two
 * conclusions, an answer with none: free-form answers never agree).
 * @param team the team; an answer of a removed agent counts too (it is current and could win).
 */
export function unanimousConclusion(team: Team): string | undefined {
  const live = team.live();
  if (live.length < 2 || live.some((agent) => agent.answer === undefined)) return undefined;
  const conclusions = new Set(
    team.visibleAnswers().map((answer) => team.conclusionOf(answer.label)),
  );
  const [only] = conclusions;
  return conclusions.size === 1 ? only : undefined;
}
