/**
 * The events of the answers and how one wins (part of the union in `./events.ts`): `answer`,
 * votes and their refusal or reset, the `winner`, and the presenter's streamed final answer.
 */
import { z } from "zod";
import { ev } from "./event-envelope.js";

/** Builds the schemas of the answers and votes (see `buildCoordEventSchema` for why on demand). */
export function answerEventSchemas() {
  return {
    answer: ev("answer", {
      round: z.number().int().positive(),
      /** `agent<N>.<M>`. */
      label: z.string(),
      anonId: z.string(),
      content: z.string(),
    }),
    vote: ev("vote", {
      round: z.number().int().positive(),
      /** Real id of the agent voted for. */
      targetAgentId: z.string(),
      targetAnonId: z.string(),
      /** Label of the answer the vote is for. */
      label: z.string(),
      reason: z.string(),
    }),
    voteRefused: ev("vote-refused", {
      round: z.number().int().positive(),
      targetAnonId: z.string(),
      message: z.string(),
    }),
    votesReset: ev("votes-reset", {
      /** The answer label whose arrival cleared the votes. */
      causeLabel: z.string(),
      cleared: z.number().int().nonnegative(),
    }),
  };
}

/**
 * Builds the schemas of how the run's answer is chosen and given: the `winner` and the presenter's
 * streamed final answer (see `buildCoordEventSchema` for why on demand).
 */
export function outcomeEventSchemas() {
  return {
    winner: ev("winner", {
      anonId: z.string(),
      label: z.string(),
      /** Current votes for the winning answer's conclusion group (voting modes), any of its answers. */
      votes: z.number().int().nonnegative(),
      /** Votes per real agent id, for the final answer set. */
      tally: z.record(z.string(), z.number().int().nonnegative()),
      tieBroken: z.boolean(),
      /**
       * How the winner was chosen. `partial`: coordination did not complete (agents removed, the
       * budget reached) and the winner was chosen from the answers in hand, by the votes that
       * exist, else the first answer in config order.
       */
      basis: z.enum(["votes", "timeout", "single", "quick", "decomposition", "partial"]),
      /**
       * What broke a tie of the conclusion groups (docs/coordination.md "How the winner is
       * chosen"): more agents' first answers, votes from agents outside the group, or the earliest
       * answer. Present when `tieBroken`.
       */
      tieBasis: z.enum(["first answers", "votes from outside", "earliest answer"]).optional(),
      /** The winning answer's conclusion (a number, a choice letter, a short phrase), if it has one. */
      conclusion: z.string().optional(),
      /**
       * The answers grouped by conclusion, best first (voting mode): each group's conclusion
       * (absent for a free-form answer, a group of its own), the labels of its answers (superseded
       * ones included), its current votes, the agents that gave an answer in it and how many of
       * them with their first answer.
       */
      groups: z
        .array(
          z.object({
            conclusion: z.string().optional(),
            labels: z.array(z.string()),
            votes: z.number().int().nonnegative(),
            agents: z.number().int().nonnegative(),
            firstAnswers: z.number().int().nonnegative(),
          }),
        )
        .optional(),
    }),
    /** The presenter's streamed final answer opens (after `round-start` of kind `final`). */
    finalStart: ev("final-start", { blockId: z.string() }),
    finalDelta: ev("final-delta", { blockId: z.string(), text: z.string() }),
    finalEnd: ev("final-end", { blockId: z.string() }),
    finalAnswer: ev("final-answer", {
      /** `agent<N>.final`. */
      label: z.string(),
      content: z.string(),
      /** `presentation`: written in the final round; `answer`: the winning answer as is. */
      source: z.enum(["presentation", "answer"]),
    }),
  };
}
