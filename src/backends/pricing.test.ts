import { describe, expect, test } from "vitest";
import { emptyUsage, type Backend, type BackendChunk } from "./backend.js";
import { costUsd, LOCAL_PRICE, PRICE_TABLE, priceFor } from "./pricing.js";
import { withPricing } from "./with-pricing.js";

describe("priceFor", () => {
  test("a known model of the backend's provider", () => {
    expect(priceFor("openai", "gpt-4.1-mini")).toMatchObject({
      provider: "openai",
      model: "gpt-4.1-mini",
      inputPerMTok: 0.4,
      cachedInputPerMTok: 0.1,
      outputPerMTok: 1.6,
    });
    expect(priceFor("claude", "claude-sonnet-4-5")?.inputPerMTok).toBe(3);
    expect(priceFor("claude_code", "claude-haiku-4-5")?.outputPerMTok).toBe(5);
    expect(priceFor("gemini", "models/gemini-2.5-flash")?.model).toBe("gemini-2.5-flash");
    expect(priceFor("grok", "grok-4")?.inputPerMTok).toBe(3);
    expect(priceFor("zai", "GLM-4.6")?.outputPerMTok).toBe(2.2);
  });

  test("snapshot ids match their model's row; the longest row wins", () => {
    expect(priceFor("openai", "gpt-4.1-mini-2025-04-14")?.model).toBe("gpt-4.1-mini");
    expect(priceFor("openai", "gpt-4.1-2025-04-14")?.model).toBe("gpt-4.1");
    expect(priceFor("claude", "claude-sonnet-4-5-20250929")?.model).toBe("claude-sonnet-4-5");
    expect(priceFor("claude", "claude-opus-4-20250514")?.model).toBe("claude-opus-4");
    expect(priceFor("claude", "claude-opus-4-1-20250805")?.model).toBe("claude-opus-4-1");
    expect(priceFor("claude", "claude-3-5-haiku-latest")?.model).toBe("claude-3-5-haiku");
    expect(priceFor("grok", "grok-4-0709")?.model).toBe("grok-4");
    // A `*` pattern matches any id with its prefix.
    const table = [{ ...LOCAL_PRICE, provider: "openai" as const, model: "ft:gpt-4o-mini*" }];
    expect(priceFor("openai", "ft:gpt-4o-mini:acme::abc123", table)?.model).toBe("ft:gpt-4o-mini*");
  });

  test("an unknown model, a variant that is not a snapshot, or an unpriced backend has no price", () => {
    expect(priceFor("openai", "gpt-99")).toBeUndefined();
    // gpt-5-pro is not gpt-5 (it costs far more): never borrow a neighbour's price.
    expect(priceFor("openai", "gpt-5-pro")).toBeUndefined();
    expect(priceFor("claude", "gpt-4o")).toBeUndefined(); // another provider's model
    expect(priceFor("vllm", "gpt-4o")).toBeUndefined(); // self-hosted: no list price
    expect(priceFor("chatcompletion", "gpt-4o")).toBeUndefined();
    expect(priceFor("scripted", "agent_a")).toBeUndefined();
    expect(priceFor("constructor", "gpt-4o")).toBeUndefined();
  });

  test("the local GGUF backend costs nothing", () => {
    expect(priceFor("local", "/models/tiny.gguf")).toBe(LOCAL_PRICE);
    expect(costUsd({ ...emptyUsage(), inputTokens: 1e6, outputTokens: 1e6 }, LOCAL_PRICE)).toBe(0);
  });

  test("every row names its source and when it was read", () => {
    for (const row of PRICE_TABLE) {
      expect(row.source).toMatch(/^https:\/\//);
      expect(row.checked).toMatch(/^\d{4}-\d{2}/);
      expect(row.inputPerMTok).toBeGreaterThanOrEqual(row.cachedInputPerMTok);
    }
    const keys = PRICE_TABLE.map((row) => `${row.provider}/${row.model}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe("costUsd", () => {
  const price = priceFor("openai", "gpt-4.1-mini")!; // 0.40 in, 0.10 cached, 1.60 out

  test("input and output at their rates", () => {
    const usage = { ...emptyUsage(), inputTokens: 1_000_000, outputTokens: 500_000 };
    expect(costUsd(usage, price)).toBeCloseTo(0.4 + 0.8, 12);
  });

  test("cached input is part of input, billed at the cached rate", () => {
    const usage = { ...emptyUsage(), inputTokens: 1000, cachedInputTokens: 400 };
    expect(costUsd(usage, price)).toBeCloseTo((600 * 0.4 + 400 * 0.1) / 1e6, 15);
  });

  test("reasoning is part of output, billed as output unless the row prices it", () => {
    const usage = { ...emptyUsage(), outputTokens: 1000, reasoningTokens: 700 };
    expect(costUsd(usage, price)).toBeCloseTo((1000 * 1.6) / 1e6, 15);
    expect(costUsd(usage, { ...price, reasoningPerMTok: 3 })).toBeCloseTo(
      (300 * 1.6 + 700 * 3) / 1e6,
      15,
    );
  });

  test("inconsistent counts are clamped: never negative", () => {
    const usage = { inputTokens: 10, cachedInputTokens: 50, outputTokens: 5, reasoningTokens: 9 };
    expect(costUsd(usage, price)).toBeCloseTo((10 * 0.1 + 5 * 1.6) / 1e6, 15);
  });
});

describe("withPricing", () => {
  function fake(type: string, model: string): Backend {
    return {
      type,
      model,
      async *stream(): AsyncGenerator<BackendChunk> {
        yield { type: "text-delta", text: "hi" };
        yield {
          type: "finish",
          finishReason: "stop",
          usage: { ...emptyUsage(), inputTokens: 2_000_000, outputTokens: 1_000_000 },
        };
      },
    };
  }
  const request = { system: "", messages: [], tools: [], toolChoice: "auto" as const };
  async function chunks(backend: Backend): Promise<BackendChunk[]> {
    const out: BackendChunk[] = [];
    for await (const chunk of backend.stream(request, { signal: new AbortController().signal }))
      out.push(chunk);
    return out;
  }

  test("adds the cost to the finish chunk of a priced model", async () => {
    const out = await chunks(withPricing(fake("openai", "gpt-4o-mini")));
    expect(out[0]).toEqual({ type: "text-delta", text: "hi" });
    expect(out[1]).toMatchObject({ type: "finish", finishReason: "stop" });
    expect(out[1]!.type === "finish" && out[1]!.costUsd).toBeCloseTo(2 * 0.15 + 0.6, 12);
  });

  test("leaves an unpriced model's calls without a cost (unknown)", async () => {
    const backend = fake("vllm", "served-model");
    expect(withPricing(backend)).toBe(backend);
    const out = await chunks(withPricing(fake("openai", "gpt-99")));
    expect(out[1]).not.toHaveProperty("costUsd");
  });
});
