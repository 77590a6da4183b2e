import { getEventListeners } from "node:events";
import { describe, expect, test } from "vitest";
import { createVirtualClock } from "../clock.js";
import { BackendError, emptyUsage, type Backend, type BackendChunk } from "./backend.js";
import { retryDelayMs, withRetry } from "./retry.js";

/** A backend that fails with the given errors in order, then answers "ok". */
function flaky(errors: BackendError[]): Backend & { calls: number } {
  const backend = {
    type: "fake",
    model: "m",
    calls: 0,
    async *stream(): AsyncGenerator<BackendChunk> {
      const error = errors[backend.calls++];
      if (error) throw error;
      yield { type: "text-delta", text: "ok" };
      yield { type: "finish", finishReason: "stop", usage: emptyUsage() };
    },
  };
  return backend;
}

const request = {
  system: "",
  messages: [{ role: "user" as const, content: "What is 2+2?" }],
  tools: [],
  toolChoice: "auto" as const,
};

/** Plays one call; `waits` collects the `retry` chunks' waits (ms), in order. */
async function drain(backend: Backend, waits: number[] = []): Promise<string> {
  let text = "";
  for await (const chunk of backend.stream(request, { signal: new AbortController().signal })) {
    if (chunk.type === "text-delta") text += chunk.text;
    if (chunk.type === "retry") waits.push(chunk.delayMs);
  }
  return text;
}

describe("withRetry", () => {
  test("429 with Retry-After, then 500, then success: three requests, the waits honoured", async () => {
    const clock = createVirtualClock();
    const backend = flaky([
      new BackendError({
        message: "rate limited",
        provider: "fake",
        status: 429,
        retryable: true,
        retryAfterMs: 7000,
      }),
      new BackendError({ message: "server error", provider: "fake", status: 500, retryable: true }),
    ]);
    const waits: number[] = [];
    const started = clock.now();
    const text = await drain(
      withRetry(backend, {
        clock,
        baseDelayMs: 1000,
        random: () => 0.5,
      }),
      waits,
    );
    expect(text).toBe("ok");
    expect(backend.calls).toBe(3);
    // Retry-After wins for the 429; the 500 waits base·2^1 with jitter 0.5 → 1500 ms.
    expect(waits).toEqual([7000, 1500]);
    expect(clock.now() - started).toBe(8500);
  });

  test("a 401 fails at once, without a retry", async () => {
    const clock = createVirtualClock();
    const backend = flaky([
      new BackendError({
        message: "invalid api key",
        provider: "fake",
        status: 401,
        retryable: false,
      }),
    ]);
    await expect(drain(withRetry(backend, { clock }))).rejects.toMatchObject({
      status: 401,
      message: "invalid api key",
    });
    expect(backend.calls).toBe(1);
  });

  test("gives up after maxRetries and surfaces the last error", async () => {
    const clock = createVirtualClock();
    const error = () =>
      new BackendError({ message: "overloaded", provider: "fake", status: 503, retryable: true });
    const backend = flaky([error(), error(), error()]);
    await expect(drain(withRetry(backend, { clock, maxRetries: 2 }))).rejects.toMatchObject({
      status: 503,
    });
    expect(backend.calls).toBe(3);
  });

  test("a call that never finishes: the request timeout, on the injected clock, ends each attempt", async () => {
    const clock = createVirtualClock();
    let calls = 0;
    const hung: Backend = {
      type: "fake",
      model: "m",
      // Waits on the clock until aborted: only the request timeout can end it.
      async *stream(_request, { signal }): AsyncGenerator<BackendChunk> {
        calls++;
        await clock.sleep(3_600_000, signal);
        yield { type: "text-delta", text: "too late" };
      },
    };
    const waits: number[] = [];
    const started = clock.now();
    const failure = await drain(
      withRetry(hung, {
        clock,
        maxRetries: 1,
        baseDelayMs: 1000,
        random: () => 0.5,
        requestTimeoutMs: 5000,
      }),
      waits,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BackendError);
    expect(failure).toMatchObject({
      kind: "timeout",
      retryable: true,
      message: "fake: no complete response within 5 s (timeout_settings.request_timeout_seconds)",
    });
    expect(calls).toBe(2);
    expect(waits).toEqual([750]);
    // Two attempts of 5 s and the backoff between them, all virtual; no timer left behind.
    expect(clock.now() - started).toBe(2 * 5000 + 750);
    expect(clock.pending).toBe(0);
  });

  test("a call that finishes in time leaves no request timer behind", async () => {
    const clock = createVirtualClock();
    const backend = flaky([]);
    expect(await drain(withRetry(backend, { clock, requestTimeoutMs: 5000 }))).toBe("ok");
    expect(clock.pending).toBe(0);
    expect(clock.now()).toBe(createVirtualClock().now());
  });

  test("backoff grows and is capped", () => {
    const error = new BackendError({ message: "x", provider: "p", retryable: true });
    const options = { baseDelayMs: 1000, maxDelayMs: 5000, random: () => 1 };
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(error, attempt, options))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
  });
});

// Over a real socket, virtual time moves only while no request is on its way (the request
// timeout is on the clock too): test/support/io-gate.ts.
describe("withRetry over a real socket", () => {
  test("429 with Retry-After, then 500, then success: one answer, three requests, the waits honoured", async () => {
    const { startFakeOpenAIServer } = await import("../../test/support/fake-openai-server.js");
    const { createIoGate } = await import("../../test/support/io-gate.js");
    const { createChatCompletionsBackend } = await import("./chat-completions.js");
    const server = await startFakeOpenAIServer([
      { error: { status: 429, message: "Rate limit reached", retryAfter: 7 } },
      { error: { status: 500, message: "The server had an error" } },
      { text: "4" },
    ]);
    try {
      const { clock, fetch } = createIoGate();
      const waits: number[] = [];
      const backend = withRetry(
        createChatCompletionsBackend(
          { type: "chatcompletion", model: "m", base_url: server.url },
          {},
          { fetch },
        ),
        {
          clock,
          baseDelayMs: 1000,
          random: () => 0.5,
        },
      );
      const started = clock.now();
      expect(await drain(backend, waits)).toBe("4");
      expect(server.requests).toHaveLength(3);
      expect(waits).toEqual([7000, 1500]);
      expect(clock.now() - started).toBe(8500);
      expect(clock.pending).toBe(0);
    } finally {
      await server.close();
    }
  });

  test("a 401 fails at once with the provider's message", async () => {
    const { startFakeOpenAIServer } = await import("../../test/support/fake-openai-server.js");
    const { createIoGate } = await import("../../test/support/io-gate.js");
    const { createChatCompletionsBackend } = await import("./chat-completions.js");
    const server = await startFakeOpenAIServer([
      { error: { status: 401, message: "Incorrect API key provided" } },
    ]);
    try {
      const { clock, fetch } = createIoGate();
      const backend = withRetry(
        createChatCompletionsBackend(
          { type: "chatcompletion", model: "m", base_url: server.url },
          {},
          { fetch },
        ),
        { clock },
      );
      await expect(drain(backend)).rejects.toMatchObject({
        status: 401,
        retryable: false,
        message: expect.stringContaining("Incorrect API key provided") as string,
      });
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe("withRetry and the caller's signal", () => {
  /** Waits on the clock until its signal aborts. */
  const hung = (clock: ReturnType<typeof createVirtualClock>, signals: AbortSignal[]): Backend => ({
    type: "fake",
    model: "m",
    async *stream(_request, { signal }): AsyncGenerator<BackendChunk> {
      signals.push(signal);
      await clock.sleep(3_600_000, signal);
      yield { type: "text-delta", text: "too late" };
    },
  });

  test("the caller's abort reaches the attempt with its reason, is not retried, and leaves no timer", async () => {
    const clock = createVirtualClock();
    const signals: AbortSignal[] = [];
    const caller = new AbortController();
    const reason = new Error("run cancelled");
    const backend = withRetry(hung(clock, signals), { clock, requestTimeoutMs: 60_000 });
    const call = (async () => {
      for await (const chunk of backend.stream(request, { signal: caller.signal })) void chunk;
    })().catch((error: unknown) => error);
    await clock.sleep(1000);
    caller.abort(reason);
    expect(await call).toBe(reason);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.reason).toBe(reason);
    expect(clock.pending).toBe(0);
  });

  test("an already aborted signal: the attempt starts aborted", async () => {
    const clock = createVirtualClock();
    const signals: AbortSignal[] = [];
    const reason = new Error("cancelled before");
    const failure = await (async () => {
      for await (const chunk of withRetry(hung(clock, signals), { clock }).stream(request, {
        signal: AbortSignal.abort(reason),
      }))
        void chunk;
    })().catch((error: unknown) => error);
    expect(failure).toBe(reason);
    expect(signals[0]!.aborted).toBe(true);
    expect(clock.pending).toBe(0);
  });

  test("many calls on one long-lived signal leave no listener on it", async () => {
    const clock = createVirtualClock();
    const run = new AbortController();
    const backend = withRetry(flaky([]), { clock });
    for (let index = 0; index < 20; index++) {
      for await (const chunk of backend.stream(request, { signal: run.signal })) void chunk;
    }
    expect(getEventListeners(run.signal, "abort")).toHaveLength(0);
    expect(clock.pending).toBe(0);
  });

  test("a sign of life, then silence: the idle limit ends the attempt even when the first-byte limit is later", async () => {
    const clock = createVirtualClock();
    const quiet: Backend = {
      type: "fake",
      model: "m",
      reportsActivity: true,
      async *stream(_request, { signal, onActivity }): AsyncGenerator<BackendChunk> {
        await clock.sleep(100, signal);
        onActivity?.();
        await clock.sleep(3_600_000, signal);
        yield { type: "text-delta", text: "too late" };
      },
    };
    const started = clock.now();
    const failure = await drain(
      withRetry(quiet, {
        clock,
        maxRetries: 0,
        firstByteTimeoutMs: 10_000,
        streamIdleTimeoutMs: 1000,
      }),
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      kind: "timeout",
      message:
        "fake: the response stream was silent for 1 s (timeout_settings.stream_idle_timeout_seconds)",
    });
    expect(clock.now() - started).toBe(1100);
    expect(clock.pending).toBe(0);
  });
});
