/**
 * The bridge between coord's provider-neutral backend types (`backend.ts`) and the `ai` SDK's
 * providers: one {@link ModelRequest} becomes one `doStream` call of the provider's language model
 * (`LanguageModelV3`, the interface every `@ai-sdk/*` provider implements; the provider owns the
 * wire format, its errors and its stream parsing), and the stream's parts become
 * {@link BackendChunk}s. There is no tool execution (the engine owns the tool loop, CONTRIBUTING.md
 * rule 4) and no retry here (a wrapper's job, rule 5). Every provider failure leaves here as a
 * {@link BackendError}; aborts leave as the abort reason.
 *
 * Why not the SDK's `streamText`: for coord's one-step calls it adds only work — it validates the
 * whole prompt with zod on every call, pipes every part through several more web streams and
 * loads the SDK's gateway and telemetry modules — which made a model call cost about 3× the CPU
 * (9.8 vs 3.3 ms per call on the bench machine). The request conversion lives in
 * `ai-sdk-request.ts`, the error mapping in `ai-sdk-errors.ts`.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import type { Clock } from "../clock.js";
import { withActivityListener } from "./ai-sdk-activity.js";
import { toBackendError } from "./ai-sdk-errors.js";
import { describeWarning } from "./ai-sdk-warnings.js";
import { toCallArguments, type AiSdkCallArguments, type AiSdkTool } from "./ai-sdk-request.js";
import { withToolChoiceFallback } from "./tool-choice-fallback.js";
import { parseToolInput } from "./tool-input.js";
import type { GenerationCallSettings } from "./generation-settings.js";
import {
  BackendError,
  type BackendChunk,
  type ModelRequest,
  type StreamOptions,
  type Usage,
} from "./backend.js";

// Moved to their own files (CONTRIBUTING.md rule 10); re-exported so existing importers keep
// working.
export { messageFromResponseBody, parseRetryAfterMs, toBackendError } from "./ai-sdk-errors.js";
export {
  toCallArguments,
  toFunctionTools,
  toPrompt,
  type AiSdkCallArguments,
  type AiSdkTool,
} from "./ai-sdk-request.js";

/** A provider's language model, e.g. `createOpenAI(...).responses("gpt-5")`. */
export type AiSdkModel = LanguageModelV3;

/** Provider-specific options passed through to the provider (`{openai: {...}}`, …). */
export type AiSdkProviderOptions = NonNullable<LanguageModelV3CallOptions["providerOptions"]>;

/** Options of {@link streamWithAiSdk}: the per-call options plus injected helpers. */
export interface AiSdkStreamOptions extends StreamOptions {
  /** Provider options for this model (e.g. `{openai: {reasoningSummary: "auto"}}`). */
  providerOptions?: AiSdkProviderOptions;
  /** The config's sampling settings (`top_p`, `seed`, `stop`, …; `generation-settings.ts`). */
  callSettings?: GenerationCallSettings;
  /** Clock used to turn a `Retry-After` HTTP-date into milliseconds. Default: `Date.now`. */
  clock?: Pick<Clock, "now">;
  /**
   * Appended to 401/403 error messages to say what fixes them, e.g.
   * `"check OPENAI_API_KEY or api_key: in the config"`.
   */
  authHint?: string;
  /** Appended to "cannot reach" messages, e.g. `"is LM Studio running? check base_url:"`. */
  unreachableHint?: string;
  /**
   * Tools the provider runs itself (`anthropic.tools.webSearch_20250305()`, `google.tools.
   * googleSearch({})`, …) keyed by the name the model sees, offered beside the request's tools;
   * see {@link withProviderTools}.
   */
  providerTools?: ToolSet;
  /**
   * Extra chunks from a finished call's provider metadata, yielded before `finish`: how a
   * provider that reports hosted tool use only as metadata (Gemini's grounding) reaches the log.
   */
  metadataChunks?: (providerMetadata: unknown) => BackendChunk[];
  /**
   * The backend instance the call belongs to, for what it learns during its run (the tool-choice
   * fallback); default `model`. A backend whose model is shared (`model-cache.ts`) passes its own.
   */
  instance?: object;
}

/**
 * Adds provider-executed tools to the call's arguments. They join the request's tools (first, as
 * the SDK orders them) under the same tool choice; a call that offers no tools gets them with
 * `auto`, and a call whose request says `none` (the final presentation) gets none.
 */
export function withProviderTools(
  args: AiSdkCallArguments,
  providerTools: ToolSet | undefined,
  toolChoice: ModelRequest["toolChoice"],
): AiSdkCallArguments {
  if (providerTools === undefined || Object.keys(providerTools).length === 0) return args;
  if (toolChoice === "none") return args;
  const hosted: AiSdkTool[] = [];
  for (const [name, tool] of Object.entries(providerTools)) {
    if (tool.type === "provider")
      hosted.push({ type: "provider", name, id: tool.id, args: tool.args });
  }
  return {
    ...args,
    tools: [...hosted, ...(args.tools ?? [])],
    toolChoice: args.toolChoice ?? { type: "auto" },
  };
}

/**
 * Streams one model call through a provider's language model and yields coord's chunks:
 * `text-delta`, `reasoning-delta` and `tool-call` (the input parsed from JSON by
 * {@link parseToolInput}: an empty input is `{}`, cut-off JSON is repaired and marked
 * `repaired`, text no repair reads as an object is passed on as the string with `inputError`) as
 * they arrive, the provider's call warnings as `warning` chunks, then exactly one `finish` with
 * the usage in tokens (absent counts are 0).
 *
 * A provider that refuses `tool_choice: "required"` gets the call again with `auto`, remembered
 * for `options.instance` (one backend instance; default `model`) from then on, with a `retry` chunk for the refused
 * request and one `warning` ({@link withToolChoiceFallback}).
 *
 * @param model an ai SDK language model, e.g. `createOpenAI(...).responses("gpt-5")`.
 * @param providerName who to blame in errors (`openai`, `openrouter`, `lmstudio`, …).
 * @param request the one model call to make.
 * @param options the abort signal plus optional provider options, clock and auth hint.
 * @throws BackendError for HTTP errors, error events in the stream, network failures and
 *   malformed responses; `retryable` for 408/409/429/5xx and network errors, `retryAfterMs` from
 *   `retry-after-ms` / `Retry-After` (seconds or HTTP-date).
 * @throws the signal's abort reason (an `AbortError` DOMException unless the caller gave another
 *   Error) when `options.signal` aborts.
 */
export function streamWithAiSdk(
  model: AiSdkModel,
  providerName: string,
  request: ModelRequest,
  options: AiSdkStreamOptions,
): AsyncIterable<BackendChunk> {
  return withToolChoiceFallback(options.instance ?? model, providerName, request, (sent) =>
    streamOnce(model, providerName, sent, options),
  );
}

/** One request of {@link streamWithAiSdk}, as it was asked for. */
async function* streamOnce(
  model: AiSdkModel,
  providerName: string,
  request: ModelRequest,
  options: AiSdkStreamOptions,
): AsyncIterable<BackendChunk> {
  const { signal } = options;
  const mapError = (error: unknown): unknown =>
    isAbortLike(error, signal)
      ? abortReason(signal, error)
      : toBackendError(error, {
          provider: providerName,
          nowMs: (options.clock ?? Date).now(),
          authHint: options.authHint,
          unreachableHint: options.unreachableHint,
        });

  if (signal.aborted) throw abortReason(signal);

  let finish: Extract<BackendChunk, { type: "finish" }> | undefined;
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  try {
    // The provider's fetch (`activityFetch`) tells `onActivity` of every byte that arrives.
    const { stream } = await withActivityListener(options.onActivity, signal, (abortSignal) =>
      model.doStream({
        ...withProviderTools(toCallArguments(request), options.providerTools, request.toolChoice),
        ...options.callSettings,
        abortSignal,
        ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
      }),
    );
    reader = stream.getReader();
    for (;;) {
      const { done, value: part } = await reader.read();
      if (done) break;
      if (part.type === "finish") {
        if (options.metadataChunks !== undefined) {
          yield* options.metadataChunks(part.providerMetadata);
        }
        finish = {
          type: "finish",
          finishReason: part.finishReason.unified,
          usage: toUsage(part.usage),
        };
        continue;
      }
      if (part.type === "stream-start") {
        for (const warning of part.warnings) {
          yield { type: "warning", message: describeWarning(warning) };
        }
        continue;
      }
      const chunk = toChunk(part);
      if (chunk === "error") throw mapError((part as { error: unknown }).error);
      if (chunk !== undefined) yield chunk;
    }
  } catch (error) {
    if (error instanceof BackendError || isAbortLike(error, signal)) throw error;
    throw mapError(error);
  } finally {
    // A consumer that stops early (or an error) must not leave the HTTP response open.
    reader?.cancel().catch(() => {});
  }

  if (signal.aborted) throw abortReason(signal);
  if (finish === undefined) {
    throw new BackendError({
      message: `${providerName}: the response stream ended without a finish event`,
      provider: providerName,
      retryable: true,
    });
  }
  yield finish;
}

/** One stream part as a chunk; `"error"` for an error part; undefined for parts coord skips. */
function toChunk(part: LanguageModelV3StreamPart): BackendChunk | "error" | undefined {
  switch (part.type) {
    case "text-delta":
      return part.delta !== "" ? { type: "text-delta", text: part.delta } : undefined;
    case "reasoning-delta":
      return part.delta !== "" ? { type: "reasoning-delta", text: part.delta } : undefined;
    case "tool-call":
      // Provider-executed calls (hosted tools) are reported, not ours to run.
      return {
        type: part.providerExecuted === true ? "provider-tool-call" : "tool-call",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        ...parseToolInput(part.input),
      };
    case "tool-result":
      return {
        type: "provider-tool-result",
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        output: part.result,
        isError: part.isError === true,
      };
    case "error":
      return "error";
    default:
      return undefined;
  }
}

/** Converts a provider's usage to coord's usage in tokens; absent counts become 0. */
export function toUsage(usage: LanguageModelV3Usage | undefined): Usage {
  return {
    inputTokens: usage?.inputTokens.total ?? 0,
    outputTokens: usage?.outputTokens.total ?? 0,
    reasoningTokens: usage?.outputTokens.reasoning ?? 0,
    cachedInputTokens: usage?.inputTokens.cacheRead ?? 0,
  };
}

function isAbortLike(error: unknown, signal: AbortSignal): boolean {
  if (error === signal.reason && signal.aborted) return true;
  return (
    (error instanceof Error || error instanceof DOMException) &&
    (error.name === "AbortError" || (signal.aborted && error.name === "TimeoutError"))
  );
}

/** The error to throw for an abort: the signal's reason when it is an Error, else an AbortError. */
function abortReason(signal: AbortSignal, fallback?: unknown): unknown {
  if (signal.reason instanceof Error) return signal.reason;
  if (fallback instanceof Error) return fallback;
  return new DOMException("The operation was aborted.", "AbortError");
}
