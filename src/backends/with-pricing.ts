/**
 * Cost and context window as a wrapper around any backend (CONTRIBUTING.md rule 5, like
 * `withRetry`):
 *
 * - the `finish` chunk of every call gets `costUsd`, its tokens priced by `./pricing.ts` (the
 *   `@pydantic/genai-prices` data, the agent's `backend.pricing` override, 0 for `local` and
 *   `scripted`). A model with no known price passes through unchanged — no `costUsd` — so the
 *   call's cost stays unknown; so does a call the package cannot price.
 * - a context overflow whose message names no window (`BackendError` `kind: "context-length"`
 *   without `contextWindow`) is thrown again with the model's window from the same source, so the
 *   engine can shorten the prompt to it (`src/engine/context-fit.ts`). A window the provider's
 *   message names wins: it is the one that applied.
 */
import type { Clock } from "../clock.js";
import {
  BackendError,
  isContextLengthError,
  type Backend,
  type BackendChunk,
  type ModelRequest,
  type StreamOptions,
} from "./backend.js";
import { contextWindowFor, priceFor, type ModelPrice, type PricedBackend } from "./pricing.js";

/** How {@link withPricing} finds the price. */
export interface PricingOptions {
  /**
   * The agent's backend config (`type`, `model`, `base_url`, `pricing`); default the backend's
   * own `type` and `model`.
   */
  config?: PricedBackend;
  /** The price to bill by, instead of looking it up; `null`: unpriced (cost unknown). */
  price?: ModelPrice | null;
  /** When calls happen (time-of-day prices); default the system clock. */
  clock?: Pick<Clock, "now">;
}

/**
 * Wraps `backend` so each `finish` chunk carries the call's cost in USD and a context overflow
 * the model's window (see the module comment). The price is looked up once, at the first finish
 * or context overflow.
 */
export function withPricing(backend: Backend, options: PricingOptions = {}): Backend {
  const now = options.clock ? () => options.clock!.now() : () => Date.now();
  const config = options.config ?? { type: backend.type, model: backend.model };
  // Looked up at the first finish or error, not here: the price data (the package's whole
  // model list) then loads after the first request has gone out, not before it (start-up time).
  let known: { price: ModelPrice | undefined; contextWindow: number | undefined } | undefined;
  const lookUp = () => {
    if (known) return known;
    const price =
      (options.price === undefined ? priceFor(config, now()) : options.price) ?? undefined;
    known = { price, contextWindow: price ? price.contextWindow : contextWindowFor(config) };
    return known;
  };

  async function* stream(
    request: ModelRequest,
    streamOptions: StreamOptions,
  ): AsyncGenerator<BackendChunk> {
    try {
      for await (const chunk of backend.stream(request, streamOptions)) {
        if (chunk.type !== "finish") {
          yield chunk;
          continue;
        }
        const { price } = lookUp();
        yield price ? priced(chunk, price, now()) : chunk;
      }
    } catch (error) {
      throw isContextLengthError(error) ? withWindow(error, lookUp().contextWindow) : error;
    }
  }

  return {
    type: backend.type,
    model: backend.model,
    ...(backend.reportsActivity !== undefined ? { reportsActivity: backend.reportsActivity } : {}),
    ...(backend.silentStart !== undefined ? { silentStart: backend.silentStart } : {}),
    stream,
    ...(backend.close ? { close: () => backend.close!() } : {}),
  };
}

/** The finish chunk with its cost; unchanged (cost unknown) when the price cannot be applied. */
function priced(
  chunk: Extract<BackendChunk, { type: "finish" }>,
  price: ModelPrice,
  at: number,
): BackendChunk {
  try {
    return { ...chunk, costUsd: price.cost(chunk.usage, at) };
  } catch {
    return chunk;
  }
}

/** A context overflow without a window, given `contextWindow`; any other error unchanged. */
function withWindow(error: unknown, contextWindow: number | undefined): unknown {
  if (!isContextLengthError(error) || error.contextWindow !== undefined) return error;
  if (contextWindow === undefined) return error;
  return new BackendError({
    message: error.message,
    provider: error.provider,
    status: error.status,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    kind: error.kind,
    contextWindow,
    cause: error.cause,
  });
}
