/**
 * What the models are told (docs/coordination.md "Prompts"): the rules stated plainly, the current
 * answers in tagged blocks (`<agent1> … </agent1>`), anonymous ids only. Prompts are kept short:
 * small local models slow down sharply past a few hundred tokens of prompt.
 */
import { boundedAnswer, SAME_CONCLUSION_MIN_CHARS, shownAnswerTexts } from "./answer-excerpt.js";

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

/**
 * System prompt of a coordination round (voting mode), short by design (docs/coordination.md
 * "Prompts"): one sentence says what to do and with which tools (their schemas say the rest).
 * Before any answer exists an agent only answers: nothing about others to read or vote for.
 */
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
  // A round that shows answers names them itself (`<agent1>` blocks, the vote tool's ids): the
  // team needs saying only in an answering round, where nothing else shows it.
  const team =
    options.teamSize === 1 || options.canVote
      ? ""
      : `You are one of ${options.teamSize} agents answering the same message. `;
  const vote = "vote(agent_id, reason) for the best current answer";
  const answer = options.canVote
    ? "new_answer(content) with a better, self-contained answer"
    : "new_answer(content) with your complete answer";
  const tools =
    options.canVote && options.canAnswer
      ? `${vote}, or ${answer}`
      : options.canVote
        ? vote
        : answer;
  const task = options.canVote
    ? "End your turn with one tool call:"
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
 * {@link shownAnswerTexts}); the empty string when there are none (a first answer's prompt is a
 * single agent's: it has nothing to read).
 */
export function answersBlock(answers: readonly VisibleAnswer[]): string {
  if (answers.length === 0) return "";
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
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/**
 * The opening message of a `fresh_answers` tie round (`./tie-break.ts`): the question alone, as a
 * first answer's, so the answer is an independent sample (no answer shown, nothing about why).
 */
export function freshAnswerMessage(options: {
  question: string;
  history: readonly HistoryTurn[];
}): string {
  return coordinationUserMessage({ ...options, answers: [] });
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

/** Added to a presenter's system prompt when it has tools (docs/tools.md). */
export const PRESENTER_TOOLS_NOTE =
  "You present the final answer, so you alone may now write to the context paths with write permission: first make the changes the task asks for with your tools, then write the final answer.";

/**
 * System prompt of the final presentation (no workflow tools).
 * @param persona the presenter's persona, as {@link personaPrompt} softens it.
 * @param withTools the presenter has tools (files, commands, MCP) it may use now.
 */
export function presentationSystemPrompt(
  systemMessage: string | undefined,
  persona?: string,
  withTools = false,
): string {
  return [
    persona ?? "",
    systemMessage ?? "",
    "Your answer (marked yours) was chosen. Write the final answer to the original message for the user: your answer with its conclusion (result, choice or short answer) kept, complete and direct, improved with what the other answers got right that agrees with it. Do not mention the team, the votes or the process.",
    withTools ? PRESENTER_TOOLS_NOTE : "",
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** The most characters of a vote's reason shown to the presenter. */
export const MAX_VOTE_REASON_CHARS = 300;

/**
 * Other answers with the winner's conclusion shown with their working to the presenter; a later
 * one longer than `SAME_CONCLUSION_MIN_CHARS` is only named.
 */
export const MAX_SAME_CONCLUSION_WORKINGS = 1;

/**
 * User message of the final presentation. With `winnerConclusion` (the presentation keeps the
 * winner's number or choice: `orchestrator.presentation: keep_conclusion`): the presenter's own
 * answer whole; of the other answers that reach its conclusion, the first
 * {@link MAX_SAME_CONCLUSION_WORKINGS} bounded as a voter sees them (`./answer-excerpt.ts`) and
 * the later long ones named in one line; answers with no conclusion whole (free-form); an answer
 * with another conclusion left out (nothing of it can go into the final answer); the votes as
 * counts per answer shown or named. Otherwise (free synthesis, a free-form winner) every answer
 * whole and every vote with its reason cut to {@link MAX_VOTE_REASON_CHARS}; no votes block when
 * nobody voted. Answers are by real agent id, each once.
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
  const { winnerConclusion, presenterId } = options;
  const kept = winnerConclusion !== undefined;
  const yours = (answer: AttributedAnswer) => answer.agentId === presenterId;
  const blocks: string[] = [];
  const named: AttributedAnswer[] = [];
  const counted: AttributedAnswer[] = [];
  let workings = 0;
  for (const answer of options.answers) {
    const block = (text: string) =>
      `<answer agent="${answer.agentId}"${yours(answer) ? " yours" : ""}>\n${text}\n</answer>`;
    if (!kept || yours(answer)) {
      blocks.push(block(answer.content));
      counted.push(answer);
      continue;
    }
    const conclusion = options.conclusionOf?.(answer.label);
    if (conclusion !== undefined && conclusion !== winnerConclusion) continue;
    counted.push(answer);
    const long = answer.content.length > SAME_CONCLUSION_MIN_CHARS;
    if (conclusion !== undefined && long && workings >= MAX_SAME_CONCLUSION_WORKINGS) {
      named.push(answer);
      continue;
    }
    if (conclusion !== undefined) workings++;
    blocks.push(block(boundedAnswer(answer.content)));
  }
  const also =
    named.length === 0
      ? ""
      : `Also concluding ${winnerConclusion} (working left out): ${named.map((answer) => answer.agentId).join(", ")}.`;
  return [
    ...historyBlock(options.history),
    `<ORIGINAL MESSAGE>\n${options.question}\n</ORIGINAL MESSAGE>`,
    `<ANSWERS>\n${blocks.join("\n")}\n</ANSWERS>`,
    also,
    kept ? voteCounts(options.votes, counted) : voteReasons(options.votes),
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** `Votes: sim-1 2, sim-3 1.` for the answers given that have votes; "" when none has. */
function voteCounts(votes: readonly AttributedVote[], shown: readonly AttributedAnswer[]): string {
  const counts = shown.flatMap((answer) => {
    const count = votes.filter((vote) => vote.targetId === answer.agentId).length;
    return count > 0 ? [`${answer.agentId} ${count}`] : [];
  });
  return counts.length === 0 ? "" : `Votes: ${counts.join(", ")}.`;
}

/** The votes block, each vote with its reason cut to {@link MAX_VOTE_REASON_CHARS}; "" when none. */
function voteReasons(votes: readonly AttributedVote[]): string {
  if (votes.length === 0) return "";
  const lines = votes.map(
    (vote) =>
      `${vote.voterId} voted for ${vote.targetId}: ${vote.reason.length > MAX_VOTE_REASON_CHARS ? `${vote.reason.slice(0, MAX_VOTE_REASON_CHARS)} […]` : vote.reason}`,
  );
  return `<VOTES>\n${lines.join("\n")}\n</VOTES>`;
}
