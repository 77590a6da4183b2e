/**
 * The one interface every model provider sits behind (docs/architecture.md "Layers",
 * CONTRIBUTING.md rule 4). A backend performs exactly one model call per {@link Backend.stream}:
 * the engine owns the tool loop, so it can run local tools, inject update messages at step
 * boundaries (docs/coordination.md "Voting mode" step 4) and validate workflow calls the same way
 * for every provider.
 */
import type { Usage } from "../events/index.js";

export type { Usage };

/** A tool the model may call, with its input as a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset) of the tool's input object. */
  inputSchema: Record<string, unknown>;
}

/**
 * A tool call made by the model. The backend parses its JSON arguments (`./tool-input.ts`):
 *
 * - valid JSON (or empty arguments, read as `{}`): `input` is the parsed value, no note;
 * - cut-off or malformed JSON that `jsonrepair` mends into an object (a reply cut at the output
 *   cap, a missing brace, single quotes): `input` is the repaired object and `repaired` is true
 *   (the engine may say the model "sent cut-off JSON");
 * - text no repair turns into an object: `input` is the raw argument text and `inputError` says
 *   why (`arguments are not a JSON object: …`); the engine refuses such a workflow call, naming
 *   the malformed JSON.
 */
export interface ToolCall {
  toolCallId: string;
  toolName: string;
  /** The parsed input object; the raw argument text when {@link ToolCall.inputError} is set. */
  input: unknown;
  /** True when the arguments were cut-off or malformed JSON that `jsonrepair` mended. */
  repaired?: boolean | undefined;
  /**
   * Why the arguments could not be read as a JSON object even after repair; `input` is then the
   * raw argument text. The engine refuses such a workflow call, naming the malformed JSON.
   */
  inputError?: string | undefined;
}

/** One message of the conversation sent to a model (provider-neutral). */
export type ChatMessage =
  | { role: "user"; content: string }
  | { role: "assistant"; content: string; toolCalls?: ToolCall[] }
  | { role: "tool"; toolCallId: string; toolName: string; content: string; isError?: boolean };

/** Everything one model call needs. */
export interface ModelRequest {
  /** System prompt; empty string for none. */
  system: string;
  messages: ChatMessage[];
  /** Tools offered in this call; empty for none. */
  tools: ToolSpec[];
  /** `required`: the model must call a tool (workflow rounds); `none`/`auto` as in the providers. */
  toolChoice: "auto" | "required" | "none";
  /** Sampling temperature, when the config sets one. */
  temperature?: number;
  /** Output cap in tokens, when the config sets one. */
  maxOutputTokens?: number;
}

/** A streamed piece of one model call's response. */
export type BackendChunk =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | ({ type: "tool-call" } & ToolCall)
  /**
   * A tool the provider ran itself (web search, code execution): reported for the log and the UI,
   * never executed by the engine nor taken as a workflow call.
   */
  | ({ type: "provider-tool-call" } & ToolCall)
  /** The result of a {@link BackendChunk} `provider-tool-call`, as the provider returned it. */
  | {
      type: "provider-tool-result";
      toolCallId: string;
      toolName: string;
      /** The provider's result (search hits, code output), as parsed JSON or text. */
      output: unknown;
      isError: boolean;
    }
  /**
   * The retry wrapper (`./retry.ts`) is about to wait and retry a failed request: nothing of the
   * failed attempt was yielded, so the call simply goes on.
   */
  | {
      type: "retry";
      /** 1-based retry number. */
      attempt: number;
      /** Wait before the retry (ms). */
      delayMs: number;
      /** `http` (an error status), `timeout` (the request timeout) or `network`. */
      errorKind: "http" | "timeout" | "network";
      error: BackendError;
    }
  /** Something the provider or its SDK warns about (an ignored setting, a compatibility mode). */
  | { type: "warning"; message: string }
  | {
      type: "finish";
      /** Provider-neutral finish reason: `stop`, `tool-calls`, `length`, `content-filter`, `error`, `other`. */
      finishReason: string;
      usage: Usage;
      /**
       * The call's cost in USD, set by the `withPricing` wrapper (`./with-pricing.ts`) from the
       * price table; absent when the model has no known price.
       */
      costUsd?: number;
    };

/**
 * What a backend that runs its own file tools (`claude_code`) may touch (docs/tools.md): the
 * runner builds it from the agent's workspace and context paths with the same path policy as
 * coord's file tools.
 */
export interface FileAccess {
  /** The agent's private workspace: the backend's working directory. */
  workspace: string;
  /** Other folders the agent may read (context paths, the other agents' snapshot copies). */
  readRoots: string[];
  /**
   * Why the agent may not read or write `path` with the backend's own tools, or undefined when it
   * may. Writes outside the workspace go through coord's file tools (the presenter's included).
   */
  refusal(path: string, mode: "read" | "write"): Promise<string | undefined>;
}

/** Per-call options. */
export interface StreamOptions {
  /** Aborts the in-flight request; the iterator then throws an AbortError. */
  signal: AbortSignal;
  /**
   * Called on every sign of life from the provider (each wire event, even one that yields no
   * chunk, such as a keep-alive or a tool call's argument delta), by backends that set
   * {@link Backend.reportsActivity}; the retry wrapper's first-byte and stream-idle timeouts
   * listen to it.
   */
  onActivity?: () => void;
}

/**
 * A model backend. One instance serves one agent.
 *
 * `stream` yields text/reasoning deltas and tool calls as they arrive and ends with exactly one
 * `finish` chunk. It throws {@link BackendError} for provider failures.
 */
export interface Backend {
  /** Backend type as written in the config (`openai`, `chatcompletion`, `local`, …). */
  readonly type: string;
  /** Model name (or, for `local`, the GGUF path). */
  readonly model: string;
  /**
   * True when the backend calls {@link StreamOptions.onActivity} for every wire event: then the
   * retry wrapper's first-byte and stream-idle timeouts apply to it (providers over HTTP).
   * In-process local inference and code agents leave it unset: they may work silently for long.
   */
  readonly reportsActivity?: boolean;
  /**
   * True for a server that may be silent for long before its response begins (a server on this
   * machine or network loading a model or evaluating a long prompt: LM Studio, Ollama, vLLM):
   * the first-byte timeout does not apply to it (the request timeout still does), the stream-idle
   * timeout does once the response began.
   */
  readonly silentStart?: boolean;
  stream(request: ModelRequest, options: StreamOptions): AsyncIterable<BackendChunk>;
  /** Releases resources (a loaded local model, sockets). Optional. */
  close?(): Promise<void>;
}

/**
 * What a {@link BackendError} is, when coord recognises it:
 *
 * - `context-length`: the prompt does not fit the model's context window (OpenAI
 *   `context_length_exceeded`, Anthropic "prompt is too long", Gemini "exceeds the maximum number
 *   of tokens", vLLM / llama.cpp / LM Studio equivalents; `./context-length.ts`). Never
 *   retryable: the same request fails the same way;
 * - `timeout`: the retry wrapper's request, first-byte or stream-idle timeout (`./retry.ts`);
 *   retryable;
 * - `tool-choice`: the provider refused `tool_choice: "required"` (`./tool-choice-fallback.ts`
 *   retries such a call once with `auto`).
 */
export type BackendErrorKind = "context-length" | "timeout" | "tool-choice";

/**
 * A provider failure, with enough to decide on a retry and to tell the user who is at fault.
 * CONTRIBUTING.md rule 7: "backend with provider/status/retryable".
 */
export class BackendError extends Error {
  readonly provider: string;
  /** HTTP status, when the failure was an HTTP response. */
  readonly status: number | undefined;
  /** True for 408/409/429/5xx and network errors; always false for `kind: "context-length"`. */
  readonly retryable: boolean;
  /** Milliseconds the provider asked us to wait (Retry-After), if it said. */
  readonly retryAfterMs: number | undefined;
  /** What the failure is, when recognised ({@link BackendErrorKind}). */
  readonly kind: BackendErrorKind | undefined;
  /**
   * For `kind: "context-length"`: the model's context window in tokens, when the provider's
   * message names it ("maximum context length is 8192 tokens").
   */
  readonly contextWindow: number | undefined;

  constructor(options: {
    message: string;
    provider: string;
    status?: number | undefined;
    retryable: boolean;
    retryAfterMs?: number | undefined;
    kind?: BackendErrorKind | undefined;
    contextWindow?: number | undefined;
    cause?: unknown;
  }) {
    super(options.message, { cause: options.cause });
    this.name = "BackendError";
    this.provider = options.provider;
    this.status = options.status;
    // An identical request that overflowed the context overflows again: never retried blindly.
    this.retryable = options.kind === "context-length" ? false : options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.kind = options.kind;
    this.contextWindow = options.contextWindow;
  }
}

/**
 * True when `error` is a provider's "the prompt exceeds the model's context" failure
 * (`kind: "context-length"`); its `contextWindow` then gives the window in tokens when known.
 */
export function isContextLengthError(
  error: unknown,
): error is BackendError & { kind: "context-length" } {
  return error instanceof BackendError && error.kind === "context-length";
}

/** True for HTTP statuses worth retrying: 408, 409, 429 and 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** A usage record with every count at 0. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedInputTokens: 0 };
}
