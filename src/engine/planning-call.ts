/**
 * One planning call before coordination (docs/coordination.md "Other modes": the decomposer, the
 * persona generator): a model call with one tool whose input is the structured output, one entry
 * per agent (`agent1` … `agentN`). Tool schemas work on every backend, including local models
 * (their grammar constrains the output to the schema); when a provider answers in text instead,
 * a JSON object in the text is accepted too.
 *
 * Events: `round-start` of kind `plan` (with `produces`), the call's streamed blocks and `usage`
 * (through {@link callModel}), `round-end` with outcome `plan`, `invalid` (no usable output),
 * `error` (the provider failed after its retries) or `aborted`.
 */
import type { Backend, ToolSpec } from "../backends/index.js";
import type { Clock } from "../clock.js";
import type { EventOf } from "../events/index.js";
import type { Emitter } from "./emitter.js";
import { callModel } from "./model-call.js";

/** What a planning call produced, or why it produced nothing usable. */
export type PlanningResult =
  { ok: true; entries: Record<string, string> } | { ok: false; reason: string; aborted: boolean };

/** Options of {@link planningCall}. */
export interface PlanningCallOptions {
  /** The agent whose backend makes the call; undefined for a backend of its own. */
  agentId: string | undefined;
  /** The round number the call's events carry (the agent's next round, else 1). */
  round: number;
  backend: Backend;
  produces: NonNullable<EventOf<"round-start">["produces"]>;
  system: string;
  userMessage: string;
  /** The tool's name and description; its input has one string per key of `keys`. */
  tool: { name: string; description: string; entryDescription: string };
  /** The keys the output must have, e.g. the anonymous ids `agent1` … `agentN`. */
  keys: readonly string[];
  emitter: Emitter;
  clock: Clock;
  signal: AbortSignal;
  temperature?: number | undefined;
  maxOutputTokens?: number | undefined;
}

/** The tool whose input is the structured output: `{agent1: string, …}`, all required. */
export function planningTool(tool: PlanningCallOptions["tool"], keys: readonly string[]): ToolSpec {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(
        keys.map((key) => [
          key,
          { type: "string", description: `${tool.entryDescription} ${key}.` },
        ]),
      ),
      required: [...keys],
      additionalProperties: false,
    },
  };
}

/**
 * Makes the call and checks its output: one non-empty string per key.
 * Never throws: provider failures, aborts and unusable output are results.
 */
export async function planningCall(options: PlanningCallOptions): Promise<PlanningResult> {
  const { agentId, round, emitter, clock, signal } = options;
  const started = clock.now();
  const who = agentId !== undefined ? { agentId } : {};
  const end = (outcome: EventOf<"round-end">["outcome"]) =>
    emitter.emit({
      type: "round-end",
      ...who,
      round,
      outcome,
      durationMs: clock.now() - started,
    });
  emitter.emit({
    type: "round-start",
    ...who,
    round,
    attempt: 1,
    kind: "plan",
    produces: options.produces,
    answersSeen: [],
  });
  const tool = planningTool(options.tool, options.keys);
  let reply;
  try {
    reply = await callModel({
      agentId,
      backend: options.backend,
      request: {
        system: options.system,
        messages: [{ role: "user", content: options.userMessage }],
        tools: [tool],
        toolChoice: "required",
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.maxOutputTokens !== undefined
          ? { maxOutputTokens: options.maxOutputTokens }
          : {}),
      },
      round,
      emitter,
      clock,
      signal,
    });
  } catch (error) {
    const aborted = signal.aborted;
    end(aborted ? "aborted" : "error");
    return {
      ok: false,
      aborted,
      reason: aborted ? "stopped" : error instanceof Error ? error.message : String(error),
    };
  }
  const call = reply.toolCalls.find((candidate) => candidate.toolName === tool.name);
  const input = call !== undefined ? call.input : jsonObjectIn(reply.text);
  const checked = checkEntries(input, options.keys);
  end(typeof checked === "string" ? "invalid" : "plan");
  return typeof checked === "string"
    ? { ok: false, aborted: false, reason: checked }
    : { ok: true, entries: checked };
}

/** One trimmed non-empty string per key, or why the input is not that. */
function checkEntries(input: unknown, keys: readonly string[]): Record<string, string> | string {
  if (input === undefined) return "the model gave no structured output";
  if (input === null || typeof input !== "object" || Array.isArray(input))
    return "the model's output is not a JSON object";
  const record = input as Record<string, unknown>;
  const entries: Record<string, string> = {};
  const missing: string[] = [];
  for (const key of keys) {
    const value = record[key];
    if (typeof value !== "string" || value.trim() === "") missing.push(key);
    else entries[key] = value.trim();
  }
  if (missing.length > 0) return `the model's output has no text for ${missing.join(", ")}`;
  return entries;
}

/** The first `{ … }` span of `text` that parses as JSON, if any (a model that wrote its output). */
function jsonObjectIn(text: string): unknown {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    return JSON.parse(text.slice(start, end + 1)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Why the entries are not distinct (`agent1 and agent3 got the same …`, compared without case),
 * or undefined when they are: one persona or subtask for two agents defeats its purpose.
 */
export function sameEntry(entries: Record<string, string>): string | undefined {
  const seen = new Map<string, string>();
  for (const [key, text] of Object.entries(entries)) {
    const other = seen.get(text.toLowerCase());
    if (other !== undefined) return `${other} and ${key} got the same text`;
    seen.set(text.toLowerCase(), key);
  }
  return undefined;
}
