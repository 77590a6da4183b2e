/**
 * Choosing the winning answer from everything the run produced (docs/coordination.md
 * "How the winner is chosen"). Pure: `../team.ts` gathers the answers and
 * votes, this ranks them.
 *
 * 1. **Groups.** Every answer accepted in the run (first answers and revisions, superseded ones
 *    included) joins the group of its conclusion (`./conclusions.ts`); an answer without one is a
 *    group of its own. Only a group holding at least one *current* answer can win (its holder
 *    presents).
 * 2. **Majority.** A group holding more than half of the current votes wins (`rule: majority`).
 * 3. **Evidence** (votes split or absent). Groups are ranked by, in turn:
 *    - score = current votes + agents that gave an answer in the group (first or revised);
 *    - first answers: agents whose first answer (`agent<N>.1`) is in the group, reached
 *      independently;
 *    - votes from outside: current votes from agents that never gave an answer in the group;
 *    - the earliest answer: the group whose first answer was accepted first.
 *    When the two best groups have equal scores the result is a tie broken by the first later key
 *    that separates them (`tieBroken`, `tieBasis`).
 * 4. **Representative.** The winning group's current answer with the most current votes, the
 *    earliest given on equal votes.
 */

/** An accepted answer as the selection sees it. */
export interface SelectionAnswer {
  /** `agent<N>.<M>`; M = 1 is the agent's first answer. */
  label: string;
  anonId: string;
  /** Normalised conclusion; undefined: free-form (a group of its own). */
  conclusion: string | undefined;
  /** True while it is its author's current answer. */
  current: boolean;
}

/** A current vote: who cast it and the label of the answer it is for. */
export interface SelectionVote {
  voterAnonId: string;
  label: string;
}

/** One conclusion group and what counts for it. */
export interface ConclusionGroup {
  /** Undefined for a free-form answer's own group. */
  conclusion: string | undefined;
  /** Labels of its answers, in the order they were accepted. */
  labels: string[];
  /** Current votes for any of its answers. */
  votes: number;
  /** Anonymous ids of the agents that gave an answer in it (first or revised). */
  answeredBy: string[];
  /** Agents whose first answer is in it. */
  firstAnswers: number;
  /** Current votes from agents that gave no answer in it. */
  outsideVotes: number;
  /** votes + answeredBy.length. */
  score: number;
  /** Position in the run's answer order of its first answer (0-based). */
  earliest: number;
}

/** What breaks a tie on score, in order. */
export type TieBasis = "first answers" | "votes from outside" | "earliest answer";

/** The selection's result. */
export interface Selection {
  /** Label of the representative answer (a current answer of the winning group). */
  label: string;
  group: ConclusionGroup;
  /** `majority`: more than half of the current votes; `evidence`: the ranking of rule 3. */
  rule: "majority" | "evidence";
  tieBroken: boolean;
  tieBasis?: TieBasis;
  /** Every group, best first. */
  groups: ConclusionGroup[];
}

/**
 * Ranks the answers of a run.
 * @param answers every accepted answer, in the order accepted.
 * @param votes the current votes (votes cleared by a later answer are not counted).
 * @returns undefined when no answer is current.
 */
export function selectAnswer(
  answers: readonly SelectionAnswer[],
  votes: readonly SelectionVote[],
): Selection | undefined {
  const byKey = new Map<string, ConclusionGroup>();
  const keyOf = new Map<string, string>();
  answers.forEach((answer, order) => {
    const key =
      answer.conclusion !== undefined ? `c:${answer.conclusion}` : `label:${answer.label}`;
    keyOf.set(answer.label, key);
    const group = byKey.get(key) ?? {
      conclusion: answer.conclusion,
      labels: [],
      votes: 0,
      answeredBy: [],
      firstAnswers: 0,
      outsideVotes: 0,
      score: 0,
      earliest: order,
    };
    byKey.set(key, group);
    group.labels.push(answer.label);
    if (!group.answeredBy.includes(answer.anonId)) group.answeredBy.push(answer.anonId);
    if (answer.label.endsWith(".1")) group.firstAnswers++;
  });
  const votesByLabel = new Map<string, number>();
  for (const vote of votes) {
    const group = byKey.get(keyOf.get(vote.label) ?? "");
    if (group === undefined) continue;
    group.votes++;
    if (!group.answeredBy.includes(vote.voterAnonId)) group.outsideVotes++;
    votesByLabel.set(vote.label, (votesByLabel.get(vote.label) ?? 0) + 1);
  }
  for (const group of byKey.values()) group.score = group.votes + group.answeredBy.length;

  const current = new Set(answers.filter((answer) => answer.current).map((answer) => answer.label));
  const ranked = [...byKey.values()].sort(compareGroups);
  const eligible = ranked.filter((group) => group.labels.some((label) => current.has(label)));
  if (eligible.length === 0) return undefined;
  const totalVotes = eligible.reduce((sum, group) => sum + group.votes, 0);
  const majority = eligible.find((group) => group.votes * 2 > totalVotes);
  const [best, second] = eligible;
  const group = majority ?? best!;
  const tie = majority === undefined && second !== undefined && second.score === best!.score;
  const tieBasis = tie ? tieBasisOf(best!, second) : undefined;
  const label = group.labels
    .filter((candidate) => current.has(candidate))
    .reduce((a, b) => ((votesByLabel.get(b) ?? 0) > (votesByLabel.get(a) ?? 0) ? b : a));
  return {
    label,
    group,
    rule: majority ? "majority" : "evidence",
    tieBroken: tie,
    ...(tieBasis ? { tieBasis } : {}),
    groups: majority ? [majority, ...ranked.filter((other) => other !== majority)] : ranked,
  };
}

/** Rule 3's order: better first. */
function compareGroups(a: ConclusionGroup, b: ConclusionGroup): number {
  return (
    b.score - a.score ||
    b.firstAnswers - a.firstAnswers ||
    b.outsideVotes - a.outsideVotes ||
    a.earliest - b.earliest
  );
}

function tieBasisOf(best: ConclusionGroup, second: ConclusionGroup): TieBasis {
  if (best.firstAnswers !== second.firstAnswers) return "first answers";
  if (best.outsideVotes !== second.outsideVotes) return "votes from outside";
  return "earliest answer";
}
