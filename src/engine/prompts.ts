/**
 * What the models are told (COORDINATION.md "Prompts"): the rules stated plainly, the current
 * answers in tagged blocks (`<agent1> … </agent1>`), anonymous ids only. Prompts are kept short:
 * small local models slow down sharply past a few hundred tokens of prompt.
 */

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
 * The persona as an agent's system prompt states it (COORDINATION.md "Other modes", personas): as
 * generated while the agent sees no other agent's answer; once it can, softened to a preference,
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
  const choices: string[] = [];
  if (options.canAnswer) choices.push("- new_answer(content): give your own complete answer.");
  if (options.canVote) choices.push("- vote(agent_id, reason): choose the best current answer.");
  const intro =
    options.teamSize === 1
      ? "Answer the original message, then end your turn with exactly one tool call:"
      : `You are one of ${options.teamSize} agents answering the same message. Agents are anonymous: agent1, agent2, and so on.\nRead the original message and the current answers, then end your turn with exactly one tool call:`;
  parts.push(
    [
      intro,
      ...choices,
      options.canVote && options.canAnswer ? SENSITIVITY[options.sensitivity] : "",
      options.canAnswer
        ? "A new answer must stand on its own: the reader will not see the others."
        : "",
    ]
      .filter((line) => line !== "")
      .join("\n"),
  );
  return parts.join("\n\n");
}

/** The answers block: `<agent1>\n…\n</agent1>` per answer, or a line saying there are none. */
export function answersBlock(answers: readonly VisibleAnswer[]): string {
  if (answers.length === 0) return "<CURRENT ANSWERS>\n(no answers yet)\n</CURRENT ANSWERS>";
  const blocks = answers.map(
    (answer) => `<${answer.anonId}>\n${answer.content}\n</${answer.anonId}>`,
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

/** The update message of COORDINATION.md step 4: new answers arrived while the agent worked. */
export function updateMessage(answers: readonly VisibleAnswer[]): string {
  return [
    "UPDATE: the answers changed while you were working. Votes are only valid for the current answers, which are now:",
    answersBlock(answers),
    "Take them into account before you end your turn.",
  ].join("\n\n");
}

/** Tool-error text for a vote cast on an answer set the agent had not seen. */
export function staleVoteMessage(answers: readonly VisibleAnswer[]): string {
  return [
    "Vote refused: new answers arrived after you last looked, so the vote would be for an answer set that no longer exists.",
    answersBlock(answers),
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
    "Your team has finished deliberating and your answer was chosen. Write the final answer to the original message for the user: present the winning answer (yours), keeping its conclusion (its result, choice or short answer), complete, direct, and improved with anything the other answers and the votes got right that agrees with it. Do not mention the team, the votes or the process.",
    withTools ? PRESENTER_TOOLS_NOTE : "",
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** User message of the final presentation: all answers by real agent id, and the votes. */
export function presentationUserMessage(options: {
  question: string;
  history: readonly HistoryTurn[];
  answers: readonly AttributedAnswer[];
  votes: readonly AttributedVote[];
  presenterId: string;
}): string {
  const answers = options.answers.map(
    (answer) =>
      `<answer agent="${answer.agentId}" label="${answer.label}"${answer.agentId === options.presenterId ? " yours" : ""}>\n${answer.content}\n</answer>`,
  );
  const votes =
    options.votes.length === 0
      ? "(no votes)"
      : options.votes
          .map((vote) => `${vote.voterId} voted for ${vote.targetId}: ${vote.reason}`)
          .join("\n");
  return [
    ...historyBlock(options.history),
    `<ORIGINAL MESSAGE>\n${options.question}\n</ORIGINAL MESSAGE>`,
    `<ANSWERS>\n${answers.join("\n")}\n</ANSWERS>`,
    `<VOTES>\n${votes}\n</VOTES>`,
    `The winning answer is ${options.presenterId}'s (marked yours). Write the final answer now, keeping its conclusion.`,
  ].join("\n\n");
}
