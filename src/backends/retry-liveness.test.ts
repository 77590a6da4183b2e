/**
 * The first-byte and stream-idle timeouts of the retry wrapper (issue 17 item 4): they apply to
 * backends that report wire activity (the hosted providers), a sign of life keeps a silent
 * stream alive, and both are retried like a timeout. Over a real socket with the official
 * client, too: a fake OpenAI server that sends nothing, then one that goes silent mid-stream.
 */
import { describe, expect, test } from "vitest";
import { createVirtualClock } from "../clock.js";
import { startFakeOpenAIServer } from "../../test/support/fake-openai-server.js";
import { BackendError, emptyUsage, type Backend, type BackendChunk } from "./backend.js";
import { createOpenAIBackend } from "./openai.js";
import { withRetry } from "./retry.js";

const request = {
  system: "",
  messages: [{ role: "user" as const, content: "What is 2+2?" }],
  tools: [],
  toolChoice: "auto" as const,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A backend that waits `silentMs` (calling onActivity every `pulseMs` if given), then answers. */
function slow(options: { silentMs: number; pulseMs?: number; reportsActivity?: boolean }): Backend {
  return {
    type: "fake",
    model: "m",
    ...(options.reportsActivity !== undefined ? { reportsActivity: options.reportsActivity } : {}),
    async *stream(_request, { signal, onActivity }): AsyncGenerator<BackendChunk> {
      const until = Date.now() + options.silentMs;
      while (Date.now() < until) {
        if (signal.aborted) throw signal.reason as Error;
        await sleep(options.pulseMs ?? 5);
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

describe("first-byte and stream-idle timeouts", () => {
  test("a backend that reports activity and stays silent past the first-byte limit fails as a timeout", async () => {
    const backend = withRetry(slow({ silentMs: 2000, reportsActivity: true }), {
      clock: createVirtualClock(),
      maxRetries: 0,
      firstByteTimeoutMs: 50,
    });
    const failure = await drain(backend).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BackendError);
    expect(failure).toMatchObject({
      retryable: true,
      message: "fake: no response within 0.05 s (timeout_settings.first_byte_timeout_seconds)",
    });
  });

  test("the limits do not apply to a backend that does not report activity (local inference)", async () => {
    const backend = withRetry(slow({ silentMs: 300 }), {
      clock: createVirtualClock(),
      maxRetries: 0,
      firstByteTimeoutMs: 20,
      streamIdleTimeoutMs: 20,
    });
    expect(await drain(backend)).toEqual({ text: "ok", retries: [] });
  });

  test("signs of life keep a stream that yields nothing alive; their absence ends it", async () => {
    const alive = withRetry(slow({ silentMs: 1500, pulseMs: 10, reportsActivity: true }), {
      clock: createVirtualClock(),
      maxRetries: 0,
      firstByteTimeoutMs: 1000,
      streamIdleTimeoutMs: 1000,
    });
    expect(await drain(alive)).toEqual({ text: "ok", retries: [] });
  });
});

describe("over a real socket (official client, fake OpenAI server)", () => {
  const answer = { toolCalls: [{ name: "new_answer", arguments: { content: "4" } }] };

  test("no response at all: the first-byte timeout fires and the retry gets the answer", async () => {
    const server = await startFakeOpenAIServer([{ ...answer, delayMs: 10_000 }, answer]);
    try {
      const backend = withRetry(
        createOpenAIBackend(
          { type: "openai", model: "gpt-4o", base_url: server.url },
          {
            OPENAI_API_KEY: "test-key-123456",
          },
        ),
        { clock: createVirtualClock(), firstByteTimeoutMs: 300, streamIdleTimeoutMs: 10_000 },
      );
      const { retries } = await drain(backend);
      expect(retries).toEqual([
        "timeout: openai: no response within 0.3 s (timeout_settings.first_byte_timeout_seconds)",
      ]);
      expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  test("a stream that goes silent: the idle timeout fires and the retry gets the answer", async () => {
    const server = await startFakeOpenAIServer([{ ...answer, chunkDelayMs: 10_000 }, answer]);
    try {
      const backend = withRetry(
        createOpenAIBackend(
          { type: "openai", model: "gpt-4o", base_url: server.url },
          {
            OPENAI_API_KEY: "test-key-123456",
          },
        ),
        { clock: createVirtualClock(), firstByteTimeoutMs: 10_000, streamIdleTimeoutMs: 300 },
      );
      const { retries } = await drain(backend);
      expect(retries).toEqual([
        "timeout: openai: the response stream was silent for 0.3 s (timeout_settings.stream_idle_timeout_seconds)",
      ]);
    } finally {
      await server.close();
    }
  });
});
