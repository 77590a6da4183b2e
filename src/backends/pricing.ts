/**
 * Model prices and context windows, from the `@pydantic/genai-prices` package's bundled data
 * (`./price-data.ts` names its version; it is never updated over the network), a user's
 * `agents[].backend.pricing` override, or 0 by definition for what runs here.
 *
 * Usage convention (what every backend reports, following the ai SDK's normalization, and the
 * package's own): `inputTokens` counts the whole prompt **including** `cachedInputTokens`;
 * `outputTokens` counts the whole reply **including** `reasoningTokens`. The package prices them
 * with the model's cache-read, tiered (long-context) and time-of-day prices; an override bills
 *
 * ```
 * (input − cached) × input + cached × cached_input + output × output
 * ```
 *
 * over 1,000,000 (reasoning tokens at the output price, as every provider bills them).
 *
 * Which provider's list a backend type bills by is its descriptor's price source
 * (`src/config/provider-descriptors/`): `openai` → openai, `azure_openai` → azure (with the
 * package's fallback to OpenAI's list for a deployment named after its model), `claude` and
 * `claude_code` → anthropic, `gemini` → google, `grok` → x-ai, `zai` → zai, `openrouter`,
 * `groq`, `cerebras`, `together`, `fireworks` → their own, `moonshot` → moonshotai. Every other
 * Chat Completions type (`chatcompletion`, `vllm`, `lmstudio`, `ollama`, `sglang`, `nebius`,
 * `poe`, `qwen`) is priced by the provider its `base_url` (else its default) names
 * (`https://api.deepseek.com` → deepseek, `https://api.mistral.ai` → mistral, …): a server on
 * this machine or an unlisted host has **no price**, and neither has a model the list lacks.
 * Callers then show its tokens and "cost unknown", never a made-up number. `local` (in-process
 * GGUF inference on this machine's CPU) and `scripted` (a test double that calls no model) cost
 * 0 by definition.
 */
import { createRequire } from "node:module";
import type * as GenaiPrices from "@pydantic/genai-prices";
import { type BackendConfig, descriptorOf, type PriceSource } from "../config/index.js";
import type { Usage } from "./backend.js";
import { PRICE_PACKAGE, priceDataLabel } from "./price-data.js";

let loaded: typeof GenaiPrices | undefined;

/**
 * The price package, loaded on first use from node_modules (its CommonJS build, never bundled):
 * it parses half a megabyte of data, which a run of only `local` and `scripted` agents never
 * needs; and the data used is the installed version's, the one {@link priceDataLabel} names.
 */
function prices(): typeof GenaiPrices {
  loaded ??= createRequire(import.meta.url)(PRICE_PACKAGE) as typeof GenaiPrices;
  return loaded;
}

/** The backend keys a price is looked up by. */
export interface PricedBackend {
  /** `agents[].backend.type`. */
  readonly type: string;
  readonly model?: string | undefined;
  readonly base_url?: string | undefined;
  readonly pricing?: BackendConfig["pricing"];
}

/** A model's price and context window, whichever source they come from. */
export interface ModelPrice {
  /**
   * Where the price comes from, for people: `@pydantic/genai-prices 0.1.8: openai gpt-4.1-mini`,
   * `config: backend.pricing`, or why it is 0 (`local: …`, `scripted: …`).
   */
  readonly source: string;
  /** Tokens the model's context window holds, when known. */
  readonly contextWindow: number | undefined;
  /**
   * USD of one call's usage. Counts that do not add up (more cached than input tokens, more
   * reasoning than output tokens) are clamped, so the result is never negative.
   * @param at when the call was made (time-of-day prices), ms since the epoch.
   * @throws Error when the package cannot price the usage (the call's cost is then unknown).
   */
  readonly cost: (usage: Usage, at: number) => number;
}

/** How `type`'s calls are priced: its descriptor's price source (none for an unknown type). */
function priceSourceOf(type: string): PriceSource | undefined {
  return descriptorOf(type)?.price;
}

/** A model id as the package's list names it: trimmed, without Gemini's `models/` prefix. */
function modelId(model: string): string {
  return model.trim().replace(/^models\//i, "");
}

/**
 * The package's options for a backend: its provider id, or for a type without one the API URL
 * (its `base_url`, else its provider's default), matched against the package's API patterns.
 */
function lookupOptions(
  backend: PricedBackend,
): { providerId: string } | { providerApiUrl: string } | undefined {
  const source = priceSourceOf(backend.type);
  if (source?.kind === "list") return { providerId: source.provider };
  const url = backend.base_url ?? descriptorOf(backend.type)?.defaultBaseUrl;
  return url === undefined ? undefined : { providerApiUrl: url };
}

/** The package's usage record of one call. */
function packageUsage(usage: Usage): Record<string, number> {
  return {
    input_tokens: usage.inputTokens,
    cache_read_tokens: Math.min(usage.cachedInputTokens, usage.inputTokens),
    output_tokens: usage.outputTokens,
    output_reasoning_tokens: Math.min(usage.reasoningTokens, usage.outputTokens),
  };
}

/** Lookups kept by {@link listed}, at most {@link LOOKUPS_KEPT}. */
const lookups = new Map<string, GenaiPrices.PriceCalculation | undefined>();
const LOOKUPS_KEPT = 256;

/**
 * The package's price of `model` for `backend`, or undefined when it lists none. Its provider and
 * model (ids, context window) do not depend on `at`, only its prices, which {@link listPrice}'s
 * `cost` reads at each call's own time: so a lookup is made once per provider options and model
 * in a process (every run looked each agent's model up again, an unknown one twice: ~0.1–0.3 ms
 * each through the package's whole list).
 */
function listed(
  backend: PricedBackend,
  model: string,
  at: number,
): GenaiPrices.PriceCalculation | undefined {
  const options = lookupOptions(backend);
  if (options === undefined || model.trim() === "") return undefined;
  const key = JSON.stringify([options, modelId(model)]);
  if (lookups.has(key)) return lookups.get(key);
  const usage = { input_tokens: 0, output_tokens: 0 };
  const found =
    prices().calcPrice(usage, modelId(model), { ...options, timestamp: new Date(at) }) ?? undefined;
  if (lookups.size >= LOOKUPS_KEPT) lookups.clear();
  lookups.set(key, found);
  return found;
}

/** The price in the package's data, or undefined. */
function listPrice(backend: PricedBackend, model: string, at: number): ModelPrice | undefined {
  const found = listed(backend, model, at);
  if (found === undefined) return undefined;
  const options = lookupOptions(backend)!;
  const id = modelId(model);
  return {
    source: `${priceDataLabel()}: ${found.provider.id} ${found.model.id}`,
    contextWindow: found.model.context_window,
    cost: (usage, when) => {
      const priced = prices().calcPrice(packageUsage(usage), id, {
        ...options,
        timestamp: new Date(when),
      });
      if (priced === null) throw new Error(`no price for ${id} at ${new Date(when).toISOString()}`);
      return priced.total_price;
    },
  };
}

/** The price a `pricing:` override with both prices sets. */
function overridePrice(
  pricing: NonNullable<BackendConfig["pricing"]>,
  contextWindow: number | undefined,
): ModelPrice | undefined {
  const { input_per_mtok: input, output_per_mtok: output } = pricing;
  if (input === undefined || output === undefined) return undefined;
  const cachedRate = pricing.cached_input_per_mtok ?? input;
  return {
    source: "config: backend.pricing",
    contextWindow,
    cost: (usage) => {
      const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
      return (
        ((usage.inputTokens - cached) * input + cached * cachedRate + usage.outputTokens * output) /
        1_000_000
      );
    },
  };
}

/**
 * The price of a backend's model, or `undefined` when it is unknown (see the module comment for
 * the sources and the order: an override's prices win over the package's, its `context_window`
 * over the package's window).
 *
 * @param backend `agents[].backend` (its `type`, `model`, `base_url`, `pricing`).
 * @param at when (ms since the epoch) to read time-dependent list prices for the window lookup.
 */
export function priceFor(backend: PricedBackend, at: number = Date.now()): ModelPrice | undefined {
  const source = priceSourceOf(backend.type);
  if (source?.kind === "free") {
    return { source: source.why, contextWindow: backend.pricing?.context_window, cost: () => 0 };
  }
  const list = backend.model === undefined ? undefined : listPrice(backend, backend.model, at);
  const contextWindow = backend.pricing?.context_window ?? list?.contextWindow;
  const override = backend.pricing ? overridePrice(backend.pricing, contextWindow) : undefined;
  if (override !== undefined) return override;
  if (list === undefined) return undefined;
  return { ...list, contextWindow };
}

/**
 * The model's context window in tokens: the override's `context_window`, else the package's,
 * else undefined (unknown).
 */
export function contextWindowFor(backend: PricedBackend): number | undefined {
  if (backend.pricing?.context_window !== undefined) return backend.pricing.context_window;
  if (backend.model === undefined || priceSourceOf(backend.type)?.kind === "free") return undefined;
  return listed(backend, backend.model, Date.now())?.model.context_window;
}

/**
 * USD cost of one model call at `at` (ms since the epoch; default now).
 * @throws Error when the package cannot price the usage.
 */
export function costUsd(usage: Usage, price: ModelPrice, at: number = Date.now()): number {
  return price.cost(usage, at);
}
