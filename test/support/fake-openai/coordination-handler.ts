/**
 * {@link coordinationHandler}: a fake-server handler that plays a well-behaved coordinating agent
 * (answer with `new_answer`, vote once answers exist, plain text when no tools are offered), for
 * tests and for the standalone fake server process (`fake-openai-server-main.ts`).
 */
import type { FakeHandler, FakeUsage } from "./fake-reply.js";
import { summarizeRequest, type RequestSummary } from "./summarize-request.js";
import { isRecord } from "./wire-helpers.js";

/** Options of {@link coordinationHandler}. */
export interface CoordinationHandlerOptions {
  /** Content of `new_answer` calls. Default: `"The answer is 42."`. */
  answer?: string | ((summary: RequestSummary) => string);
  /** Whom to vote for: default `agent1`, or the first id the `vote` tool allows. */
  voteFor?: string;
  /** Reason given with votes. */
  reason?: string;
  /** Plain-text final answer when no tools are offered. */
  finalAnswer?: string | ((summary: RequestSummary) => string);
  /** Usage to report on every reply. */
  usage?: FakeUsage;
  /**
   * Text of each entry of a planning call (`assign_personas`, `assign_subtasks`: one string per
   * anonymous id). Default: a distinct sentence per id naming the tool and the id.
   */
  plan?: (tool: string, anonId: string) => string;
  /** Summary of `stop` calls (decomposition mode). */
  stopSummary?: string;
}

/** Distinct default personas and subtasks, by position. */
const FOCUS = ["correctness", "brevity", "the reader's intuition", "edge cases", "cost"];

function defaultPlanEntry(tool: string, anonId: string): string {
  const index = Number(/\d+$/.exec(anonId)?.[0] ?? "1") - 1;
  const focus = FOCUS[index % FOCUS.length]!;
  return tool === "assign_personas"
    ? `You are ${anonId}'s persona: you care most about ${focus}.`
    : `Part ${index + 1}: the answer's ${focus}.`;
}

/** Prompt phrases that mean "no answers yet" (MassGen's and similar wordings). */
const NO_ANSWERS_PATTERN = /no answers (?:available |provided |submitted )?yet|\(no answers/i;

/**
 * The agent's round opened with no answers to read, so it answers first (as a well-behaved agent
 * does, even when answers arrive while it works): a prompt saying so (MassGen's wording, older
 * coord), or coord's own opening message (`<ORIGINAL MESSAGE>`) without a `<CURRENT ANSWERS>`
 * block before the first update (coord's first-answer prompt is the question alone).
 */
function openedWithoutAnswers(text: string): boolean {
  if (NO_ANSWERS_PATTERN.test(text)) return true;
  if (!text.includes("<ORIGINAL MESSAGE>")) return false;
  const opening = text.split(/UPDATE: the answers changed|Vote refused:/)[0] ?? text;
  return !opening.includes("<CURRENT ANSWERS>");
}

/**
 * A handler that plays a well-behaved coordinating agent:
 *
 * - a planning tool offered (`assign_personas`, `assign_subtasks`) → one string per required
 *   key (see {@link CoordinationHandlerOptions.plan});
 * - `stop` offered and answers exist (decomposition mode) → `stop({status: complete, summary})`;
 * - no tools offered → plain text (the final presentation);
 * - `new_answer` offered and no answers to vote for → `new_answer({content})`;
 * - answers exist (the `vote` tool is offered with a non-empty `agent_id` enum, or without an
 *   enum, and the prompt does not say there are no answers yet) → `vote({agent_id, reason})`
 *   for `agent1` (or the first allowed id);
 * - other tools only → plain text.
 *
 * @param options texts and usage to use; all optional.
 */
export function coordinationHandler(options: CoordinationHandlerOptions = {}): FakeHandler {
  return (request) => {
    const summary = summarizeRequest(request);
    const usage = options.usage ? { usage: options.usage } : {};
    const offers = (name: string) => summary.toolNames.includes(name);

    // A planning call before coordination: one string per required key.
    const planning = summary.tools.find((entry) => entry.name.startsWith("assign_"));
    if (planning !== undefined) {
      const keys = Array.isArray(planning.parameters.required)
        ? planning.parameters.required.filter((key): key is string => typeof key === "string")
        : [];
      const entry = options.plan ?? defaultPlanEntry;
      return {
        toolCalls: [
          {
            name: planning.name,
            arguments: Object.fromEntries(keys.map((key) => [key, entry(planning.name, key)])),
          },
        ],
        ...usage,
      };
    }
    // Decomposition: once answers exist, the part is done.
    if (offers("stop") && !openedWithoutAnswers(summary.text)) {
      return {
        toolCalls: [
          {
            name: "stop",
            arguments: { status: "complete", summary: options.stopSummary ?? "My part is done." },
          },
        ],
        ...usage,
      };
    }
    const voteTool = summary.tools.find((entry) => entry.name === "vote");
    const allowed = voteTool ? agentIdEnum(voteTool.parameters) : undefined;
    const answersExist =
      voteTool !== undefined &&
      (allowed === undefined || allowed.length > 0) &&
      !openedWithoutAnswers(summary.text);

    if (answersExist) {
      const preferred = options.voteFor ?? "agent1";
      const agentId =
        allowed === undefined || allowed.includes(preferred)
          ? preferred
          : (allowed[0] ?? preferred);
      return {
        toolCalls: [
          {
            name: "vote",
            arguments: {
              agent_id: agentId,
              reason: options.reason ?? `${agentId}'s answer is correct and complete.`,
            },
          },
        ],
        ...usage,
      };
    }
    if (offers("new_answer")) {
      const content =
        typeof options.answer === "function"
          ? options.answer(summary)
          : (options.answer ?? "The answer is 42.");
      return { toolCalls: [{ name: "new_answer", arguments: { content } }], ...usage };
    }
    const text =
      typeof options.finalAnswer === "function"
        ? options.finalAnswer(summary)
        : (options.finalAnswer ?? "Final answer: The answer is 42.");
    return { text, ...usage };
  };
}

/** The `enum` of a vote tool's `agent_id` property, if it has one. */
function agentIdEnum(parameters: Record<string, unknown>): string[] | undefined {
  const properties = isRecord(parameters.properties) ? parameters.properties : {};
  const agentId = isRecord(properties.agent_id) ? properties.agent_id : {};
  return Array.isArray(agentId.enum)
    ? agentId.enum.filter((value): value is string => typeof value === "string")
    : undefined;
}
