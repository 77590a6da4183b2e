/**
 * The first-byte and stream-idle timeouts of the retry wrapper: they apply to backends that report
 * wire activity (every provider over HTTP; a local server gets no first-byte limit, only the idle
 * one), a sign of life keeps a silent stream alive, and both are retried like a timeout; after the
 * retries the call fails with `kind: "timeout"`, so a hung provider cannot hold a single agent or
 * the presenter. The limits run on the injected clock: proven on a virtual one, with the config's
 * default limits, and over a real socket against a fake OpenAI server that never answers or goes
 * silent after its headers; no test waits in real time.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createVirtualClock, type Clock } from "../clock.js";
import { TimeoutSettings } from "../config/index.js";
import {
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeReply,
  type FakeRequest,
} from "../../test/support/fake-openai-server.js";
import { createIoGate, type IoGate } from "../../test/support/io-gate.js";
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

// Over a real socket, virtual time moves only while no request is on its way: a request the
// fake server holds (a provider that hangs) lets the timeouts fire (test/support/io-gate.ts).
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

  async function start(handler: FakeHandler): Promise<FakeOpenAIServer> {
    server = await startFakeOpenAIServer(handler);
    return server;
  }

  /** A handler that holds the whole reply to a request until the test ends. */
  function hang(gate: IoGate, request: FakeRequest): Promise<FakeReply> {
    gate.hold(request);
    return new Promise<FakeReply>((resolve) => held.push(() => resolve(answer)));
  }

  /** A reply whose head and first event arrive, then nothing until the test ends (60 s). */
  function silentAfterHead(gate: IoGate, request: FakeRequest, reply: FakeReply): FakeReply {
    gate.hold(request, { afterFirstBytes: true });
    return { ...reply, chunkDelayMs: 60_000 };
  }

  const posts = (fake: FakeOpenAIServer) => fake.requests.filter((r) => r.method === "POST");

  test("no response at all: the first-byte timeout fires and the retry gets the answer", async () => {
    const gate = createIoGate();
    let calls = 0;
    const fake = await start((request) => (calls++ === 0 ? hang(gate, request) : answer));
    const backend = withRetry(
      createOpenAIBackend(
        { type: "openai", model: "gpt-4o", base_url: fake.url },
        { OPENAI_API_KEY: "test-key-123456" },
        { fetch: gate.fetch },
      ),
      { clock: gate.clock, baseDelayMs: 1, firstByteTimeoutMs: 300, streamIdleTimeoutMs: 10_000 },
    );
    const started = gate.clock.now();
    const { retries } = await drain(backend);
    expect(retries).toEqual([
      "timeout: openai: no response within 0.3 s (timeout_settings.first_byte_timeout_seconds)",
    ]);
    expect(posts(fake)).toHaveLength(2);
    // The first-byte limit and the backoff (1 ms · jitter, at least half), virtual.
    expect(gate.clock.now() - started).toBeGreaterThanOrEqual(300);
    expect(gate.clock.now() - started).toBeLessThanOrEqual(301);
    expect(gate.clock.pending).toBe(0);
  });

  test("a stream that goes silent: the idle timeout fires and the retry gets the answer", async () => {
    const gate = createIoGate();
    let calls = 0;
    const fake = await start((request) =>
      calls++ === 0 ? silentAfterHead(gate, request, answer) : answer,
    );
    const backend = withRetry(
      createOpenAIBackend(
        { type: "openai", model: "gpt-4o", base_url: fake.url },
        { OPENAI_API_KEY: "test-key-123456" },
        { fetch: gate.fetch },
      ),
      { clock: gate.clock, baseDelayMs: 1, firstByteTimeoutMs: 10_000, streamIdleTimeoutMs: 300 },
    );
    const { retries } = await drain(backend);
    expect(retries).toEqual([
      "timeout: openai: the response stream was silent for 0.3 s (timeout_settings.stream_idle_timeout_seconds)",
    ]);
    expect(posts(fake)).toHaveLength(2);
    expect(gate.clock.pending).toBe(0);
  });

  test("a hosted provider that never answers: with the default limits the call fails after 4 × 120 s (virtual)", async () => {
    expect(defaults.first_byte_timeout_seconds).toBe(120);
    const gate = createIoGate();
    const fake = await start((request) => hang(gate, request));
    const backend = withRetry(
      createOpenAIBackend(
        { type: "openai", model: "gpt-4o", base_url: fake.url },
        { OPENAI_API_KEY: "test-key-123456" },
        { fetch: gate.fetch },
      ),
      {
        clock: gate.clock,
        random: () => 0.5,
        requestTimeoutMs: defaults.request_timeout_seconds * 1000,
        firstByteTimeoutMs: defaults.first_byte_timeout_seconds * 1000,
        streamIdleTimeoutMs: defaults.stream_idle_timeout_seconds * 1000,
      },
    );
    const started = gate.clock.now();
    const { retries, error } = await drainToFailure(backend);
    const message =
      "openai: no response within 120 s (timeout_settings.first_byte_timeout_seconds)";
    expect(retries).toEqual([1, 2, 3].map(() => `timeout: ${message}`));
    expect(error).toBeInstanceOf(BackendError);
    expect(error).toMatchObject({ kind: "timeout", retryable: true, message });
    expect(fake.requests).toHaveLength(4);
    // Four attempts of 120 s, and the backoffs between them (750 + 1500 + 3000 ms).
    expect(gate.clock.now() - started).toBe(4 * 120_000 + 5250);
    expect(gate.clock.pending).toBe(0);
  });

  test("a local server that sends its headers, then nothing: no first-byte limit, the idle limit ends each attempt (virtual)", async () => {
    const gate = createIoGate();
    const fake = await start((request) => silentAfterHead(gate, request, { text: "4" }));
    const backend = withRetry(
      createChatCompletionsBackend(
        { type: "chatcompletion", model: "m", base_url: fake.url },
        {},
        { fetch: gate.fetch },
      ),
      {
        clock: gate.clock,
        random: () => 0.5,
        requestTimeoutMs: defaults.request_timeout_seconds * 1000,
        firstByteTimeoutMs: 1, // not applied: a local server may load its model first
        streamIdleTimeoutMs: defaults.stream_idle_timeout_seconds * 1000,
      },
    );
    const started = gate.clock.now();
    const { retries, error } = await drainToFailure(backend);
    const message =
      "chatcompletion: the response stream was silent for 120 s (timeout_settings.stream_idle_timeout_seconds)";
    expect(retries).toEqual([1, 2, 3].map(() => `timeout: ${message}`));
    expect(error).toMatchObject({ kind: "timeout", retryable: true, message });
    expect(fake.requests).toHaveLength(4);
    expect(gate.clock.now() - started).toBe(4 * 120_000 + 5250);
  });

  test("a local server that loads its model for longer than the request timeout: the request timeout ends the attempt (virtual)", async () => {
    const gate = createIoGate();
    const fake = await start((request) => hang(gate, request));
    const backend = withRetry(
      createChatCompletionsBackend(
        { type: "chatcompletion", model: "m", base_url: fake.url },
        {},
        { fetch: gate.fetch },
      ),
      {
        clock: gate.clock,
        maxRetries: 0,
        requestTimeoutMs: defaults.request_timeout_seconds * 1000,
        firstByteTimeoutMs: defaults.first_byte_timeout_seconds * 1000,
        streamIdleTimeoutMs: defaults.stream_idle_timeout_seconds * 1000,
      },
    );
    const started = gate.clock.now();
    const { error } = await drainToFailure(backend);
    expect(error).toMatchObject({
      kind: "timeout",
      message: `chatcompletion: no complete response within ${defaults.request_timeout_seconds} s (timeout_settings.request_timeout_seconds)`,
    });
    expect(gate.clock.now() - started).toBe(defaults.request_timeout_seconds * 1000);
    expect(gate.clock.pending).toBe(0);
  });
});
