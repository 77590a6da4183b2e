/**
 * `withPricing`: the finish chunk's cost from the model's price (the injected clock's time for
 * time-of-day prices), no cost for an unknown model, and the model's context window put on a
 * context overflow whose message names none (what the engine shortens the prompt to).
 */
import { calcPrice } from "@pydantic/genai-prices";
import { describe, expect, test } from "vitest";
import { BackendError, emptyUsage, type Backend, type BackendChunk } from "./backend.js";
import { withPricing } from "./with-pricing.js";

const USAGE = { ...emptyUsage(), inputTokens: 2_000_000, outputTokens: 1_000_000 };

function fake(type: string, model: string, error?: BackendError): Backend {
  return {
    type,
    model,
    reportsActivity: true,
    async *stream(): AsyncGenerator<BackendChunk> {
      yield { type: "text-delta", text: "hi" };
      if (error) throw error;
      yield { type: "finish", finishReason: "stop", usage: USAGE };
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

async function thrown(backend: Backend): Promise<unknown> {
  try {
    await chunks(backend);
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** The package's total for USAGE. */
function listedTotal(providerId: string, model: string, at: Date): number {
  return calcPrice({ input_tokens: 2_000_000, output_tokens: 1_000_000 }, model, {
    providerId,
    timestamp: at,
  })!.total_price;
}

const overflow = (contextWindow?: number) =>
  new BackendError({
    message: "prompt is too long",
    provider: "openai",
    status: 400,
    retryable: false,
    kind: "context-length",
    contextWindow,
  });

describe("withPricing", () => {
  test("adds the package's cost to the finish chunk of a priced model", async () => {
    const backend = withPricing(fake("openai", "gpt-4o-mini"));
    const out = await chunks(backend);
    expect(out[0]).toEqual({ type: "text-delta", text: "hi" });
    expect(out[1]).toMatchObject({ type: "finish", finishReason: "stop" });
    const cost = out[1]!.type === "finish" ? out[1]!.costUsd : undefined;
    expect(cost).toBeCloseTo(listedTotal("openai", "gpt-4o-mini", new Date()), 12);
    expect(backend.reportsActivity).toBe(true); // the retry wrapper's timeouts still see it
  });

  test("prices at the injected clock's time", async () => {
    const config = {
      type: "chatcompletion",
      model: "deepseek-chat",
      base_url: "https://api.deepseek.com",
    };
    for (const iso of ["2026-01-05T03:00:00Z", "2026-01-05T18:00:00Z"]) {
      const clock = { now: () => Date.parse(iso) };
      const out = await chunks(
        withPricing(fake("chatcompletion", "deepseek-chat"), { config, clock }),
      );
      const cost = out[1]!.type === "finish" ? out[1]!.costUsd : undefined;
      expect(cost, iso).toBeCloseTo(listedTotal("deepseek", "deepseek-chat", new Date(iso)), 12);
    }
  });

  test("the agent's override wins; an unknown model's calls carry no cost (unknown)", async () => {
    const pricing = { input_per_mtok: 1, output_per_mtok: 3 };
    const config = { type: "openai", model: "gpt-4o-mini", pricing };
    const out = await chunks(withPricing(fake("openai", "gpt-4o-mini"), { config }));
    expect(out[1]!.type === "finish" && out[1]!.costUsd).toBeCloseTo(2 * 1 + 3, 12);

    const outServed = await chunks(withPricing(fake("vllm", "served-model")));
    expect(outServed[1]).not.toHaveProperty("costUsd");
    const outUnknown = await chunks(withPricing(fake("openai", "gpt-99")));
    expect(outUnknown[1]).not.toHaveProperty("costUsd");
  });

  test("a context overflow without a window gets the model's window; the provider's stays", async () => {
    const window = calcPrice({ input_tokens: 0, output_tokens: 0 }, "gpt-4o-mini", {
      providerId: "openai",
    })!.model.context_window;
    expect(window).toBeGreaterThan(0);
    const filled = await thrown(withPricing(fake("openai", "gpt-4o-mini", overflow())));
    expect(filled).toBeInstanceOf(BackendError);
    expect(filled).toMatchObject({ kind: "context-length", contextWindow: window, status: 400 });
    expect((filled as Error).message).toBe("prompt is too long");

    const named = await thrown(withPricing(fake("openai", "gpt-4o-mini", overflow(8192))));
    expect(named).toMatchObject({ contextWindow: 8192 });

    const config = { type: "vllm", model: "served", pricing: { context_window: 4096 } };
    const fromConfig = await thrown(withPricing(fake("vllm", "served", overflow()), { config }));
    expect(fromConfig).toMatchObject({ contextWindow: 4096 });

    // another error, or a model with no known window: unchanged
    const other = new BackendError({ message: "boom", provider: "openai", retryable: true });
    expect(await thrown(withPricing(fake("openai", "gpt-4o-mini", other)))).toBe(other);
    const bare = overflow();
    const local = withPricing(fake("local", "/m.gguf", bare));
    expect(await thrown(local)).toBe(bare);
  });
});
