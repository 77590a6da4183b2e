/**
 * The `scripted` backend: a test double that is product code (CONTRIBUTING.md rule 6). It plays
 * exactly the steps it was given, one per model call, and fails loudly on an unexpected call (no
 * step left), on an expectation that does not hold, and — through
 * {@link ScriptedBackend.assertDone} — on steps never consumed.
 *
 * Usable from YAML (`backend: {type: scripted, steps: [...]}`) for demos and end-to-end tests
 * without keys, and from code for engine tests and benchmarks.
 */
import { contextOverflowOf } from "./context-length.js";
import type { Clock } from "../clock.js";
import { systemClock } from "../clock.js";
import type { ScriptedStep } from "../config/index.js";
import {
  BackendError,
  isRetryableStatus,
  type Backend,
  type BackendChunk,
  type ModelRequest,
  type StreamOptions,
  type ToolCall,
  type Usage,
} from "./backend.js";

export type { ScriptedStep };

/** Thrown (and recorded) when a call does not match the script. Never retried. */
export class ScriptMismatchError extends BackendError {
  constructor(message: string) {
    super({ message, provider: "scripted", retryable: false });
    this.name = "ScriptMismatchError";
  }
}

/** Options of {@link createScriptedBackend}. */
export interface ScriptedBackendOptions {
  /** The steps, one per model call, in order. */
  steps: readonly ScriptedStep[];
  /**
   * Alternative step lists (e.g. one per chat turn): the first call picks the list whose `match`
   * occurs latest in its prompt (system + messages), so the current question wins over the
   * same text quoted in the history; `steps` is played when none matches.
   */
  scripts?: ReadonlyArray<{ match: string; steps: readonly ScriptedStep[] }>;
  /** Label used as the model name and in messages (e.g. the agent id). Default `scripted`. */
  name?: string;
  /** Clock for `delay_ms`; default the system clock. */
  clock?: Clock;
}

/** A scripted backend plus its bookkeeping. */
export interface ScriptedBackend extends Backend {
  /** Every request received, in order. */
  readonly requests: readonly ModelRequest[];
  /** Mismatches seen so far (unexpected calls, failed expectations). */
  readonly violations: readonly string[];
  /**
   * @throws Error listing every violation and every unconsumed step, if any.
   */
  assertDone(): void;
}

/** Rough token count (chars / 4), used when a step gives no usage. */
function roughTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function requestText(request: ModelRequest): string {
  return [request.system, ...request.messages.map((message) => message.content)].join("\n");
}

/** The tool calls a step makes, shorthands expanded. */
export function stepToolCalls(step: ScriptedStep, callIndex: number): ToolCall[] {
  const calls: Array<{ name: string; input: Record<string, unknown> }> = [];
  if (step.answer !== undefined)
    calls.push({ name: "new_answer", input: { content: step.answer } });
  if (step.vote !== undefined)
    calls.push({ name: "vote", input: { agent_id: step.vote, reason: step.reason ?? "" } });
  if (step.stop !== undefined) calls.push({ name: "stop", input: { ...step.stop } });
  if (step.plan !== undefined) calls.push({ name: "submit_plan", input: { ...step.plan } });
  for (const call of step.tool_calls ?? []) calls.push(call);
  return calls.map((call, index) => ({
    toolCallId: `call_${callIndex}_${index}`,
    toolName: call.name,
    input: call.input,
  }));
}

/** Splits text into a few chunks so consumers see real streaming. */
function chunks(text: string, size = 24): string[] {
  const parts: string[] = [];
  for (let start = 0; start < text.length; start += size)
    parts.push(text.slice(start, start + size));
  return parts;
}

/**
 * Creates a scripted backend.
 * @throws nothing at creation; mismatches surface as {@link ScriptMismatchError} from `stream`.
 */
export function createScriptedBackend(options: ScriptedBackendOptions): ScriptedBackend {
  const name = options.name ?? "scripted";
  const clock = options.clock ?? systemClock;
  const requests: ModelRequest[] = [];
  const violations: string[] = [];
  let next = 0;
  let steps: readonly ScriptedStep[] = options.steps;

  const mismatch = (message: string): never => {
    violations.push(message);
    throw new ScriptMismatchError(message);
  };

  async function* stream(
    request: ModelRequest,
    { signal }: StreamOptions,
  ): AsyncGenerator<BackendChunk> {
    requests.push(request);
    const callNumber = requests.length;
    const text = requestText(request);
    if (callNumber === 1 && options.scripts) steps = pickScript(options.scripts, text) ?? steps;
    const step = steps[next];
    if (step === undefined) {
      return mismatch(
        `scripted backend ${name}: unexpected call #${callNumber} (the script has ${steps.length} steps)`,
      );
    }
    next++;
    const expected =
      step.expect_prompt_contains === undefined
        ? []
        : Array.isArray(step.expect_prompt_contains)
          ? step.expect_prompt_contains
          : [step.expect_prompt_contains];
    for (const needle of expected) {
      if (!text.includes(needle)) {
        mismatch(
          `scripted backend ${name}: call #${callNumber} expected the prompt to contain ${JSON.stringify(needle)}`,
        );
      }
    }
    if (step.delay_ms !== undefined && step.delay_ms > 0) await clock.sleep(step.delay_ms, signal);
    if (signal.aborted) throw signal.reason as Error;
    if (step.error !== undefined) {
      const status = step.error.status;
      // Classified like a provider's message (`./context-length.ts`): an overflow is one here too.
      const overflow = contextOverflowOf(step.error.message);
      throw new BackendError({
        message: step.error.message,
        provider: "scripted",
        ...(status !== undefined ? { status } : {}),
        retryable: step.error.retryable ?? (status !== undefined && isRetryableStatus(status)),
        ...(overflow !== undefined
          ? { kind: "context-length", contextWindow: overflow.contextWindow }
          : {}),
      });
    }
    if (step.reasoning)
      for (const part of chunks(step.reasoning)) yield { type: "reasoning-delta", text: part };
    if (step.text) for (const part of chunks(step.text)) yield { type: "text-delta", text: part };
    const calls = stepToolCalls(step, callNumber);
    for (const call of calls) yield { type: "tool-call", ...call };
    const replyText = (step.text ?? "") + calls.map((call) => JSON.stringify(call.input)).join("");
    const usage: Usage = {
      inputTokens: step.usage?.input_tokens ?? roughTokens(text),
      outputTokens: step.usage?.output_tokens ?? roughTokens(replyText),
      reasoningTokens: step.usage?.reasoning_tokens ?? roughTokens(step.reasoning ?? ""),
      cachedInputTokens: step.usage?.cached_input_tokens ?? 0,
    };
    yield { type: "finish", finishReason: calls.length > 0 ? "tool-calls" : "stop", usage };
  }

  return {
    type: "scripted",
    model: name,
    requests,
    violations,
    stream,
    assertDone() {
      const problems = [...violations];
      if (next < steps.length) {
        problems.push(
          `scripted backend ${name}: ${steps.length - next} of ${steps.length} steps were never used`,
        );
      }
      if (problems.length > 0) throw new Error(problems.join("\n"));
    },
  };
}

/** The script whose `match` occurs latest in `prompt` (the first of equals), if any. */
function pickScript(
  scripts: ReadonlyArray<{ match: string; steps: readonly ScriptedStep[] }>,
  prompt: string,
): readonly ScriptedStep[] | undefined {
  let best: { at: number; steps: readonly ScriptedStep[] } | undefined;
  for (const script of scripts) {
    const at = prompt.lastIndexOf(script.match);
    if (at >= 0 && (best === undefined || at > best.at)) best = { at, steps: script.steps };
  }
  return best?.steps;
}
