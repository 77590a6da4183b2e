/**
 * Recognises a provider's "the prompt exceeds the model's context window" failure, so it is
 * reported as such (`BackendError.kind: "context-length"`, never retried: an identical request
 * overflows again) and the engine can shorten the prompt to the window.
 *
 * The texts, as the providers send them:
 *
 * - OpenAI / Azure / Groq / DeepSeek / vLLM: code `context_length_exceeded`, "This model's maximum
 *   context length is 8192 tokens. However, your messages resulted in 9000 tokens."; OpenRouter:
 *   "This endpoint's maximum context length is 32768 tokens."; the Responses API: "Your input
 *   exceeds the context window of this model.";
 * - Anthropic: "prompt is too long: 208656 tokens > 200000 maximum", "input length and
 *   `max_tokens` exceed context limit: 189136 + 20000 > 204648";
 * - Gemini: "The input token count (1200293) exceeds the maximum number of tokens allowed
 *   (1048576).";
 * - xAI: "This model's maximum prompt length is 131072 but the request contains 150000 tokens.";
 * - vLLM: "The decoder prompt (length 5000) is longer than the maximum model length of 4096.";
 * - llama.cpp server: type `exceed_context_size_error` with `n_ctx` (HTTP 400, or 500 in some
 *   versions), "the request exceeds the available context size";
 * - LM Studio: "… the model is loaded with context length of only 32768 tokens, which is not
 *   enough."; Mistral: "… too large for model with 32768 maximum context length";
 *   llama-cpp-python: "Requested tokens (2285) exceed context window of 2048".
 */

/** What a context overflow says about the window. */
export interface ContextOverflow {
  /** The model's context window in tokens, when the message or body names it. */
  contextWindow?: number;
}

/** Codes and types (in an error body's `code` / `type`) that mean a context overflow. */
const OVERFLOW_CODES = new Set([
  "context_length_exceeded",
  "exceed_context_size_error",
  "context_window_exceeded",
]);

/** Phrases that mean a context overflow, each with the capture group of the window, if any. */
const OVERFLOW_PATTERNS: readonly RegExp[] = [
  /maximum context length is (\d+)/i,
  /maximum prompt length is (\d+)/i,
  /prompt is too long: \d+ tokens > (\d+)/i,
  /exceed context limit: [\d\s+]+> (\d+)/i,
  /exceeds the maximum number of tokens allowed(?: \((\d+)\))?/i,
  /longer than the maximum model length of (\d+)/i,
  /context length of only (\d+)/i,
  /too large for model with (\d+) maximum context length/i,
  /exceed context window of (\d+)/i,
  /exceeds the context window/i,
  /exceeds the available context size/i,
  /context[_ ]length[_ ]exceeded/i,
  /prompt is too long/i,
];

/**
 * The overflow a provider's error describes, or undefined when it is another error.
 *
 * @param message the provider's own message (from the error body or the SDK).
 * @param body the parsed or raw error body, when there is one: its `code`/`type` (at the top or
 *   under `error`) and llama.cpp's `n_ctx` are read.
 */
export function contextOverflowOf(message: string, body?: unknown): ContextOverflow | undefined {
  const fields = errorFields(body);
  const byCode = [fields.code, fields.type].some(
    (value) => typeof value === "string" && OVERFLOW_CODES.has(value.toLowerCase()),
  );
  const texts = [message, typeof fields.message === "string" ? fields.message : ""];
  let window: number | undefined = positiveInteger(fields.n_ctx);
  let byText = false;
  for (const pattern of OVERFLOW_PATTERNS) {
    const match = texts.map((text) => pattern.exec(text)).find((found) => found !== null);
    if (match === undefined) continue;
    byText = true;
    window ??= positiveInteger(match[1]);
    if (window !== undefined) break;
  }
  if (!byCode && !byText) return undefined;
  return window !== undefined ? { contextWindow: window } : {};
}

/** `code`, `type`, `message` and `n_ctx` of an error body (`{error: {...}}` or flat). */
function errorFields(body: unknown): Record<string, unknown> {
  let value = body;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return {};
    }
  }
  if (!isRecord(value)) return {};
  return isRecord(value.error) ? { ...value, ...value.error } : value;
}

function positiveInteger(value: unknown): number | undefined {
  const number = typeof value === "string" ? Number(value) : value;
  return typeof number === "number" && Number.isInteger(number) && number > 0 ? number : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
