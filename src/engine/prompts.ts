/**
 * What the models are told (docs/coordination.md "Prompts"): the rules stated plainly, the current
 * answers in tagged blocks (`<agent1> … </agent1>`), anonymous ids only. Prompts are kept short:
 * small local models slow down sharply past a few hundred tokens of prompt.
 */
import { boundedAnswer, shownAnswerTexts } from "./answer-excerpt.js";

/** One turn of earlier conversation (multi-turn chat). */
export interface HistoryTurn {
  role: "user" | "assistant";
  content: string;
}

/** An answer as an agent sees it: anonymous id and text. */
export interface VisibleAnswer {
  anonId: string;
  /** `agent<N>.<M>`; for logs, not shown to the model. */
  label: string;
  content: string;
}

const SENSITIVITY: Record<"lenient" | "balanced" | "strict", string> = {
  lenient:
    "If an existing answer is correct and complete, vote for it rather than writing another.",
  balanced:
    "Vote for an existing answer only when it is correct, complete and well argued; otherwise write a better one.",
  strict:
    "Vote only for an answer you could not meaningfully improve; when in doubt, write a better answer.",
};

/** The `voting_sensitivity` line: when to vote rather than write another answer. */
export function sensitivityLine(sensitivity: "lenient" | "balanced" | "strict"): string {
  return SENSITIVITY[sensitivity];
}

/**
 * The persona as an agent's system prompt states it (docs/coordination.md "Other modes", personas):
 * as generated while the agent sees no other agent's answer; once it can, softened to a preference,
 * so it judges every answer on its merits instead of defending its first view.
 * @param peersVisible the round shows at least one answer by another agent.
 */
export function personaPrompt(
  persona: string | undefined,
  peersVisible: boolean,
): string | undefined {
  if (persona === undefined || persona.trim() === "") return undefined;
  if (!peersVisible) return persona;
  return [
    "Your starting perspective was:",
    persona,
    "You can now see other agents' answers. Treat that perspective as a preference, not a position to defend: judge every answer on its merits and build on the strongest ideas, whoever had them.",
  ].join("\n");
}

/** System prompt of a coordination round (voting mode). */
export function coordinationSystemPrompt(options: {
  systemMessage?: string | undefined;
  persona?: string | undefined;
  teamSize: number;
  sensitivity: "lenient" | "balanced" | "strict";
  /** False when the agent is at its answer cap (vote-only). */
  canAnswer: boolean;
  /** False when no answer exists yet (vote not offered). */
  canVote: boolean;
}): string {
  const parts: string[] = [];
  if (options.persona) parts.push(options.persona);
  if (options.systemMessage) parts.push(options.systemMessage);
  // One sentence says what to do and with which tools (their schemas say the rest); before any
  // answer exists an agent only answers: nothing about others to read or vote for.
  const team =
    options.teamSize === 1
      ? ""
      : `You are one of ${options.teamSize} agents answering the same message. `;
  const vote = "vote(agent_id, reason) for the best answer";
  const answer = options.canVote
    ? "new_answer(content) with your own complete answer, which must stand on its own (the reader will not see the others)"
    : "new_answer(content) with your complete answer";
  const tools =
    options.canVote && options.canAnswer
      ? `${vote}, or ${answer}`
      : options.canVote
        ? vote
        : answer;
  const task = options.canVote
    ? "Read it and the current answers (anonymous: agent1, agent2, …), then end your turn with one tool call:"
    : "Answer the original message, then end your turn with one tool call:";
  parts.push(
    [
      `${team}${task} ${tools}.`,
      options.canVote && options.canAnswer ? SENSITIVITY[options.sensitivity] : "",
    ]
      .filter((line) => line !== "")
      .join("\n"),
  );
  return parts.join("\n\n");
}

/**
 * The answers block: `<agent1>\n…\n</agent1>` per answer, each once (a long answer with a number
 * or choice conclusion bounded, or named when an earlier one has its conclusion:
 * {@link shownAnswerTexts}), or a line saying there are none.
 */
export function answersBlock(answers: readonly VisibleAnswer[]): string {
  if (answers.length === 0) return "<CURRENT ANSWERS>\n(no answers yet)\n</CURRENT ANSWERS>";
  const texts = shownAnswerTexts(answers);
  const blocks = answers.map(
    (answer, index) => `<${answer.anonId}>\n${texts[index]!}\n</${answer.anonId}>`,
  );
  return `<CURRENT ANSWERS>\n${blocks.join("\n")}\n</CURRENT ANSWERS>`;
}

/** The conversation history block, or nothing for a first turn. */
export function historyBlock(history: readonly HistoryTurn[]): string[] {
  if (history.length === 0) return [];
  const lines = history.map(
    (turn) => `${turn.role === "user" ? "User" : "Assistant"}: ${turn.content}`,
  );
  return [`<CONVERSATION HISTORY>\n${lines.join("\n")}\n</CONVERSATION HISTORY>`];
}

/** The user message that opens a coordination round. */
export function coordinationUserMessage(options: {
  question: string;
  history: readonly HistoryTurn[];
  answers: readonly VisibleAnswer[];
}): string {
  return [
    ...historyBlock(options.history),
    `<ORIGINAL MESSAGE>\n${options.question}\n</ORIGINAL MESSAGE>`,
    answersBlock(options.answers),
  ].join("\n\n");
}

/**
 * The opening message of a `fresh_answers` tie round (`./tie-break.ts`): the question alone, so
 * the answer is an independent sample.
 */
export function freshAnswerMessage(options: {
  question: string;
  history: readonly HistoryTurn[];
}): string {
  return [
    ...historyBlock(options.history),
    `<ORIGINAL MESSAGE>\n${options.question}\n</ORIGINAL MESSAGE>`,
    "Work out your own complete answer to the original message from the start, then call new_answer. The team's answers are not shown, so that yours is independent.",
  ].join("\n\n");
}

/** Put after the answers of a `revote` tie round (`./tie-break.ts`). */
export function tieVoteNotice(tied: readonly string[]): string {
  const names = tied.length > 1 ? `${tied.slice(0, -1).join(", ")} and ${tied.at(-1)}` : tied[0];
  return `The vote is tied between ${names}. Read the answers again and vote once more for the one you judge right: call vote.`;
}

/**
 * The answers of `answers` the agent has not been shown (each sent once per prompt: an answer
 * already in the conversation is named, not repeated), as a block; `shown` undefined: all.
 */
function changedAnswersBlock(
  answers: readonly VisibleAnswer[],
  shown: ReadonlySet<string> | undefined,
): string {
  if (shown === undefined) return answersBlock(answers);
  const fresh = answers.filter((answer) => !shown.has(answer.label));
  const same = answers.filter((answer) => shown.has(answer.label)).map((answer) => answer.anonId);
  const block = answersBlock(fresh.length > 0 ? fresh : answers);
  if (fresh.length === 0 || same.length === 0) return block;
  return `${block}\nUnchanged, as shown before: ${same.join(", ")}.`;
}

/**
 * The update message of docs/coordination.md "Voting mode" step 4: new answers arrived while the
 * agent worked.
 * @param shown labels of the answers already in the conversation: only the others are repeated.
 */
export function updateMessage(
  answers: readonly VisibleAnswer[],
  shown?: ReadonlySet<string>,
): string {
  return [
    "UPDATE: the answers changed while you were working. Votes are only valid for the current answers, which are now:",
    changedAnswersBlock(answers, shown),
    "Take them into account before you end your turn.",
  ].join("\n\n");
}

/**
 * Tool-error text for a vote cast on an answer set the agent had not seen.
 * @param shown labels of the answers already in the conversation: only the others are repeated.
 */
export function staleVoteMessage(
  answers: readonly VisibleAnswer[],
  shown?: ReadonlySet<string>,
): string {
  return [
    "Vote refused: new answers arrived after you last looked, so the vote would be for an answer set that no longer exists.",
    changedAnswersBlock(answers, shown),
    "Consider these and make your workflow call again.",
  ].join("\n\n");
}

/** An answer with its real author, for the final presentation. */
export interface AttributedAnswer {
  agentId: string;
  label: string;
  content: string;
}

/** A vote with its real voter and target ids. */
export interface AttributedVote {
  voterId: string;
  targetId: string;
  reason: string;
}

/**
 * System prompt of the final presentation (no workflow tools).
 * @param withTools the presenter has tools (files, commands, MCP) it may use now.
 */
/** Added to a presenter's system prompt when it has tools (docs/tools.md). */
export const PRESENTER_TOOLS_NOTE =
  "You present the final answer, so you alone may now write to the context paths with write permission: first make the changes the task asks for with your tools, then write the final answer.";

export function presentationSystemPrompt(
  systemMessage: string | undefined,
  persona?: string,
  withTools = false,
): string {
  return [
    persona ?? "",
    systemMessage ?? "",
    "Your answer was chosen. Write the final answer to the original message for the user: present the winning answer (yours), keeping its conclusion (its result, choice or short answer), complete, direct, and improved with anything the other answers and the votes got right that agrees with it. Do not mention the team, the votes or the process.",
    withTools ? PRESENTER_TOOLS_NOTE : "",
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** The most characters of a vote's reason shown to the presenter. */
export const MAX_VOTE_REASON_CHARS = 300;

/**
 * User message of the final presentation: the winning answer whole, the others by real agent id
 * (each once), and the votes. With `winnerConclusion` (the presentation keeps the winner's number
 * or choice: `orchestrator.presentation: keep_conclusion`), an answer with another conclusion is
 * shown as that conclusion alone (nothing of it can go into the final answer), one with the same
 * conclusion bounded like a voter sees it (`./answer-excerpt.ts`); otherwise every answer whole.
 * A vote's reason is cut to {@link MAX_VOTE_REASON_CHARS}.
 */
export function presentationUserMessage(options: {
  question: string;
  history: readonly HistoryTurn[];
  answers: readonly AttributedAnswer[];
  votes: readonly AttributedVote[];
  presenterId: string;
  /** The winner's conclusion when it is kept and is a number or choice letter. */
  winnerConclusion?: string | undefined;
  /** The conclusion of an answer, by label (`Team.conclusionOf`). */
  conclusionOf?: ((label: string) => string | undefined) | undefined;
}): string {
  const { winnerConclusion } = options;
  const shown = (answer: AttributedAnswer): string => {
    if (answer.agentId === options.presenterId || winnerConclusion === undefined)
      return answer.content;
    const conclusion = options.conclusionOf?.(answer.label);
    const note = `Its conclusion: ${conclusion} (not yours; its working is left out).`;
    // A shorter answer than the note is shown whole: it costs less than saying it is left out.
    if (conclusion !== undefined && conclusion !== winnerConclusion)
      return note.length < answer.content.length ? note : answer.content;
    return boundedAnswer(answer.content);
  };
  const answers = options.answers.map(
    (answer) =>
      `<answer agent="${answer.agentId}"${answer.agentId === options.presenterId ? " yours" : ""}>\n${shown(answer)}\n</answer>`,
  );
  const votes =
    options.votes.length === 0
      ? "(no votes)"
      : options.votes
          .map(
            (vote) =>
              `${vote.voterId} voted for ${vote.targetId}: ${vote.reason.length > MAX_VOTE_REASON_CHARS ? `${vote.reason.slice(0, MAX_VOTE_REASON_CHARS)} […]` : vote.reason}`,
          )
          .join("\n");
  return [
    ...historyBlock(options.history),
    `<ORIGINAL MESSAGE>\n${options.question}\n</ORIGINAL MESSAGE>`,
    `<ANSWERS>\n${answers.join("\n")}\n</ANSWERS>`,
    `<VOTES>\n${votes}\n</VOTES>`,
    `The winning answer is ${options.presenterId}'s (marked yours).`,
  ].join("\n\n");
}
