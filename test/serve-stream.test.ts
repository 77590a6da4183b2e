/**
 * `coord serve --stream` over a real socket with the clients people stream
 * with: the official `openai` npm client (`stream: true` and `chat.completions.stream()`) and the
 * AI SDK (`streamText` through `@ai-sdk/openai-compatible`). The trace arrives as
 * `reasoning_content` deltas while the team still works, then the final answer, `finish_reason`,
 * the usage chunk and `[DONE]`; one request each; `: keep-alive` comments in long silences; a
 * client that goes away stops the run; a failing run ends the stream with an error the SDK raises.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { streamText } from "ai";
import OpenAI from "openai";
import { afterEach, describe, expect, test } from "vitest";
import { streamingOn } from "../src/commands/serve.js";
import { createApp, type AppOptions } from "../src/server/app.js";
import { loadServedTeam } from "../src/server/served-team.js";
import { startServer, type RunningServer } from "../src/server/start-server.js";
import type { RunState } from "../src/session/index.js";
import { ECHO_USAGE, echoHandler, echoTeamConfig } from "./support/echo-team.js";
import {
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
} from "./support/fake-openai-server.js";

let server: RunningServer | undefined;
let provider: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close({ graceMs: 0 });
  await provider?.close();
  server = provider = undefined;
});

/** The echo team of `agents` agents on a fake provider with `handler`, served with `--stream`. */
async function serveStreaming(
  handler: FakeHandler,
  agents: number,
  extra: Partial<AppOptions> = {},
) {
  provider = await startFakeOpenAIServer(handler);
  const cwd = await mkdtemp(join(tmpdir(), "coord-serve-stream-"));
  await writeFile(join(cwd, "team.yaml"), echoTeamConfig(provider.url, agents));
  const team = await loadServedTeam("team.yaml", { cwd, env: {} });
  const log: string[] = [];
  const ended: RunState[] = [];
  const app = createApp({
    team,
    cwd,
    env: {},
    version: "0.0.0-test",
    stream: true,
    onLog: (line) => log.push(line),
    onRunEnd: (state) => ended.push(state),
    ...extra,
  });
  server = await startServer(app, { host: "127.0.0.1", port: 0 });
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused" });
  const posts = () => log.filter((line) => line.includes("POST /v1/chat/completions"));
  return { client, app, log, posts, ended, url: server.url };
}

/** A handler that holds every model call until `release()`; `arrived` resolves at the first. */
function heldHandler(inner: FakeHandler) {
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const handler: FakeHandler = async (request) => {
    arrived();
    await released;
    return inner(request);
  };
  return { handler, first, release };
}

const QUESTION = "How many legs has a spider?";
const messages = [{ role: "user" as const, content: QUESTION }];
const TEAM_USAGE = {
  prompt_tokens: 5 * ECHO_USAGE.inputTokens,
  completion_tokens: 5 * ECHO_USAGE.outputTokens,
  total_tokens: 5 * (ECHO_USAGE.inputTokens + ECHO_USAGE.outputTokens),
};

/** A chunk's delta with coord's `reasoning_content` (not in the SDK's type). */
interface ReasoningDelta {
  content?: string | null;
  reasoning_content?: string;
}

describe("coord serve --stream with the openai client", () => {
  test("stream: true: the trace while the team works, then the answer, finish_reason, usage", async () => {
    const held = heldHandler(echoHandler());
    const { client, posts } = await serveStreaming(held.handler, 2);
    const stream = await client.chat.completions.create({
      model: "coord",
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    let releasedAfter = -1;
    for await (const chunk of stream) {
      chunks.push(chunk);
      const delta: ReasoningDelta | undefined = chunk.choices[0]?.delta;
      // The question's trace line arrived while every model call was still held: incremental.
      if (releasedAfter < 0 && delta?.reasoning_content?.includes("[system] Question:")) {
        await held.first;
        releasedAfter = chunks.length;
        held.release();
      }
    }
    expect(releasedAfter).toBeGreaterThan(0);
    const deltas = chunks.flatMap((chunk) => chunk.choices.map((c) => c.delta as ReasoningDelta));
    const reasoning = deltas.map((delta) => delta.reasoning_content ?? "").join("");
    expect(reasoning.split("\n")[0]).toBe(`[system] Question: ${QUESTION}`);
    expect(reasoning).toContain("[orchestrator] Vote: echo_1 (from echo_2: ");
    expect(deltas.filter((delta) => delta.reasoning_content).length).toBeGreaterThan(3);
    expect(deltas.map((delta) => delta.content ?? "").join("")).toBe(
      `Final answer to: ${QUESTION}`,
    );
    const finish = chunks.filter((chunk) => chunk.choices[0]?.finish_reason === "stop");
    expect(finish).toHaveLength(1);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject(TEAM_USAGE);
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(1);
    expect(chunks[0]!.object).toBe("chat.completion.chunk");
    expect(chunks[0]!.model).toBe("coord/team");
    expect(posts()).toHaveLength(1);
  });

  test("chat.completions.stream(): content events and the final completion", async () => {
    const { client, posts } = await serveStreaming(echoHandler(), 2);
    const pieces: string[] = [];
    const runner = client.chat.completions
      .stream({ model: "coord", messages, stream_options: { include_usage: true } })
      .on("content", (delta) => pieces.push(delta));
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]!.message.content).toBe(`Final answer to: ${QUESTION}`);
    expect(pieces.join("")).toBe(`Final answer to: ${QUESTION}`);
    expect(completion.usage).toMatchObject(TEAM_USAGE);
    expect(posts()).toHaveLength(1);
  });

  test("a failing team ends the stream with an error the SDK raises, sent once, no address", async () => {
    const { client, posts } = await serveStreaming(
      () => ({ error: { status: 400, message: "model fake-model does not exist" } }),
      2,
    );
    const stream = await client.chat.completions.create({ model: "coord", messages, stream: true });
    const caught = await (async () => {
      for await (const chunk of stream) void chunk;
    })().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(caught).toBeInstanceOf(OpenAI.APIError);
    const message = (caught as Error).message;
    expect(message).toContain("model fake-model does not exist");
    expect(message).not.toContain("127.0.0.1");
    expect(posts()).toHaveLength(1);
  });

  test("a client that goes away stops the run and frees its slot", async () => {
    const held = heldHandler(echoHandler());
    const { client, app, ended } = await serveStreaming(held.handler, 1);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: "coord", messages, stream: true },
      { signal: controller.signal },
    );
    const reading = (async () => {
      for await (const chunk of stream) void chunk;
    })().catch(() => undefined);
    await held.first;
    controller.abort();
    await reading;
    await expect.poll(() => ended.map((state) => state.endReason)).toEqual(["interrupted"]);
    held.release();
    await expect.poll(() => app.activity.inFlight).toBe(0);
  });
});

describe("coord serve --stream keeps the connection alive", () => {
  test("a silence longer than keepAliveMs sends a ': keep-alive' comment", async () => {
    const held = heldHandler(echoHandler());
    const { url } = await serveStreaming(held.handler, 1, { keepAliveMs: 20 });
    const response = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "coord", messages, stream: true }),
    });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes(": keep-alive\n\n")) text += (await reader.read()).value ?? "";
    held.release();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });
});

describe("coord serve --stream with the AI SDK", () => {
  test("streamText: text deltas, the trace as reasoning, usage; one request", async () => {
    const { url, posts } = await serveStreaming(echoHandler(), 2);
    const coord = createOpenAICompatible({
      name: "coord",
      baseURL: `${url}/v1`,
      includeUsage: true,
    });
    const result = streamText({ model: coord.chatModel("coord"), prompt: QUESTION, maxRetries: 2 });
    const parts: string[] = [];
    for await (const part of result.textStream) parts.push(part);
    expect(parts.join("")).toBe(`Final answer to: ${QUESTION}`);
    expect(await result.reasoningText).toContain(`[system] Question: ${QUESTION}`);
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(TEAM_USAGE.prompt_tokens);
    expect(usage.outputTokens).toBe(TEAM_USAGE.completion_tokens);
    expect(await result.finishReason).toBe("stop");
    expect(posts()).toHaveLength(1);
  });
});

describe("turning streaming on", () => {
  test("--stream or COORD_SERVER_STREAM=true/1; anything else keeps the spec's 501", () => {
    expect(streamingOn({ stream: true }, {})).toBe(true);
    expect(streamingOn({}, { COORD_SERVER_STREAM: "true" })).toBe(true);
    expect(streamingOn({}, { COORD_SERVER_STREAM: "1" })).toBe(true);
    expect(streamingOn({}, { COORD_SERVER_STREAM: "false" })).toBe(false);
    expect(streamingOn({}, {})).toBe(false);
  });
});
