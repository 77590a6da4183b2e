/**
 * The price table: list prices in USD per million tokens per model, each row with the page it
 * was read from and when, and the arithmetic that turns one model call's {@link Usage} into USD.
 *
 * Usage convention (what every backend reports, following the ai SDK's normalization):
 * `inputTokens` counts the whole prompt **including** `cachedInputTokens`; `outputTokens` counts
 * the whole reply **including** `reasoningTokens`. So one call costs
 *
 * ```
 * (input − cached) × input + cached × cachedInput + (output − reasoning) × output + reasoning × reasoning
 * ```
 *
 * all over 1,000,000. Reasoning tokens are billed at the output rate unless a row says otherwise
 * (every provider here bills them as output). Known simplifications, documented rather than
 * guessed: long-context tiers (Gemini Pro and Claude Sonnet above 200k prompt tokens) are billed
 * at the short-context rate; Anthropic cache *writes* (1.25× input) are billed as plain input,
 * because the usage record does not count them apart; batch and priority tiers are ignored.
 *
 * A model with no row has **no price**: callers show its tokens and "cost unknown", never a
 * made-up number. Self-hosted servers (`vllm`, `sglang`, `lmstudio`, `ollama`,
 * `chatcompletion` against an arbitrary URL) have no row; the in-process `local` GGUF backend
 * costs 0 (it runs on this machine's CPU).
 */
import type { Usage } from "./backend.js";

/** Who publishes the price. */
export type PriceProvider = "openai" | "anthropic" | "google" | "xai" | "zai" | "local";

/** One row of the price table. Prices are USD per 1,000,000 tokens. */
export interface PriceRow {
  readonly provider: PriceProvider;
  /**
   * Model id as the provider's API names it. Matches that id exactly, or followed by a snapshot
   * suffix (`-2025-04-14`, `-20250929`, `-0709`, `-latest`); a pattern ending in `*` matches any
   * id with that prefix. When several rows match, the longest pattern wins.
   */
  readonly model: string;
  /** Uncached prompt tokens, USD / 1M. */
  readonly inputPerMTok: number;
  /** Reply tokens (text), USD / 1M. */
  readonly outputPerMTok: number;
  /** Prompt tokens read from the provider's cache, USD / 1M. */
  readonly cachedInputPerMTok: number;
  /** Reasoning (thinking) tokens, USD / 1M; default {@link outputPerMTok}. */
  readonly reasoningPerMTok?: number;
  /** The page the price was read from. */
  readonly source: string;
  /** When the price was read from `source` (ISO year-month). */
  readonly checked: string;
}

const OPENAI = "https://platform.openai.com/docs/pricing";
const ANTHROPIC = "https://docs.claude.com/en/docs/about-claude/pricing";
const GOOGLE = "https://ai.google.dev/gemini-api/docs/pricing";
const XAI = "https://docs.x.ai/docs/models";
const ZAI = "https://docs.z.ai/guides/overview/pricing";
const CHECKED = "2025-10";

function row(
  provider: PriceProvider,
  source: string,
  model: string,
  input: number,
  cachedInput: number,
  output: number,
): PriceRow {
  return {
    provider,
    model,
    inputPerMTok: input,
    cachedInputPerMTok: cachedInput,
    outputPerMTok: output,
    source,
    checked: CHECKED,
  };
}

const openai = (model: string, input: number, cached: number, output: number) =>
  row("openai", OPENAI, model, input, cached, output);
const anthropic = (model: string, input: number, cached: number, output: number) =>
  row("anthropic", ANTHROPIC, model, input, cached, output);
const google = (model: string, input: number, cached: number, output: number) =>
  row("google", GOOGLE, model, input, cached, output);
const xai = (model: string, input: number, cached: number, output: number) =>
  row("xai", XAI, model, input, cached, output);
const zai = (model: string, input: number, cached: number, output: number) =>
  row("zai", ZAI, model, input, cached, output);

/**
 * The table (columns: model, input, cached input, output — USD per 1M tokens). Standard tier,
 * short-context rates.
 */
export const PRICE_TABLE: readonly PriceRow[] = [
  openai("gpt-5", 1.25, 0.125, 10),
  openai("gpt-5.1", 1.25, 0.125, 10),
  openai("gpt-5-mini", 0.25, 0.025, 2),
  openai("gpt-5-nano", 0.05, 0.005, 0.4),
  openai("gpt-4.1", 2, 0.5, 8),
  openai("gpt-4.1-mini", 0.4, 0.1, 1.6),
  openai("gpt-4.1-nano", 0.1, 0.025, 0.4),
  openai("gpt-4o", 2.5, 1.25, 10),
  openai("gpt-4o-mini", 0.15, 0.075, 0.6),
  openai("o3", 2, 0.5, 8),
  openai("o4-mini", 1.1, 0.275, 4.4),
  openai("o3-mini", 1.1, 0.55, 4.4),
  openai("o1", 15, 7.5, 60),

  anthropic("claude-opus-4-5", 5, 0.5, 25),
  anthropic("claude-opus-4-1", 15, 1.5, 75),
  anthropic("claude-opus-4", 15, 1.5, 75),
  anthropic("claude-opus-4-0", 15, 1.5, 75),
  anthropic("claude-sonnet-4-5", 3, 0.3, 15),
  anthropic("claude-sonnet-4", 3, 0.3, 15),
  anthropic("claude-sonnet-4-0", 3, 0.3, 15),
  anthropic("claude-3-7-sonnet", 3, 0.3, 15),
  anthropic("claude-haiku-4-5", 1, 0.1, 5),
  anthropic("claude-3-5-haiku", 0.8, 0.08, 4),
  anthropic("claude-3-haiku", 0.25, 0.03, 1.25),

  google("gemini-3-pro-preview", 2, 0.2, 12),
  google("gemini-2.5-pro", 1.25, 0.125, 10),
  google("gemini-2.5-flash", 0.3, 0.03, 2.5),
  google("gemini-2.5-flash-lite", 0.1, 0.01, 0.4),
  google("gemini-2.0-flash", 0.1, 0.025, 0.4),
  google("gemini-2.0-flash-lite", 0.075, 0.075, 0.3),

  xai("grok-4", 3, 0.75, 15),
  xai("grok-4-fast-reasoning", 0.2, 0.05, 0.5),
  xai("grok-4-fast-non-reasoning", 0.2, 0.05, 0.5),
  xai("grok-4-1-fast-reasoning", 0.2, 0.05, 0.5),
  xai("grok-4-1-fast-non-reasoning", 0.2, 0.05, 0.5),
  xai("grok-code-fast-1", 0.2, 0.02, 1.5),
  xai("grok-3", 3, 0.75, 15),
  xai("grok-3-mini", 0.3, 0.075, 0.5),

  zai("glm-4.6", 0.6, 0.11, 2.2),
  zai("glm-4.5", 0.6, 0.11, 2.2),
  zai("glm-4.5-air", 0.2, 0.03, 1.1),
  zai("glm-4.5-flash", 0, 0, 0),
];

/** The price of the in-process `local` backend: it runs on this machine's CPU. */
export const LOCAL_PRICE: PriceRow = {
  provider: "local",
  model: "*",
  inputPerMTok: 0,
  outputPerMTok: 0,
  cachedInputPerMTok: 0,
  source: "runs in process on this machine (node-llama-cpp): no per-token charge",
  checked: CHECKED,
};

/**
 * Which price list a backend type bills by. `azure_openai` uses OpenAI's list prices (Azure's
 * Global Standard deployments charge the same per-token prices; Data Zone and Regional ones
 * charge more, and a deployment name that is not a model id has no price).
 */
const PROVIDER_OF_BACKEND: Readonly<Record<string, PriceProvider>> = {
  openai: "openai",
  azure_openai: "openai",
  claude: "anthropic",
  claude_code: "anthropic",
  gemini: "google",
  grok: "xai",
  zai: "zai",
  local: "local",
};

/** Snapshot suffixes a model id may carry after a row's id. */
const SNAPSHOT_SUFFIX = /^-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4}|latest)$/;

function matchLength(pattern: string, model: string): number | undefined {
  if (pattern.endsWith("*")) {
    const prefix = pattern.slice(0, -1);
    return model.startsWith(prefix) ? prefix.length : undefined;
  }
  if (model === pattern) return pattern.length + 1; // an exact id beats a prefix of equal length
  if (model.startsWith(pattern) && SNAPSHOT_SUFFIX.test(model.slice(pattern.length)))
    return pattern.length;
  return undefined;
}

/**
 * The price of a model as a backend of this type bills it, or `undefined` when it is unknown
 * (a backend type with no price list, or a model with no row). Ids are compared case-
 * insensitively; a leading `models/` (Gemini) or provider prefix such as `openai/` is ignored.
 *
 * @param backendType `agents[].backend.type` (`openai`, `claude`, …).
 * @param model the model id sent to the provider.
 */
export function priceFor(
  backendType: string,
  model: string,
  table: readonly PriceRow[] = PRICE_TABLE,
): PriceRow | undefined {
  const provider = Object.hasOwn(PROVIDER_OF_BACKEND, backendType)
    ? PROVIDER_OF_BACKEND[backendType]
    : undefined;
  if (provider === undefined) return undefined;
  if (provider === "local") return LOCAL_PRICE;
  const id = model
    .trim()
    .toLowerCase()
    .replace(/^(models|openai|anthropic|google|xai|zai)\//, "");
  let best: PriceRow | undefined;
  let bestLength = 0;
  for (const candidate of table) {
    if (candidate.provider !== provider) continue;
    const length = matchLength(candidate.model.toLowerCase(), id);
    if (length !== undefined && length > bestLength) {
      best = candidate;
      bestLength = length;
    }
  }
  return best;
}

/**
 * USD cost of one model call (see the module comment for the formula). Counts that do not add
 * up (more cached than input tokens, more reasoning than output tokens) are clamped, so the
 * result is never negative.
 *
 * @param usage the call's tokens.
 * @param price USD per 1M tokens.
 * @returns USD, unrounded.
 */
export function costUsd(usage: Usage, price: PriceRow): number {
  const cached = Math.min(usage.cachedInputTokens, usage.inputTokens);
  const reasoning = Math.min(usage.reasoningTokens, usage.outputTokens);
  const reasoningRate = price.reasoningPerMTok ?? price.outputPerMTok;
  return (
    ((usage.inputTokens - cached) * price.inputPerMTok +
      cached * price.cachedInputPerMTok +
      (usage.outputTokens - reasoning) * price.outputPerMTok +
      reasoning * reasoningRate) /
    1_000_000
  );
}
