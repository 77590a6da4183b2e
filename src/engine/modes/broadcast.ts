/**
 * `ask_others(question)`, planning mode's tool for `--broadcast human|agents` (docs/planning.md;
 * MassGen's broadcast channel):
 *
 * - `human`: the question goes to the user through the injected {@link HumanChannel} (the
 *   terminal UI's input line); the asking agent waits for the answer, which comes back as the
 *   tool result and is put in every agent's system prompt from then on.
 * - `agents`: every other live agent replies at once in a side call of its own backend (its
 *   system message, its current plan, the question; no tools), without interrupting its round;
 *   the replies come back together as the tool result.
 *
 * Events: `broadcast-question`, then one `broadcast-reply` per reply (`from: human` or the
 * replying agent's id); a side call also gives its `usage`. At most
 * {@link MAX_QUESTIONS_PER_AGENT} questions per agent and run.
 */
import type { LocalTool } from "../../tools/index.js";
import { callModel } from "../model-call.js";
import type { ModeContext } from "./mode.js";
import { MAX_QUESTIONS_PER_AGENT, replySystemPrompt, replyUserMessage } from "./plan-prompts.js";
import type { BroadcastMode } from "./plan-settings.js";
import type { AgentState } from "../team.js";

export const ASK_OTHERS = "ask_others";

/** True while `agent` may still ask (broadcast on, questions left). */
export function canAsk(agent: AgentState, broadcast: BroadcastMode): boolean {
  return broadcast !== false && agent.questionsAsked < MAX_QUESTIONS_PER_AGENT;
}

/** The `ask_others` tool of one agent. */
export function askOthersTool(
  agent: AgentState,
  broadcast: Exclude<BroadcastMode, false>,
  context: ModeContext,
): LocalTool {
  return {
    spec: {
      name: ASK_OTHERS,
      description:
        broadcast === "human"
          ? "Ask the user a short, specific question about the task; waits for the answer."
          : "Ask the other agents a question; waits for their replies.",
      inputSchema: {
        type: "object",
        properties: { question: { type: "string", description: "The question, on its own." } },
        required: ["question"],
        additionalProperties: false,
      },
    },
    async execute(input, call) {
      const question =
        input !== null && typeof input === "object"
          ? (input as Record<string, unknown>).question
          : undefined;
      if (typeof question !== "string" || question.trim() === "")
        throw new Error(`${ASK_OTHERS} needs a non-empty "question".`);
      if (!canAsk(agent, broadcast))
        throw new Error(
          `You have asked ${MAX_QUESTIONS_PER_AGENT} questions already: decide yourself and state your assumptions in the plan.`,
        );
      agent.questionsAsked++;
      const { team, emitter } = context;
      team.questionCount++;
      const questionId = `q${team.questionCount}`;
      emitter.emit({
        type: "broadcast-question",
        agentId: agent.agent.id,
        round: Math.max(1, agent.rounds),
        questionId,
        to: broadcast,
        question: question.trim(),
      });
      return broadcast === "human"
        ? askHuman(agent, questionId, question.trim(), context, call.signal)
        : askAgents(agent, questionId, question.trim(), context, call.signal);
    },
  };
}

async function askHuman(
  agent: AgentState,
  questionId: string,
  question: string,
  context: ModeContext,
  signal: AbortSignal,
): Promise<string> {
  if (context.human === undefined)
    throw new Error("Nobody can answer questions in this run: decide yourself.");
  const answer = (
    await context.human.ask(
      { questionId, agentId: agent.agent.id, anonId: agent.anonId, question },
      signal,
    )
  ).trim();
  context.emitter.emit({ type: "broadcast-reply", questionId, from: "human", text: answer });
  context.team.answeredQuestions.push({ anonId: agent.anonId, question, answer });
  return answer === ""
    ? "The user gave no answer: decide yourself and state your assumption in the plan."
    : `The user answered: ${answer}`;
}

async function askAgents(
  asker: AgentState,
  questionId: string,
  question: string,
  context: ModeContext,
  signal: AbortSignal,
): Promise<string> {
  const { team, emitter, clock } = context;
  const others = team.live().filter((agent) => agent !== asker);
  if (others.length === 0) return "There are no other agents to ask: decide yourself.";
  const replies = await Promise.all(
    others.map(async (other) => {
      try {
        const reply = await callModel({
          agentId: other.agent.id,
          backend: other.agent.backend,
          request: {
            system: replySystemPrompt({
              systemMessage: other.agent.systemMessage,
              anonId: other.anonId,
              askerAnonId: asker.anonId,
              teamSize: team.agents.length,
            }),
            messages: [
              {
                role: "user",
                content: replyUserMessage({
                  question: context.conversation.question,
                  ownPlan: other.answer?.content,
                  asked: question,
                }),
              },
            ],
            tools: [],
            toolChoice: "none",
          },
          round: Math.max(1, other.rounds),
          emitter,
          clock,
          signal,
          textAs: "none",
        });
        const text = reply.text.trim();
        emitter.emit({
          type: "broadcast-reply",
          agentId: other.agent.id,
          questionId,
          from: other.agent.id,
          text,
        });
        return `${other.anonId}: ${text === "" ? "(no reply)" : text}`;
      } catch (error) {
        if (signal.aborted) throw error;
        emitter.emit({
          type: "warning",
          agentId: other.agent.id,
          source: "broadcast",
          message: `${other.agent.id} could not reply to ${questionId}: ${error instanceof Error ? error.message : String(error)}`,
        });
        return `${other.anonId}: (could not reply)`;
      }
    }),
  );
  return `Replies:\n${replies.join("\n")}`;
}
