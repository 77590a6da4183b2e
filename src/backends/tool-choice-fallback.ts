/**
 * Providers that refuse `tool_choice: "required"`: older vLLM answers HTTP 400
 * `tool_choice = "required" is not supported!`, some OpenRouter routes HTTP 404 `No endpoints
 * found that support the provided 'tool_choice' value`, some compatible servers a 400 naming
 * `tool_choice` as unsupported. Such a call is sent again at once with `auto` (the engine still
 * checks that a workflow tool was called), and `auto` is remembered for that backend instance —
 * one agent's, for the run — so its later calls send `auto` from the start. One `warning` chunk
 * says so, the first time.
 *
 * Used by every backend that sends `tool_choice` through `streamWithAiSdk` (`ai-sdk-stream.ts`).
 */
import type { BackendChunk, ModelRequest } from "./backend.js";
import { BackendError } from "./backend.js";

/** Words that, in a message naming `tool_choice`, mean the provider refused its value. */
const REFUSAL =
  /not (yet )?supported|unsupported|(does not|doesn't|not) support|no endpoints found|requires? --enable-auto-tool-choice|forces tool use|input should be|invalid|must be|only .*auto/i;

/**
 * True when an error (HTTP status, provider message) means the provider refused the request's
 * `tool_choice` value: a 4xx/5xx or status-less error whose message names `tool_choice` (or "tool
 * choice") and says it is unsupported or invalid.
 */
export function isToolChoiceRefusal(status: number | undefined, message: string): boolean {
  if (status !== undefined && status < 400) return false;
  return /tool[_ ]choice/i.test(message) && REFUSAL.test(message);
}

/** The warning given once per backend instance when it falls back to `auto`. */
export function toolChoiceWarning(provider: string): string {
  return (
    `${provider} refused tool_choice: required; using auto for the rest of the run ` +
    "(set `extra_body: {tool_choice: auto}` to skip the first try)"
  );
}

/** What one backend instance learnt: whether its provider refuses `required`. */
interface ToolChoiceMemory {
  useAuto: boolean;
}

/** One memory per backend instance, keyed by its language model (each backend creates one). */
const memories = new WeakMap<object, ToolChoiceMemory>();

/**
 * Streams one model call through `streamOnce`; when the provider refuses `tool_choice:
 * "required"` before anything was streamed (a {@link BackendError} with `kind: "tool-choice"`),
 * yields a `retry` chunk for the refused request (delay 0, the provider's error: it counts as a
 * failed request sent) and one `warning` chunk, and streams the call again with `auto`. From
 * then on every call of the same `instance` with `required` is sent with `auto` directly.
 *
 * @param instance the object that identifies the backend instance (its language model).
 * @param provider the provider's name, for the warning.
 * @param request the call; only a `required` call with tools can fall back.
 * @param streamOnce makes one request and streams its chunks.
 * @throws whatever `streamOnce` throws, except the first refusal of `required`; the `auto`
 *   retry's own failure is thrown as is.
 */
export async function* withToolChoiceFallback(
  instance: object,
  provider: string,
  request: ModelRequest,
  streamOnce: (request: ModelRequest) => AsyncIterable<BackendChunk>,
): AsyncGenerator<BackendChunk> {
  let memory = memories.get(instance);
  if (memory === undefined) {
    memory = { useAuto: false };
    memories.set(instance, memory);
  }
  const forced = request.toolChoice === "required" && request.tools.length > 0;
  const relaxed: ModelRequest = { ...request, toolChoice: "auto" };
  if (!forced || memory.useAuto) {
    yield* streamOnce(forced ? relaxed : request);
    return;
  }
  let streamed = false;
  try {
    for await (const chunk of streamOnce(request)) {
      if (chunk.type !== "warning") streamed = true;
      yield chunk;
    }
    return;
  } catch (error) {
    if (streamed || !(error instanceof BackendError) || error.kind !== "tool-choice") throw error;
    // Another call of this instance may have learnt it meanwhile: warn only once.
    const first = !memory.useAuto;
    memory.useAuto = true;
    yield { type: "retry", attempt: 1, delayMs: 0, errorKind: "http", error };
    if (first) yield { type: "warning", message: toolChoiceWarning(provider) };
  }
  yield* streamOnce(relaxed);
}
