/**
 * The bridge between coord's provider-neutral backend types (`backend.ts`) and the `ai` SDK v6:
 * one {@link ModelRequest} becomes one `streamText` call with no tool execution (the engine owns
 * the tool loop, STYLE.md rule 4), and the SDK's `fullStream` parts become {@link BackendChunk}s.
 * Every provider failure leaves here as a {@link BackendError}; aborts leave as the abort reason.
 *
 * Shared by the OpenAI (Responses) and Chat Completions backends; other ai-SDK providers can use it
 * as they are added. The request conversion lives in `ai-sdk-request.ts`, the error mapping in
 * `ai-sdk-errors.ts`.
 */
import { streamText, type LanguageModel, type LanguageModelUsage, type ToolSet } from "ai";
import type { Clock } from "../clock.js";
import { withActivityListener } from "./ai-sdk-activity.js";
import { toBackendError } from "./ai-sdk-errors.js";
import { describeWarning, silenceSdkWarningLog } from "./ai-sdk-warnings.js";
import { toStreamTextArguments, type AiSdkCallArguments } from "./ai-sdk-request.js";
import type { GenerationCallSettings } from "./generation-settings.js";
import {
  BackendError,
  type BackendChunk,
  type ModelRequest,
  type StreamOptions,
  type Usage,
} from "./backend.js";

// Moved to their own files (STYLE.md rule 10); re-exported so existing importers keep working.
export { messageFromResponseBody, parseRetryAfterMs, toBackendError } from "./ai-sdk-errors.js";
export {
  toAiSdkTools,
  toModelMessages,
  toStreamTextArguments,
  type AiSdkCallArguments,
} from "./ai-sdk-request.js";

type StreamTextArguments = Parameters<typeof streamText>[0];

/** Provider-specific options passed through to the ai SDK (`{openai: {...}}`, …). */
export type AiSdkProviderOptions = NonNullable<StreamTextArguments["providerOptions"]>;

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
   * googleSearch({})`, …), offered beside the request's tools; see {@link withProviderTools}.
   */
  providerTools?: ToolSet;
  /**
   * Extra chunks from a finished step's provider metadata, yielded before `finish`: how a
   * provider that reports hosted tool use only as metadata (Gemini's grounding) reaches the log.
   */
  metadataChunks?: (providerMetadata: unknown) => BackendChunk[];
}

/**
 * Adds provider-executed tools to the call's arguments. They join the request's tools under the
 * same tool choice; a call that offers no tools gets them with `auto`, and a call whose request
 * says `none` (the final presentation) gets none.
 */
export function withProviderTools(
  args: AiSdkCallArguments,
  providerTools: ToolSet | undefined,
  toolChoice: ModelRequest["toolChoice"],
): AiSdkCallArguments {
  if (providerTools === undefined || Object.keys(providerTools).length === 0) return args;
  if (toolChoice === "none") return args;
  return {
    ...args,
    tools: { ...providerTools, ...args.tools },
    toolChoice: args.toolChoice ?? "auto",
  };
}

/**
 * Streams one model call through the ai SDK and yields coord's chunks: `text-delta`,
 * `reasoning-delta` and `tool-call` (with the parsed input object) as they arrive, the SDK's call
 * warnings as `warning` chunks, then exactly one `finish` with the usage in tokens (absent counts
 * are 0).
 *
 * The SDK neither executes tools (tools carry no `execute`) nor retries (`maxRetries: 0`; retries
 * are a wrapper, STYLE.md rule 5).
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
export async function* streamWithAiSdk(
  model: LanguageModel,
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
  silenceSdkWarningLog();

  let finish: Extract<BackendChunk, { type: "finish" }> | undefined;
  try {
    // The provider's fetch (`activityFetch`) tells `onActivity` of every byte that arrives.
    const result = withActivityListener(options.onActivity, () =>
      streamText({
        model,
        ...withProviderTools(
          toStreamTextArguments(request),
          options.providerTools,
          request.toolChoice,
        ),
        ...options.callSettings,
        abortSignal: signal,
        maxRetries: 0,
        ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
        // Errors arrive as `error` parts below; without this the SDK also prints them to stderr.
        onError: () => {},
      }),
    );

    for await (const part of result.fullStream) {
      switch (part.type) {
        case "text-delta":
          if (part.text !== "") yield { type: "text-delta", text: part.text };
          break;
        case "reasoning-delta":
          if (part.text !== "") yield { type: "reasoning-delta", text: part.text };
          break;
        case "tool-call":
          // Provider-executed calls (hosted tools) are reported, not ours to run.
          yield {
            type: part.providerExecuted === true ? "provider-tool-call" : "tool-call",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          };
          break;
        case "tool-result":
          if (part.providerExecuted === true) {
            yield {
              type: "provider-tool-result",
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              output: part.output,
              isError: false,
            };
          }
          break;
        case "tool-error":
          if (part.providerExecuted === true) {
            yield {
              type: "provider-tool-result",
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              output: part.error,
              isError: true,
            };
          }
          break;
        case "start-step":
          for (const warning of part.warnings) {
            yield { type: "warning", message: describeWarning(warning) };
          }
          break;
        case "finish-step":
          if (options.metadataChunks !== undefined) {
            yield* options.metadataChunks(part.providerMetadata);
          }
          break;
        case "error":
          throw mapError(part.error);
        case "abort":
          throw abortReason(signal);
        case "finish":
          finish = {
            type: "finish",
            finishReason: part.finishReason,
            usage: toUsage(part.totalUsage),
          };
          break;
        default:
          break;
      }
    }
  } catch (error) {
    if (error instanceof BackendError || isAbortLike(error, signal)) throw error;
    throw mapError(error);
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

/** Converts ai SDK usage to coord's usage in tokens; absent counts become 0. */
export function toUsage(usage: LanguageModelUsage | undefined): Usage {
  return {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    reasoningTokens: usage?.outputTokenDetails?.reasoningTokens ?? usage?.reasoningTokens ?? 0,
    cachedInputTokens: usage?.inputTokenDetails?.cacheReadTokens ?? usage?.cachedInputTokens ?? 0,
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
