/**
 * Cost as a wrapper around any backend (STYLE.md rule 5, like `withRetry`): the `finish` chunk of
 * every call gets `costUsd`, its tokens priced by the price table (`./pricing.ts`). A model with
 * no known price passes through unchanged — no `costUsd` — so the call's cost stays unknown.
 */
import type { Backend, BackendChunk, ModelRequest, StreamOptions } from "./backend.js";
import { costUsd, priceFor, type PriceRow } from "./pricing.js";

/**
 * Wraps `backend` so each `finish` chunk carries the call's cost in USD.
 *
 * @param price the price to bill by; default `priceFor(backend.type, backend.model)`. Pass
 *   `null` to mark the backend as unpriced explicitly.
 */
export function withPricing(
  backend: Backend,
  price: PriceRow | null | undefined = priceFor(backend.type, backend.model),
): Backend {
  if (!price) return backend;
  const known = price;

  async function* stream(
    request: ModelRequest,
    options: StreamOptions,
  ): AsyncGenerator<BackendChunk> {
    for await (const chunk of backend.stream(request, options)) {
      yield chunk.type === "finish" ? { ...chunk, costUsd: costUsd(chunk.usage, known) } : chunk;
    }
  }

  return {
    type: backend.type,
    model: backend.model,
    stream,
    ...(backend.close ? { close: () => backend.close!() } : {}),
  };
}
