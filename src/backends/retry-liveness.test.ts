/**
 * The first-byte and stream-idle timeouts of the retry wrapper (issue 17 item 4, issue 30 item
 * 8): they apply to backends that report wire activity (every provider over HTTP; a local server
 * gets no first-byte limit, only the idle one), a sign of life keeps a silent stream alive, and
 * both are retried like a timeout; after the retries the call fails with `kind: "timeout"`, so a
 * hung provider cannot hold a single agent or the presenter. The limits run on the injected
 * clock: proven on a virtual one, with the config's default limits, and over a real socket
 * against a fake OpenAI server that never answers or goes silent after its headers.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createVirtualClock, systemClock, type Clock, type VirtualClock } from "../clock.js";
import { TimeoutSettings } from "../config/index.js";
import {
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeReply,
} from "../../test/support/fake-openai-server.js";
import { BackendError, emptyUsage, type Backend, type BackendChunk } from "./backend.js";
import { createChatCompletionsBackend } from "./chat-completions.js";
import { createOpenAIBackend } from "./openai.js";
import { withRetry } from "./retry.js";

const request = {
  system: "",
  messages: [{ role: "user" as const, content: "What is 2+2?" }],
  tools: [],
  toolChoice: "auto" as const,
};

/**
 * A backend that stays silent for `silentMs` on `clock` (calling onActivity every `pulseMs` if
 * given), then answers.
 */
function slow(
  clock: Clock,
  options: {
    silentMs: number;
    pulseMs?: number;
    reportsActivity?: boolean;
    silentStart?: boolean;
  },
): Backend {
  return {
    type: "fake",
    model: "m",
    ...(options.reportsActivity !== undefined ? { reportsActivity: options.reportsActivity } : {}),
    ...(options.silentStart !== undefined ? { silentStart: options.silentStart } : {}),
    async *stream(_request, { signal, onActivity }): AsyncGenerator<BackendChunk> {
      const started = clock.now();
      const step = options.pulseMs ?? options.silentMs;
      while (clock.now() - started < options.silentMs) {
        await clock.sleep(Math.min(step, options.silentMs - (clock.now() - started)), signal);
        if (options.pulseMs !== undefined) onActivity?.();
      }
      yield { type: "text-delta", text: "ok" };
      yield { type: "finish", finishReason: "stop", usage: emptyUsage() };
    },
  };
}

async function drain(backend: Backend): Promise<{ text: string; retries: string[] }> {
  let text = "";
  const retries: string[] = [];
  for await (const chunk of backend.stream(request, { signal: new AbortController().signal })) {
    if (chunk.type === "text-delta") text += chunk.text;
    if (chunk.type === "retry") retries.push(`${chunk.errorKind}: ${chunk.error.message}`);
  }
  return { text, retries };
}

/** Drains `backend`, returning what was streamed and the error it ended with. */
async function drainToFailure(backend: Backend): Promise<{ retries: string[]; error: unknown }> {
  const retries: string[] = [];
  try {
    for await (const chunk of backend.stream(request, { signal: new AbortController().signal })) {
      if (chunk.type === "retry") retries.push(`${chunk.errorKind}: ${chunk.error.message}`);
    }
  } catch (error) {
    return { retries, error };
  }
  return { retries, error: undefined };
}

describe("first-byte and stream-idle timeouts (virtual clock)", () => {
  test("a backend that reports activity and stays silent past the first-byte limit fails as a timeout", async () => {
    const clock = createVirtualClock();
    const backend = withRetry(slow(clock, { silentMs: 2000, reportsActivity: true }), {
      clock,
      maxRetries: 0,
      firstByteTimeoutMs: 50,
    });
    const failure = await drain(backend).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BackendError);
    expect(failure).toMatchObject({
      retryable: true,
      kind: "timeout",
      message: "fake: no response within 0.05 s (timeout_settings.first_byte_timeout_seconds)",
    });
    expect(clock.pending).toBe(0);
  });

  test("the limits do not apply to a backend that does not report activity (local inference)", async () => {
    const clock = createVirtualClock();
    const backend = withRetry(slow(clock, { silentMs: 300 }), {
      clock,
      maxRetries: 0,
      firstByteTimeoutMs: 20,
      streamIdleTimeoutMs: 20,
    });
    expect(await drain(backend)).toEqual({ text: "ok", retries: [] });
  });

  test("signs of life keep a stream that yields nothing alive", async () => {
    const clock = createVirtualClock();
    const started = clock.now();
    const alive = withRetry(slow(clock, { silentMs: 1500, pulseMs: 10, reportsActivity: true }), {
      clock,
      maxRetries: 0,
      firstByteTimeoutMs: 1000,
      streamIdleTimeoutMs: 1000,
    });
    expect(await drain(alive)).toEqual({ text: "ok", retries: [] });
    expect(clock.now() - started).toBe(1500);
    expect(clock.pending).toBe(0);
  });

  test("a silent-start server (local) has no first-byte limit, but the idle limit once it began", async () => {
    const clock = createVirtualClock();
    // Loads for 5 s (past the 1 s first-byte limit), then a sign of life every 5 s: the 2 s
    // idle limit ends it 2 s after the first.
    const loading = slow(clock, {
      silentMs: 60_000,
      pulseMs: 5000,
      reportsActivity: true,
      silentStart: true,
    });
    const started = clock.now();
    const { error } = await drainToFailure(
      withRetry(loading, {
        clock,
        maxRetries: 0,
        firstByteTimeoutMs: 1000,
        streamIdleTimeoutMs: 2000,
      }),
    );
    expect(error).toMatchObject({
      kind: "timeout",
      message:
        "fake: the response stream was silent for 2 s (timeout_settings.stream_idle_timeout_seconds)",
    });
    expect(clock.now() - started).toBe(7000);
  });
});

/**
 * A virtual clock whose timers fire only once the fake server holds every request the client
 * sent, so a timeout on virtual time cannot beat a request to the server.
 */
function gatedClock(inner: VirtualClock, settled: () => boolean): Clock {
  return {
    now: () => inner.now(),
    async sleep(ms, signal) {
      await inner.sleep(ms, signal);
      while (!settled()) {
        if (signal?.aborted) throw signal.reason as Error;
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    },
  };
}

describe("over a real socket (fake OpenAI server)", () => {
  const answer = { toolCalls: [{ name: "new_answer", arguments: { content: "4" } }] };
  const defaults = TimeoutSettings.parse({});
  let server: FakeOpenAIServer | undefined;
  /** Replies held by a handler that never answers on its own; released after each test. */
  const held: Array<() => void> = [];

  afterEach(async () => {
    for (const release of held.splice(0)) release();
    await server?.close();
    server = undefined;
  });

  async function start(handler: FakeHandler | FakeReply[]): Promise<FakeOpenAIServer> {
    server = await startFakeOpenAIServer(handler);
    return server;
  }

  /** A fetch that counts the requests it sends. */
  function countingFetch(): { fetch: typeof fetch; sent: () => number } {
    let sent = 0;
    return {
      fetch: (input, init) => {
        sent++;
        return fetch(input, init);
      },
      sent: () => sent,
    };
  }

  test("no response at all: the first-byte timeout fires and the retry gets the answer", async () => {
    const fake = await start([{ ...answer, delayMs: 10_000 }, answer]);
    const backend = withRetry(
      createOpenAIBackend(
        { type: "openai", model: "gpt-4o", base_url: fake.url },
        { OPENAI_API_KEY: "test-key-123456" },
      ),
      { clock: systemClock, baseDelayMs: 1, firstByteTimeoutMs: 300, streamIdleTimeoutMs: 10_000 },
    );
    const { retries } = await drain(backend);
    expect(retries).toEqual([
      "timeout: openai: no response within 0.3 s (timeout_settings.first_byte_timeout_seconds)",
    ]);
    expect(fake.requests.filter((r) => r.method === "POST")).toHaveLength(2);
  });

  test("a stream that goes silent: the idle timeout fires and the retry gets the answer", async () => {
    const fake = await start([{ ...answer, chunkDelayMs: 10_000 }, answer]);
    const backend = withRetry(
      createOpenAIBackend(
        { type: "openai", model: "gpt-4o", base_url: fake.url },
        { OPENAI_API_KEY: "test-key-123456" },
      ),
      { clock: systemClock, baseDelayMs: 1, firstByteTimeoutMs: 10_000, streamIdleTimeoutMs: 300 },
    );
    const { retries } = await drain(backend);
    expect(retries).toEqual([
      "timeout: openai: the response stream was silent for 0.3 s (timeout_settings.stream_idle_timeout_seconds)",
    ]);
  });

  test("a hosted provider that never answers: with the default limits the call fails after 4 × 120 s (virtual)", async () => {
    expect(defaults.first_byte_timeout_seconds).toBe(120);
    const hang: FakeHandler = () =>
      new Promise<FakeReply>((resolve) => held.push(() => resolve(answer)));
    const fake = await start(hang);
    const counting = countingFetch();
    const virtual = createVirtualClock();
    const clock = gatedClock(virtual, () => fake.requests.length >= counting.sent());
    const backend = withRetry(
      createOpenAIBackend(
        { type: "openai", model: "gpt-4o", base_url: fake.url },
        { OPENAI_API_KEY: "test-key-123456" },
        { fetch: counting.fetch },
      ),
      {
        clock,
        random: () => 0.5,
        requestTimeoutMs: defaults.request_timeout_seconds * 1000,
        firstByteTimeoutMs: defaults.first_byte_timeout_seconds * 1000,
        streamIdleTimeoutMs: defaults.stream_idle_timeout_seconds * 1000,
      },
    );
    const started = virtual.now();
    const { retries, error } = await drainToFailure(backend);
    const message =
      "openai: no response within 120 s (timeout_settings.first_byte_timeout_seconds)";
    expect(retries).toEqual([1, 2, 3].map(() => `timeout: ${message}`));
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ kind: "timeout", retryable: true, message });
    expect(fake.requests).toHaveLength(4);
    // Four attempts of 120 s, and the backoffs between them (750 + 1500 + 3000 ms).
    expect(virtual.now() - started).toBe(4 * 120_000 + 5250);
    expect(virtual.pending).toBe(0);
  });

  test("a local server that sends its headers, then nothing: no first-byte limit, the idle limit ends each attempt (virtual)", async () => {
    const fake = await start(
      Array.from({ length: 4 }, () => ({ text: "4", chunkDelayMs: 60_000 })),
    );
    const counting = countingFetch();
    const virtual = createVirtualClock();
    const clock = gatedClock(virtual, () => fake.requests.length >= counting.sent());
    const backend = withRetry(
      createChatCompletionsBackend(
        { type: "chatcompletion", model: "m", base_url: fake.url },
        {},
        { fetch: counting.fetch },
      ),
      {
        clock,
        random: () => 0.5,
        requestTimeoutMs: defaults.request_timeout_seconds * 1000,
        firstByteTimeoutMs: 1, // not applied: a local server may load its model first
        streamIdleTimeoutMs: defaults.stream_idle_timeout_seconds * 1000,
      },
    );
    const started = virtual.now();
    const { retries, error } = await drainToFailure(backend);
    const message =
      "chatcompletion: the response stream was silent for 120 s (timeout_settings.stream_idle_timeout_seconds)";
    expect(retries).toEqual([1, 2, 3].map(() => `timeout: ${message}`));
    expect(error).toMatchObject({ kind: "timeout", retryable: true, message });
    expect(fake.requests).toHaveLength(4);
    expect(virtual.now() - started).toBe(4 * 120_000 + 5250);
  });
});
