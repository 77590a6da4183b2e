/**
 * Prices and context windows from `@pydantic/genai-prices`: every expected figure is computed
 * here from the package's own numbers (its `model_price` and `context_window`), never written out,
 * so the tests hold when the data is updated; the override, the 0 of `local` and `scripted`, and
 * the unknown models are coord's own rules.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { calcPrice } from "@pydantic/genai-prices";
import { describe, expect, test } from "vitest";
import { emptyUsage, type Usage } from "./backend.js";
import { priceDataLabel, priceDataVersion } from "./price-data.js";
import { contextWindowFor, costUsd, priceFor } from "./pricing.js";

/** The package's price list entry for a model: its prices (USD / 1M) and context window. */
function listed(providerId: string, model: string, at = new Date()) {
  const found = calcPrice({ input_tokens: 0, output_tokens: 0 }, model, {
    providerId,
    timestamp: at,
  });
  if (found === null) throw new Error(`the package lists no ${providerId} ${model}`);
  const flat = (key: string): number => {
    const value = found.model_price[key];
    if (typeof value !== "number") throw new Error(`${model}: ${key} is not a flat price`);
    return value;
  };
  return { found, flat };
}

/** 1000 prompt tokens of which 400 cached; 500 reply tokens of which 200 reasoning. */
const USAGE: Usage = {
  inputTokens: 1000,
  cachedInputTokens: 400,
  outputTokens: 500,
  reasoningTokens: 200,
};

describe("prices from @pydantic/genai-prices", () => {
  test("a known model: (input − cached) × input + cached × cache read + output × output", () => {
    const { found, flat } = listed("openai", "gpt-4.1-mini");
    const expected =
      (600 * flat("input_mtok") + 400 * flat("cache_read_mtok") + 500 * flat("output_mtok")) / 1e6;
    const price = priceFor({ type: "openai", model: "gpt-4.1-mini" })!;
    expect(costUsd(USAGE, price)).toBeCloseTo(expected, 15);
    expect(expected).toBeGreaterThan(0);
    expect(price.contextWindow).toBe(found.model.context_window);
    expect(price.source).toBe(`${priceDataLabel()}: openai gpt-4.1-mini`);
    // a dated snapshot is the same model
    const snapshot = priceFor({ type: "openai", model: "gpt-4.1-mini-2025-04-14" })!;
    expect(costUsd(USAGE, snapshot)).toBeCloseTo(expected, 15);
  });

  test("a long prompt is billed at the model's long-context tier, as the package lists it", () => {
    const { found } = listed("anthropic", "claude-sonnet-4-5");
    const tiered = found.model_price as Record<
      string,
      { base: number; tiers: { start: number; price: number }[] }
    >;
    const input = tiered.input_mtok!;
    const output = tiered.output_mtok!;
    const start = input.tiers[0]!.start;
    const price = priceFor({ type: "claude", model: "claude-sonnet-4-5" })!;
    const short = { ...emptyUsage(), inputTokens: start - 1, outputTokens: 1000 };
    const long = { ...emptyUsage(), inputTokens: start + 1, outputTokens: 1000 };
    expect(costUsd(short, price)).toBeCloseTo(
      ((start - 1) * input.base + 1000 * output.base) / 1e6,
      12,
    );
    expect(costUsd(long, price)).toBeCloseTo(
      ((start + 1) * input.tiers[0]!.price + 1000 * output.tiers[0]!.price) / 1e6,
      12,
    );
  });

  test("time-of-day prices follow the call's time (the injected clock's)", () => {
    const price = priceFor({
      type: "chatcompletion",
      model: "deepseek-chat",
      base_url: "https://api.deepseek.com/v1",
    })!;
    const night = Date.parse("2026-01-05T20:00:00Z");
    const day = Date.parse("2026-01-05T10:00:00Z");
    const usage = { ...emptyUsage(), inputTokens: 1_000_000, outputTokens: 1_000_000 };
    for (const at of [night, day]) {
      const { flat } = listed("deepseek", "deepseek-chat", new Date(at));
      expect(costUsd(usage, price, at)).toBeCloseTo(flat("input_mtok") + flat("output_mtok"), 12);
    }
    expect(costUsd(usage, price, night)).not.toBeCloseTo(costUsd(usage, price, day), 6);
  });

  test("a model looked up again (the lookup is kept per process) still prices each call at its time", () => {
    const backend = {
      type: "chatcompletion",
      model: "deepseek-chat",
      base_url: "https://api.deepseek.com/v1",
    };
    const night = Date.parse("2026-01-05T20:00:00Z");
    const day = Date.parse("2026-01-05T10:00:00Z");
    // Looked up first at night, then by day: the second lookup is the kept one.
    const first = priceFor(backend, night)!;
    const again = priceFor(backend, day)!;
    expect(again.source).toBe(first.source);
    expect(again.contextWindow).toBe(first.contextWindow);
    const usage = { ...emptyUsage(), inputTokens: 1_000_000, outputTokens: 1_000_000 };
    for (const at of [night, day]) {
      const { flat } = listed("deepseek", "deepseek-chat", new Date(at));
      expect(costUsd(usage, again, at)).toBeCloseTo(flat("input_mtok") + flat("output_mtok"), 12);
    }
    // Another model on the same provider is its own lookup.
    expect(priceFor({ ...backend, model: "deepseek-reasoner" }, day)?.source).not.toBe(
      first.source,
    );
  });

  test.each([
    ["openai", "gpt-5-mini", undefined, "openai"],
    ["azure_openai", "gpt-4o", undefined, "azure"],
    ["claude", "claude-haiku-4-5", undefined, "anthropic"],
    ["claude_code", "claude-sonnet-4-5", undefined, "anthropic"],
    ["gemini", "models/gemini-2.5-flash", undefined, "google"],
    ["grok", "grok-4-fast-reasoning", undefined, "x-ai"],
    ["zai", "glm-5.2", undefined, "zai"],
    ["openrouter", "openai/gpt-4o-mini", undefined, "openrouter"],
    ["groq", "llama-3.3-70b-versatile", undefined, "groq"],
    ["cerebras", "llama3.1-8b", undefined, "cerebras"],
    ["together", "meta-llama/Llama-3.3-70B-Instruct-Turbo", undefined, "together"],
    ["fireworks", "accounts/fireworks/models/llama-v3p1-8b-instruct", undefined, "fireworks"],
    ["moonshot", "kimi-k2-0905-preview", undefined, "moonshotai"],
    ["chatcompletion", "deepseek-chat", "https://api.deepseek.com/v1", "deepseek"],
    ["chatcompletion", "mistral-large-latest", "https://api.mistral.ai/v1", "mistral"],
  ])("%s %s is priced from the package's %s list", (type, model, baseUrl, provider) => {
    const price = priceFor({ type, model, base_url: baseUrl });
    expect(price?.source).toMatch(new RegExp(`^@pydantic/genai-prices [^:]+: ${provider} `));
  });

  test("an unknown model, another provider's model, or a server the data does not list: no price", () => {
    expect(priceFor({ type: "openai", model: "gpt-99" })).toBeUndefined();
    expect(priceFor({ type: "claude", model: "gpt-4o" })).toBeUndefined();
    // an Azure deployment name that is not a model id
    expect(priceFor({ type: "azure_openai", model: "team-gpt-4o" })).toBeUndefined();
    expect(priceFor({ type: "vllm", model: "gpt-4o" })).toBeUndefined(); // http://localhost:8000/v1
    expect(
      priceFor({ type: "chatcompletion", model: "gpt-4o", base_url: "http://127.0.0.1:9/v1" }),
    ).toBeUndefined();
    expect(priceFor({ type: "chatcompletion", model: "gpt-4o" })).toBeUndefined(); // no URL
    expect(
      priceFor({ type: "nebius", model: "meta-llama/Llama-3.3-70B-Instruct" }),
    ).toBeUndefined();
    expect(priceFor({ type: "claude_code", model: "claude-code-default" })).toBeUndefined();
    expect(priceFor({ type: "openai" })).toBeUndefined();
    expect(priceFor({ type: "constructor", model: "gpt-4o" })).toBeUndefined();
  });

  test("local and scripted cost 0 by definition, and say why", () => {
    const usage = { ...emptyUsage(), inputTokens: 1e6, outputTokens: 1e6 };
    const local = priceFor({ type: "local", model: "/models/tiny.gguf" })!;
    expect(costUsd(usage, local)).toBe(0);
    expect(local.source).toMatch(/^local: runs in process on this machine/);
    const scripted = priceFor({ type: "scripted" })!;
    expect(costUsd(usage, scripted)).toBe(0);
    expect(scripted.source).toMatch(/^scripted: .*calls no model/);
  });

  test("inconsistent counts are clamped: never negative", () => {
    const { flat } = listed("openai", "gpt-4.1-mini");
    const price = priceFor({ type: "openai", model: "gpt-4.1-mini" })!;
    const usage = { inputTokens: 10, cachedInputTokens: 50, outputTokens: 5, reasoningTokens: 9 };
    expect(costUsd(usage, price)).toBeCloseTo(
      (10 * flat("cache_read_mtok") + 5 * flat("output_mtok")) / 1e6,
      15,
    );
  });
});

describe("backend.pricing overrides", () => {
  test("both prices win over the package's; cached input defaults to the input price", () => {
    const pricing = { input_per_mtok: 7, output_per_mtok: 11, cached_input_per_mtok: 1 };
    const price = priceFor({ type: "openai", model: "gpt-4.1-mini", pricing })!;
    expect(price.source).toBe("config: backend.pricing");
    expect(costUsd(USAGE, price)).toBeCloseTo((600 * 7 + 400 * 1 + 500 * 11) / 1e6, 15);
    const noCache = priceFor({
      type: "openai",
      model: "gpt-4.1-mini",
      pricing: { input_per_mtok: 7, output_per_mtok: 11 },
    })!;
    expect(costUsd(USAGE, noCache)).toBeCloseTo((1000 * 7 + 500 * 11) / 1e6, 15);
    // the package's window stays when the override sets none
    expect(price.contextWindow).toBe(listed("openai", "gpt-4.1-mini").found.model.context_window);
  });

  test("an override prices a model the data lacks (a server you run at 0)", () => {
    const pricing = { input_per_mtok: 0, output_per_mtok: 0, context_window: 32_768 };
    const price = priceFor({ type: "vllm", model: "served-model", pricing })!;
    expect(costUsd(USAGE, price)).toBe(0);
    expect(price.contextWindow).toBe(32_768);
    expect(contextWindowFor({ type: "vllm", model: "served-model", pricing })).toBe(32_768);
  });

  test("context_window alone keeps the listed price and replaces the window", () => {
    const { found, flat } = listed("openai", "gpt-4.1-mini");
    const price = priceFor({
      type: "openai",
      model: "gpt-4.1-mini",
      pricing: { context_window: 8192 },
    })!;
    expect(price.contextWindow).toBe(8192);
    expect(costUsd({ ...emptyUsage(), outputTokens: 1e6 }, price)).toBeCloseTo(
      flat("output_mtok"),
      12,
    );
    expect(contextWindowFor({ type: "openai", model: "gpt-4.1-mini" })).toBe(
      found.model.context_window,
    );
    // an unknown model with only a window is still unpriced
    expect(
      priceFor({ type: "openai", model: "gpt-99", pricing: { context_window: 8192 } }),
    ).toBeUndefined();
    expect(contextWindowFor({ type: "openai", model: "gpt-99" })).toBeUndefined();
  });
});

describe("the price data's name", () => {
  test("is the installed package's version", () => {
    const entry = createRequire(import.meta.url).resolve("@pydantic/genai-prices");
    const manifest = JSON.parse(
      readFileSync(join(dirname(entry), "..", "package.json"), "utf8"),
    ) as {
      version: string;
    };
    expect(priceDataVersion()).toBe(manifest.version);
    expect(priceDataLabel()).toBe(`@pydantic/genai-prices ${manifest.version}`);
  });
});
