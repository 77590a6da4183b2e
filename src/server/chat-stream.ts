/**
 * A chat completion answered as Server-Sent Events (`coord serve --stream`;
 * docs/server.md "Streaming"), in OpenAI's `chat.completion.chunk` format: a first chunk with the
 * assistant role, the run's trace lines as `reasoning_content` deltas while the team works (joined,
 * they are the non-streaming `reasoning_content`), the final answer as `content` deltas, a chunk
 * with `finish_reason: "stop"`, a usage chunk (`choices: []`) when `stream_options.include_usage`,
 * then `data: [DONE]`. A `: keep-alive` comment goes out after every `keepAliveMs` of silence, so
 * proxies and clients do not time out while agents think. A run that fails after the stream began
 * ends it with one `data: {"error": {…}}` event (the OpenAI error shape; no `[DONE]`), which the
 * SDKs raise as an API error. The client going away (the stream cancelled) stops the run.
 */
import { randomBytes } from "node:crypto";
import { redact } from "../redact.js";
import type { Clock } from "../clock.js";
import { ApiError, withoutAddresses } from "./api-error.js";
import type { CompletionResult } from "./chat-completion.js";

/** Default silence before a `: keep-alive` comment, ms. */
export const DEFAULT_KEEP_ALIVE_MS = 15_000;

/** Largest `content` delta, characters: the answer is sent in pieces of at most this. */
const CONTENT_PIECE = 256;

/** How a streamed completion is sent. */
export interface StreamOptions {
  /** The model id in every chunk. */
  model: string;
  /** Unix seconds. */
  created: number;
  /** `stream_options.include_usage`: send the usage chunk. */
  includeUsage: boolean;
  /** Silence before a keep-alive comment, ms. */
  keepAliveMs: number;
  /** Time (the sleeps between keep-alive checks). */
  clock: Clock;
  /** Full messages of a failure (with addresses) for the server's log. */
  onError: (error: unknown) => void;
  /** Called once the stream ended (sent, failed or cancelled): frees the run's slot. */
  onEnd: () => void;
}

/**
 * Starts the run and returns the SSE response at once.
 * @param run starts the team run: calls `onLine` with each trace line, stops on `signal`
 *   (aborted when the client goes away), resolves with the finished completion.
 */
export function streamChatCompletion(
  run: (onLine: (line: string) => void, signal: AbortSignal) => Promise<CompletionResult>,
  options: StreamOptions,
): Response {
  const encoder = new TextEncoder();
  const id = `chatcmpl-${randomBytes(12).toString("hex")}`;
  const cancelled = new AbortController();
  const done = new AbortController();
  let wrote = false;
  let lines = 0;
  const chunk = (delta: object, finish: "stop" | null = null, extra: object = {}) => ({
    id,
    object: "chat.completion.chunk",
    created: options.created,
    model: options.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        if (cancelled.signal.aborted || done.signal.aborted) return;
        wrote = true;
        controller.enqueue(encoder.encode(text));
      };
      const event = (data: unknown) =>
        send(`data: ${redact(typeof data === "string" ? data : JSON.stringify(data))}\n\n`);
      const finish = () => {
        if (!done.signal.aborted) {
          done.abort();
          if (!cancelled.signal.aborted) controller.close();
        }
        options.onEnd();
      };
      void (async () => {
        while (!done.signal.aborted && !cancelled.signal.aborted) {
          wrote = false;
          try {
            await options.clock.sleep(options.keepAliveMs, done.signal);
          } catch {
            return;
          }
          if (!wrote) send(": keep-alive\n\n");
        }
      })();
      event(chunk({ role: "assistant", content: "" }));
      run((line) => {
        event(chunk({ reasoning_content: lines++ === 0 ? line : `\n${line}` }));
      }, cancelled.signal).then(
        (result) => {
          const choice = result.body.choices[0];
          const content = choice.message.content;
          for (let at = 0; at < content.length; at += CONTENT_PIECE)
            event(chunk({ content: content.slice(at, at + CONTENT_PIECE) }));
          event(chunk({}, "stop", result.body.coord ? { coord: result.body.coord } : {}));
          if (options.includeUsage) event({ ...chunk({}), choices: [], usage: result.body.usage });
          event("[DONE]");
          finish();
        },
        (error: unknown) => {
          options.onError(error);
          const apiError =
            error instanceof ApiError
              ? error
              : new ApiError(500, "internal error in coord serve (please report it)", {
                  code: "internal_error",
                });
          const errorBody = apiError.toBody();
          errorBody.error.message = withoutAddresses(errorBody.error.message);
          event(errorBody);
          finish();
        },
      );
    },
    cancel() {
      cancelled.abort();
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    },
  });
}
