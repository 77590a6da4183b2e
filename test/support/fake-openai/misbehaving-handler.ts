/**
 * {@link misbehavingHandler}: a fake-server handler that plays the ways real models break coord's
 * protocol (docs/real-models.md), picked per agent by the request's `model` name, and counts what
 * each model was sent. It speaks through {@link startFakeOpenAIServer}'s Chat Completions wire
 * format; every sound reply comes from {@link soundReply} (which extends `coordinationHandler` with
 * planning and plan execution).
 *
 * Model name grammar: `[tag/]behaviour[-N][@rate]`, e.g. `a/plain-text`, `b/unknown-tool@30`,
 * `small-context-2000`. The tag only tells agents apart (their answers differ by it and stats are
 * kept per whole name); `@rate` (0–100) misbehaves on that share of replies, decided by a hash of
 * the name and the request count (deterministic); a name that is not a behaviour is `sound`.
 */
import type { FakeHandler, FakeReply, FakeRequest } from "./fake-reply.js";
import { answersVisible, soundPlan, soundReply, visibleAnswers } from "./misbehaving-sound.js";
import { summarizeRequest, type RequestSummary } from "./summarize-request.js";

/** The behaviours a model name can pick. */
export const BEHAVIOURS = [
  "sound",
  "plain-text",
  "empty",
  "unknown-tool",
  "other-mode-tool",
  "cutoff-json",
  "two-answers",
  "resubmit",
  "never-votes",
  "copies-part",
  "no-required",
  "plan-text",
  "small-context",
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

/** A model name read by {@link parseModelName}. */
export interface ModelSpec {
  behaviour: Behaviour;
  /** Share of replies that misbehave, 0–100 (100 without `@rate`). */
  rate: number;
  /** `small-context-N`: the context window in tokens (default 2000). */
  contextTokens: number;
  /** The part before the last `/`, or the whole name. */
  tag: string;
}

/** Reads `[tag/]behaviour[-N][@rate]`; unknown behaviours are `sound`. */
export function parseModelName(name: string): ModelSpec {
  const slash = name.lastIndexOf("/");
  const tag = slash >= 0 ? name.slice(0, slash) : name;
  const [head = "", rateText] = name.slice(slash + 1).split("@");
  const rate = rateText === undefined ? 100 : Math.min(100, Math.max(0, Number(rateText) || 0));
  const match = /^(.*?)(?:-(\d+))?$/.exec(head);
  const base = match?.[1] ?? head;
  const known = (BEHAVIOURS as readonly string[]).includes(head)
    ? (head as Behaviour)
    : (BEHAVIOURS as readonly string[]).includes(base)
      ? (base as Behaviour)
      : "sound";
  const size = known === base && match?.[2] !== undefined ? Number(match[2]) : 2000;
  return { behaviour: known, rate, contextTokens: size, tag };
}

/** What one model name was sent and how it answered. */
export interface ModelStats {
  /** Model calls received (every POST, failed ones included). */
  requests: number;
  /** Prompt tokens sent, estimated as the messages' JSON characters / 4 (as the fake reports). */
  promptTokens: number;
  /** Replies that misbehaved (the behaviour was played, not a sound reply). */
  misbehaved: number;
  /** Replies that were HTTP errors. */
  failed: number;
}

/** The handler and its counters. */
export interface MisbehavingHandler {
  handle: FakeHandler;
  /** Counters per model name, in first-seen order. */
  stats(): Record<string, ModelStats>;
  /** Sum over every model name. */
  totals(): ModelStats;
}

/** Prompt tokens of a request as the fake estimates them: messages' JSON characters / 4. */
export function promptTokensOf(body: Record<string, unknown>): number {
  return Math.max(1, Math.ceil(JSON.stringify(body.messages ?? body.input ?? "").length / 4));
}

/** {@link ModelStats} (without `misbehaved`) from recorded requests, e.g. `GET /__requests`. */
export function statsOf(requests: readonly FakeRequest[]): Record<string, ModelStats> {
  const stats: Record<string, ModelStats> = {};
  for (const request of requests) {
    if (request.method !== "POST") continue;
    const model = typeof request.body.model === "string" ? request.body.model : "";
    const entry = (stats[model] ??= { requests: 0, promptTokens: 0, misbehaved: 0, failed: 0 });
    entry.requests += 1;
    entry.promptTokens += promptTokensOf(request.body);
  }
  return stats;
}

/** Deterministic 0–99 from a name and a count (FNV-1a, then a mix). */
function roll(name: string, count: number): number {
  let hash = 2166136261;
  for (const char of `${name}#${count}`) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 16777619);
  }
  hash ^= hash >>> 15;
  hash = Math.imul(hash, 2246822507);
  hash ^= hash >>> 13;
  return (hash >>> 0) % 100;
}

/** The worked GSM8K answer every agent gives, told apart by its tag. */
export function answerText(tag: string): string {
  return `Janet's ducks lay 16 eggs a day; she eats 3 and bakes with 4, so 16 - 3 - 4 = 9 eggs are sold at $2 each (worked out by ${tag}). The answer is 18.`;
}

/** A long answer (about `tokens` tokens), for `small-context` agents. */
function longAnswer(tag: string, tokens: number): string {
  const step = ` Checking again: 16 - 3 = 13, 13 - 4 = 9, and 9 x $2 = $18 (${tag}).`;
  let text = answerText(tag);
  while (text.length < tokens * 4) text += step;
  return text;
}

/** vLLM (before 0.8.3) refusing `tool_choice: "required"`: its pydantic validation error. */
export const VLLM_REQUIRED_ERROR =
  "1 validation error for ChatCompletionRequest\n  Value error, The tool_choice option required is not yet supported but on the roadmap. [type=value_error, input_type=dict]";

/** OpenAI's `context_length_exceeded` message for a window and a prompt size (tokens). */
export function contextLengthMessage(window: number, prompt: number): string {
  return `This model's maximum context length is ${window} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`;
}

/**
 * The arguments of a workflow call cut off mid-string, as a model that ran out of output tokens
 * sends them: `new_answer` → `{"content": "The answer is 18`, `submit_plan` → its plan's JSON cut
 * inside the second task, `stop` → `{"status": "complete", "summary": "My part`.
 */
export function cutOff(tool: string, tag: string): string {
  if (tool === "submit_plan") {
    const text = JSON.stringify(soundPlan(tag));
    return text.slice(0, text.indexOf("Compute the day"));
  }
  if (tool === "stop") return '{"status": "complete", "summary": "My part';
  return '{"content": "The answer is 18';
}

/** The Markdown plan a `plan-text` model writes instead of calling `submit_plan`. */
export const MARKDOWN_PLAN = [
  "# Plan",
  "",
  "1. **T1** Count the eggs left to sell: 16 - 3 - 4 = 9. Verify: recount them.",
  "2. **T2** Compute the day's income: 9 x $2 = $18 (after T1). Verify: multiply again.",
].join("\n");

/** The part `copies-part` agents write when no other answer is visible (the same for all). */
export const COPIED_TEXT = "16 - 3 - 4 = 9 eggs are sold at $2 each. The answer is 18.";

/**
 * A handler whose model names pick a behaviour per agent (see the module doc):
 *
 * - `plain-text`: "Sure! The answer is 18." and no tool call; `empty`: an empty reply;
 * - `unknown-tool`: calls `final_answer`; `other-mode-tool`: another mode's workflow tool
 *   (`new_answer` while planning, `submit_plan` otherwise);
 * - `cutoff-json`: the first workflow tool with cut-off JSON arguments ({@link cutOff});
 * - `two-answers`: two `new_answer` calls in one reply;
 * - `resubmit`: its identical answer or plan instead of a vote; `never-votes`: a slightly
 *   different answer or plan every round; `copies-part`: another agent's answer word for word;
 * - `no-required`: HTTP 400 as vLLM for `tool_choice: "required"`, sound with `auto`;
 * - `plan-text`: the plan as Markdown text instead of `submit_plan`;
 * - `small-context-N`: HTTP 400 `context_length_exceeded` once the prompt passes N tokens (its
 *   answers are about N/3 tokens long).
 *
 * Replies with no tools offered (presentation) are sound except for `plain-text` and `empty`.
 */
export function misbehavingHandler(): MisbehavingHandler {
  const counters = new Map<string, ModelStats>();

  const handle: FakeHandler = (request) => {
    const summary = summarizeRequest(request);
    const spec = parseModelName(summary.model);
    const stats = counters.get(summary.model) ?? {
      requests: 0,
      promptTokens: 0,
      misbehaved: 0,
      failed: 0,
    };
    counters.set(summary.model, stats);
    stats.requests += 1;
    const prompt = promptTokensOf(request.body);
    stats.promptTokens += prompt;
    const misbehaves = spec.rate >= 100 || roll(summary.model, stats.requests) < spec.rate;
    const bad = misbehaves ? misbehave(spec, summary, prompt, stats.requests) : undefined;
    if (bad !== undefined) {
      stats.misbehaved += 1;
      if (bad.error !== undefined) stats.failed += 1;
      return bad;
    }
    const answer =
      spec.behaviour === "small-context"
        ? longAnswer(spec.tag, Math.floor(spec.contextTokens / 3))
        : answerText(spec.tag);
    return soundReply(request, summary, answer, spec.tag);
  };

  return {
    handle,
    stats: () => Object.fromEntries(counters),
    totals: () => {
      const sum: ModelStats = { requests: 0, promptTokens: 0, misbehaved: 0, failed: 0 };
      for (const entry of counters.values()) {
        sum.requests += entry.requests;
        sum.promptTokens += entry.promptTokens;
        sum.misbehaved += entry.misbehaved;
        sum.failed += entry.failed;
      }
      return sum;
    },
  };
}

/** The misbehaving reply, or undefined when this request gets a sound one. */
function misbehave(
  spec: ModelSpec,
  summary: RequestSummary,
  prompt: number,
  count: number,
): FakeReply | undefined {
  const offers = (name: string) => summary.toolNames.includes(name);
  const withTools = summary.toolNames.length > 0;
  const workflow = ["new_answer", "submit_plan", "stop"].find(offers);
  switch (spec.behaviour) {
    case "sound":
      return undefined;
    case "plain-text":
      return { text: "Sure! The answer is 18." };
    case "empty":
      return { text: "" };
    case "unknown-tool":
      return withTools
        ? { toolCalls: [{ name: "final_answer", arguments: { answer: "The answer is 18." } }] }
        : undefined;
    case "other-mode-tool":
      // Another mode's workflow tool: new_answer while planning, submit_plan while answering.
      if (offers("submit_plan")) {
        return {
          toolCalls: [{ name: "new_answer", arguments: { content: answerText(spec.tag) } }],
        };
      }
      return offers("new_answer")
        ? { toolCalls: [{ name: "submit_plan", arguments: soundPlan(spec.tag) }] }
        : undefined;
    case "cutoff-json":
      return workflow !== undefined
        ? { toolCalls: [{ name: workflow, arguments: cutOff(workflow, spec.tag) }] }
        : undefined;
    case "two-answers":
      return offers("new_answer")
        ? {
            toolCalls: [
              { name: "new_answer", arguments: { content: "The answer is 17." } },
              { name: "new_answer", arguments: { content: answerText(spec.tag) } },
            ],
          }
        : undefined;
    case "resubmit":
      // Its one answer (or plan), again and again, where a vote is expected.
      if (!answersVisible(summary)) return undefined;
      if (offers("submit_plan")) {
        return { toolCalls: [{ name: "submit_plan", arguments: soundPlan(spec.tag) }] };
      }
      return offers("new_answer")
        ? { toolCalls: [{ name: "new_answer", arguments: { content: answerText(spec.tag) } }] }
        : undefined;
    case "never-votes":
      if (offers("submit_plan")) {
        const plan = soundPlan(`${spec.tag}, revision ${count}`);
        return { toolCalls: [{ name: "submit_plan", arguments: plan }] };
      }
      return offers("new_answer")
        ? {
            toolCalls: [
              {
                name: "new_answer",
                arguments: { content: `${answerText(spec.tag)} (revision ${count})` },
              },
            ],
          }
        : undefined;
    case "copies-part": {
      if (!offers("new_answer")) return undefined;
      const other = visibleAnswers(summary).find((text) => !text.includes(`by ${spec.tag})`));
      return { toolCalls: [{ name: "new_answer", arguments: { content: other ?? COPIED_TEXT } }] };
    }
    case "no-required":
      return summary.toolChoice === "required"
        ? { error: { status: 400, message: VLLM_REQUIRED_ERROR, type: "BadRequestError" } }
        : undefined;
    case "plan-text":
      return offers("submit_plan") ? { text: MARKDOWN_PLAN } : undefined;
    case "small-context":
      return prompt > spec.contextTokens
        ? {
            error: {
              status: 400,
              message: contextLengthMessage(spec.contextTokens, prompt),
              type: "invalid_request_error",
              code: "context_length_exceeded",
            },
          }
        : undefined;
  }
}
