/**
 * Final presentation (docs/coordination.md "Voting mode" step 7): the winner gets a fresh
 * conversation with no workflow tools, the current answers by real id and the votes (when it keeps
 * a number or choice conclusion, only the answers that can go into the final answer and the vote
 * counts: `presentationUserMessage`), and writes the final answer, streamed as `final-*` blocks.
 * If it produces nothing (or fails), its winning answer is the final answer.
 *
 * A presenter with tools (files, commands, MCP; docs/tools.md) may use them here, in a tool loop
 * of at most {@link MAX_PRESENTATION_STEPS} model calls: it alone may now write to context paths
 * with write permission. Afterwards its workspace is snapshotted as `agent<N>.final`, the run's
 * result.
 *
 * The presentation keeps the winner's conclusion (`orchestrator.presentation`,
 * default `keep_conclusion`): when the winning answer has a conclusion (`./conclusions.ts`) and
 * the presented text states another one, or none that mentions the winner's, the winning answer
 * is the final answer (`source: answer`) and a `warning` says so. `free` allows free synthesis.
 */
import type { ChatMessage, ModelRequest, ToolCall } from "../backends/index.js";
import type { Clock } from "../clock.js";
import type { LocalTool } from "../tools/index.js";
import { runLocalTool } from "./agent-round.js";
import type { Emitter } from "./emitter.js";
import { callModel } from "./model-call.js";
import {
  personaPrompt,
  PRESENTER_TOOLS_NOTE,
  presentationSystemPrompt,
  presentationUserMessage,
  type AttributedAnswer,
  type HistoryTurn,
} from "./prompts.js";
import type { EventOf } from "../events/index.js";
import { conclusionOf, isNumberOrChoice } from "./conclusions.js";
import { isContextLengthError } from "../backends/index.js";
import { contextWindowOf, fitAnswers } from "./context-fit.js";
import type { AgentState, Team } from "./team.js";

/** A mode's final presentation: the presenter's prompt and what stands in for its answer. */
export interface PresentationPlan {
  system: string;
  userMessage: string;
  /** The final answer when the presentation is skipped, fails or writes nothing. */
  fallback: string;
}
/** Model calls of one presentation with tools; the last one may not call tools. */
export const MAX_PRESENTATION_STEPS = 12;

export interface PresentationOptions {
  team: Team;
  presenter: AgentState;
  question: string;
  history: readonly HistoryTurn[];
  /** Use the presenter's answer as is, without a model call. */
  skip: boolean;
  /**
   * The mode's own presentation (decomposition: integrate the parts): its prompt, and the final
   * answer when the presentation is skipped or writes nothing. Default: the winner's prompt
   * (step 7) and its winning answer.
   */
  plan?: PresentationPlan | undefined;
  /**
   * Keep the winner's conclusion (`orchestrator.presentation: keep_conclusion`): a presentation
   * that states another conclusion is replaced by the winning answer. Default false.
   */
  keepConclusion?: boolean | undefined;
  /** Tools the presenter may use (besides its own `tools`), e.g. the team's. */
  localTools?: readonly LocalTool[];
  emitter: Emitter;
  clock: Clock;
  signal: AbortSignal;
}

/**
 * Emits the presentation round (`round-start` of kind `final`, the streamed final blocks, tool
 * calls, `usage`, `round-end`), `final-answer` and the presenter's final `workspace-snapshot`;
 * with `skip`, only the last two.
 * @returns the final answer text, or undefined when the signal aborted the presentation.
 */
export async function present(options: PresentationOptions): Promise<string | undefined> {
  const { team, presenter, emitter, clock } = options;
  const agentId = presenter.agent.id;
  const label = `${presenter.anonId}.final`;
  const fallback =
    options.plan?.fallback ?? presenter.answer?.content ?? team.visibleAnswers()[0]?.content ?? "";
  if (options.skip) {
    emitter.emit({ type: "final-answer", agentId, label, content: fallback, source: "answer" });
    await finalSnapshot(presenter, label, emitter);
    return fallback;
  }
  presenter.rounds++;
  const round = presenter.rounds;
  const started = clock.now();
  emitter.emit({
    type: "round-start",
    agentId,
    round,
    attempt: 1,
    kind: "final",
    answersSeen: team.visibleAnswers().map((answer) => answer.label),
  });
  let text = "";
  try {
    try {
      text = await presentationLoop(options, round);
    } catch (error) {
      // The answers together outgrew the presenter's context: once more, each shortened to fit.
      if (options.signal.aborted || options.plan !== undefined || !isContextLengthError(error))
        throw error;
      const fitted = fitAnswers(team.attributedAnswers(), {
        contextWindowTokens: contextWindowOf(error),
        fixedChars: options.question.length + 2000,
        attempt: 1,
      });
      emitter.emit({
        type: "warning",
        agentId,
        source: `${presenter.agent.backend.type}/${presenter.agent.backend.model}`,
        message: `the presentation prompt exceeded the model's context; the answers were shortened to ${fitted.maxChars} characters each (the logs keep them whole)`,
      });
      text = await presentationLoop(options, round, fitted.answers);
    }
  } catch (error) {
    if (options.signal.aborted) {
      emitter.emit({
        type: "round-end",
        agentId,
        round,
        outcome: "aborted",
        durationMs: clock.now() - started,
      });
      return undefined;
    }
    emitter.emit({
      type: "agent-error",
      agentId,
      round,
      message: `final presentation failed, using the winning answer: ${error instanceof Error ? error.message : String(error)}`,
      retryable: false,
      fatal: false,
    });
  }
  emitter.emit({
    type: "round-end",
    agentId,
    round,
    outcome: "final",
    durationMs: clock.now() - started,
  });
  const overturned =
    text !== "" && options.keepConclusion === true ? changesConclusion(options, text) : undefined;
  if (overturned !== undefined) {
    emitter.emit({
      type: "warning",
      agentId,
      source: "presentation",
      message: `the presentation concluded ${overturned.presented}, not the winning answer's ${overturned.winner}; the winning answer is the final answer (orchestrator.presentation: keep_conclusion)`,
    });
  }
  const presented = text !== "" && overturned === undefined;
  const content = presented ? text : fallback;
  emitter.emit({
    type: "final-answer",
    agentId,
    label,
    content,
    source: presented ? "presentation" : "answer",
  });
  await finalSnapshot(presenter, label, emitter);
  return content;
}

/**
 * The presenter's model calls: one without tools, or a tool loop with them.
 * @returns the text of the last call that wrote any, trimmed: text written before a tool call
 *   ("let me update the file first") is a step, not the answer, as the live display shows it.
 * @throws what the backend throws.
 */
async function presentationLoop(
  options: PresentationOptions,
  round: number,
  answers: readonly AttributedAnswer[] = options.team.attributedAnswers(),
): Promise<string> {
  const { team, presenter, emitter, clock, signal } = options;
  const agent = presenter.agent;
  const tools = [...(agent.tools ?? []), ...(options.localTools ?? [])];
  const byName = new Map(tools.map((tool) => [tool.spec.name, tool]));
  const messages: ChatMessage[] = [
    {
      role: "user",
      content:
        options.plan?.userMessage ??
        presentationUserMessage({
          question: options.question,
          history: options.history,
          answers,
          votes: team.attributedVotes(),
          presenterId: agent.id,
          winnerConclusion: keptConclusion(options),
          conclusionOf: (label) => team.conclusionOf(label),
        }),
    },
  ];
  const withTools = tools.length > 0;
  const system = options.plan
    ? [options.plan.system, withTools ? PRESENTER_TOOLS_NOTE : ""].filter(Boolean).join("\n\n")
    : presentationSystemPrompt(
        agent.systemMessage,
        personaPrompt(presenter.persona, true),
        withTools,
      );
  let text = "";
  for (let step = 1; step <= (tools.length > 0 ? MAX_PRESENTATION_STEPS : 1); step++) {
    if (agent.workspace) {
      await agent.workspace.refreshView().catch(() => undefined);
      signal.throwIfAborted();
    }
    const last = tools.length === 0 || step === MAX_PRESENTATION_STEPS;
    const request: ModelRequest = {
      system,
      messages: [...messages],
      tools: tools.map((tool) => tool.spec),
      toolChoice: last ? "none" : "auto",
      ...(agent.temperature !== undefined ? { temperature: agent.temperature } : {}),
      ...(agent.maxOutputTokens !== undefined ? { maxOutputTokens: agent.maxOutputTokens } : {}),
    };
    const reply = await callModel({
      agentId: agent.id,
      backend: agent.backend,
      request,
      round,
      emitter,
      clock,
      signal,
      textAs: "final",
    });
    if (reply.text.trim() !== "") text = reply.text.trim();
    const calls: ToolCall[] = last ? [] : reply.toolCalls;
    if (calls.length === 0) break;
    messages.push({ role: "assistant", content: reply.text, toolCalls: calls });
    for (const call of calls) {
      const result = await runLocalTool(call, byName, {
        agentId: agent.id,
        round,
        emitter,
        clock,
        signal,
        presenting: true,
      });
      messages.push({
        role: "tool",
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        ...result,
      });
    }
  }
  return text;
}

/**
 * The winner's and the presentation's conclusions when the presentation changed it; undefined
 * when it kept it, when it cannot tell, when the winning answer has none (free-form), or for a
 * mode's own presentation. The presentation's conclusion is compared only when it is of the same
 * kind: for a numeric winner, the presentation's conclusion if numeric, else its last number;
 * for a choice letter, a choice letter; for a short phrase, any conclusion it has.
 */
function changesConclusion(
  options: PresentationOptions,
  text: string,
): { winner: string; presented: string } | undefined {
  const label = options.presenter.answer?.label;
  if (options.plan !== undefined || label === undefined) return undefined;
  const winner = options.team.conclusionOf(label);
  if (winner === undefined) return undefined;
  // Only short answers of the same kind are compared (a number with a number, a choice letter
  // with a choice letter): free text and a presentation that states no conclusion are kept.
  if (!isNumberOrChoice(winner)) return undefined;
  const presented = conclusionOf(text);
  if (presented === undefined || NUMERIC.test(presented) !== NUMERIC.test(winner)) return undefined;
  if (!isNumberOrChoice(presented)) return undefined;
  return presented === winner ? undefined : { winner, presented };
}

const NUMERIC = /^-?\d+(?:\.\d+)?$/;

/**
 * The winner's conclusion when the presentation keeps it and it is a number or a choice letter
 * (then the other answers' working that leads elsewhere is left out of the prompt); else undefined.
 */
function keptConclusion(options: PresentationOptions): string | undefined {
  const label = options.presenter.answer?.label;
  if (options.keepConclusion !== true || options.plan !== undefined || label === undefined)
    return undefined;
  const winner = options.team.conclusionOf(label);
  return winner !== undefined && isNumberOrChoice(winner) ? winner : undefined;
}

/** True when `orchestrator.presentation` keeps the winner's conclusion for a winner chosen so. */
export function keepsConclusion(
  settings: { presentation?: "keep_conclusion" | "free" | undefined },
  basis: EventOf<"winner">["basis"],
): boolean {
  return (
    settings.presentation !== "free" &&
    (basis === "votes" || basis === "timeout" || basis === "partial")
  );
}

/** The `winner` event's conclusion fields from the team's tally (voting modes). */
export function winnerGroups(
  tally: ReturnType<Team["tally"]>,
  basis: EventOf<"winner">["basis"],
): Pick<EventOf<"winner">, "groups" | "conclusion" | "tieBasis"> {
  if (tally === undefined || !(basis === "votes" || basis === "timeout" || basis === "partial"))
    return {};
  return {
    ...(tally.conclusion !== undefined ? { conclusion: tally.conclusion } : {}),
    ...(basis === "votes" && tally.tieBasis !== undefined ? { tieBasis: tally.tieBasis } : {}),
    groups: tally.groups.map((group) => ({
      ...(group.conclusion !== undefined ? { conclusion: group.conclusion } : {}),
      labels: group.labels,
      votes: group.votes,
      agents: group.answeredBy.length,
      firstAnswers: group.firstAnswers,
    })),
  };
}

/** Snapshots the presenter's workspace as the run's result (when it has one). */
async function finalSnapshot(
  presenter: AgentState,
  label: string,
  emitter: Emitter,
): Promise<void> {
  const hooks = presenter.agent.workspace;
  if (hooks?.snapshot === undefined) return;
  const report = await hooks.snapshot(label).catch(() => undefined);
  if (report)
    emitter.emit({ type: "workspace-snapshot", agentId: presenter.agent.id, label, ...report });
}
