/**
 * What the models are told in decomposition mode (docs/coordination.md "Other modes"): the
 * decomposer's request, each agent's round (its own subtask, the others' subtasks, the current
 * answers in tagged blocks), and the presenter's integration of every part. Anonymous ids only,
 * except in the presentation (real ids, as in voting mode's step 7).
 */
import { historyBlock, type HistoryTurn } from "../prompts.js";

/** One agent's subtask under its anonymous id. */
export interface AssignedSubtask {
  anonId: string;
  subtask: string;
}

/**
 * The subtask of an agent without one when the decomposer call failed: the whole task, with the
 * others' answers deciding where to put the effort.
 */
export const FALLBACK_SUBTASK =
  "The whole task (it could not be split): read the other agents' answers and concentrate on what they leave out.";

/** System prompt of the decomposer call. */
export function decomposerSystemPrompt(teamSize: number): string {
  return [
    `You split a task among a team of ${teamSize} agents (agent1 … agent${teamSize}) who work in parallel, one subtask each, and whose parts are then integrated into one answer.`,
    "Give every agent one distinct, self-contained subtask so that together the subtasks cover the whole task with as little overlap as possible. Write each subtask in one to three sentences, saying what that agent must produce.",
    "Answer only with the assign_subtasks tool.",
  ].join("\n");
}

/** User message of the decomposer call: the task, and the subtasks already fixed by the config. */
export function decomposerUserMessage(options: {
  question: string;
  history: readonly HistoryTurn[];
  /** Every agent in config order; `subtask` set where the config fixes it. */
  agents: ReadonlyArray<{ anonId: string; subtask: string | undefined }>;
}): string {
  const fixed = options.agents.filter((agent) => agent.subtask !== undefined);
  const open = options.agents.filter((agent) => agent.subtask === undefined);
  return [
    ...historyBlock(options.history),
    `<TASK>\n${options.question}\n</TASK>`,
    ...(fixed.length > 0
      ? [
          `Already assigned (keep these as they are and split the rest around them):\n${fixed.map((agent) => `- ${agent.anonId}: ${agent.subtask}`).join("\n")}`,
        ]
      : []),
    `Write a subtask for: ${open.map((agent) => agent.anonId).join(", ")}.`,
  ].join("\n\n");
}

/** System prompt of a decomposition round. */
export function decompositionSystemPrompt(options: {
  persona?: string | undefined;
  systemMessage?: string | undefined;
  anonId: string;
  /** Every agent's subtask, config order (the agent's own included). */
  subtasks: readonly AssignedSubtask[];
  /** False at the answer cap (`max_new_answers_global`): only `stop` is offered. */
  canAnswer: boolean;
}): string {
  const own = options.subtasks.find((entry) => entry.anonId === options.anonId);
  const others = options.subtasks.filter((entry) => entry.anonId !== options.anonId);
  const rules = [
    `You are ${options.anonId}, one of ${options.subtasks.length} agents working on one task that was split into one subtask per agent. Agents are anonymous: agent1, agent2, and so on.`,
    `Your subtask: ${own?.subtask ?? "(none)"}`,
    ...(others.length > 0
      ? [
          `The others' subtasks:\n${others.map((entry) => `- ${entry.anonId}: ${entry.subtask}`).join("\n")}`,
        ]
      : []),
    "Spend your effort on your own subtask. Read the other agents' current answers where they meet yours (shared assumptions, interfaces, overlaps, contradictions) and adjust your part to fit; do not redo their parts.",
    "End your turn with exactly one tool call:",
    ...(options.canAnswer
      ? ["- new_answer(content): your complete, improved part (it replaces your previous one)."]
      : []),
    "- stop(status, summary): status complete when your current answer is your finished part; status blocked, saying why, when you cannot go on. A new answer from another agent wakes you up again.",
  ];
  return [options.persona ?? "", options.systemMessage ?? "", rules.join("\n")]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** One part for the integration: its author (real id), subtask, answer and stop. */
export interface IntegrationPart {
  agentId: string;
  label: string | undefined;
  subtask: string;
  content: string | undefined;
  stop: { status: "complete" | "blocked"; summary: string } | undefined;
}

/** System prompt of the presenter's integration (no workflow tools). */
export function integrationSystemPrompt(
  systemMessage: string | undefined,
  persona: string | undefined,
): string {
  return [
    persona ?? "",
    systemMessage ?? "",
    "Your team split the task into subtasks and each agent wrote its own part. Integrate every part into one complete final answer to the original message: keep each part's substance, make them fit together, remove overlaps, resolve contradictions, and fill small gaps. Where a part is missing or its agent was blocked, say plainly what remains open. Do not mention the team, the agents or the process.",
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** User message of the integration: the original message and every part, in config order. */
export function integrationUserMessage(options: {
  question: string;
  history: readonly HistoryTurn[];
  parts: readonly IntegrationPart[];
  presenterId: string;
}): string {
  const parts = options.parts.map((part) => {
    const attributes = [
      `agent="${part.agentId}"`,
      ...(part.label !== undefined ? [`label="${part.label}"`] : []),
      `status="${part.stop?.status ?? "working"}"`,
      ...(part.agentId === options.presenterId ? ["yours"] : []),
    ].join(" ");
    const body = [
      `Subtask: ${part.subtask}`,
      part.content ?? "(no answer)",
      ...(part.stop !== undefined && part.stop.summary !== ""
        ? [`${part.stop.status === "blocked" ? "Blocked" : "Summary"}: ${part.stop.summary}`]
        : []),
    ].join("\n");
    return `<part ${attributes}>\n${body}\n</part>`;
  });
  return [
    ...historyBlock(options.history),
    `<ORIGINAL MESSAGE>\n${options.question}\n</ORIGINAL MESSAGE>`,
    `<PARTS>\n${parts.join("\n")}\n</PARTS>`,
    "Write the integrated final answer now.",
  ].join("\n\n");
}

/**
 * The final answer without a presentation call (`skip_final_presentation`, or the call failed):
 * the parts that have an answer, in config order, one paragraph block each.
 */
export function joinedParts(parts: readonly IntegrationPart[]): string {
  return parts.flatMap((part) => (part.content !== undefined ? [part.content] : [])).join("\n\n");
}
