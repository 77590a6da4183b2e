/**
 * `coord serve --stream` end to end: the built CLI (`dist/bin/coord.js`) with
 * the scripted team, the official `openai` client streaming from it; `COORD_SERVER_STREAM=true`
 * does the same; without either, `stream: true` stays the spec's 501, sent to the client once.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, test } from "vitest";
import { startServe, type ServeProcess } from "./support/serve.js";

let serve: ServeProcess | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  serve = undefined;
});

async function start(args: readonly string[], env: Record<string, string> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), "coord-serve-stream-cli-"));
  serve = await startServe(
    [
      "--config",
      "@examples/scripted_team",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--no-logs",
      ...args,
    ],
    { cwd, home: cwd, env },
  );
  return new OpenAI({ baseURL: `${serve.url}/v1`, apiKey: "unused" });
}

const messages = [{ role: "user" as const, content: "What is 2 + 2?" }];
const posts = (status: number) =>
  serve!
    .stderr()
    .split("\n")
    .filter((line) => line.includes(`POST /v1/chat/completions ${status} `));

describe("coord serve --stream (the built CLI)", () => {
  test.each([
    ["--stream", ["--stream"], {}],
    ["COORD_SERVER_STREAM=true", [], { COORD_SERVER_STREAM: "true" }],
  ])("%s: the openai client streams the trace, then the answer and usage", async (_, args, env) => {
    const client = await start(args, env);
    expect(serve!.stderr()).toContain(
      "streaming: on (stream: true answered as Server-Sent Events)",
    );
    const stream = await client.chat.completions.create({
      model: "coord",
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = "";
    let reasoning = "";
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      const delta: { content?: string | null; reasoning_content?: string } | undefined =
        chunk.choices[0]?.delta;
      content += delta?.content ?? "";
      reasoning += delta?.reasoning_content ?? "";
      usage = chunk.usage ?? usage;
    }
    expect(content).toBe("2 + 2 = 4.");
    expect(reasoning.split("\n")[0]).toBe("[system] Question: What is 2 + 2?");
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    await serve!.waitFor(/POST \/v1\/chat\/completions 200 /);
    expect(posts(200)).toHaveLength(1);
  });

  test("--stream: chat.completions.stream() gives content events and the final completion", async () => {
    const client = await start(["--stream"]);
    const pieces: string[] = [];
    const runner = client.chat.completions
      .stream({ model: "coord", messages, stream_options: { include_usage: true } })
      .on("content", (delta) => pieces.push(delta));
    const completion = await runner.finalChatCompletion();
    expect(completion.choices[0]!.message.content).toBe("2 + 2 = 4.");
    expect(pieces.join("")).toBe("2 + 2 = 4.");
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    await serve!.waitFor(/POST \/v1\/chat\/completions 200 /);
    expect(posts(200)).toHaveLength(1);
  });

  test("without --stream: the spec's 501, one request", async () => {
    const client = await start([]);
    expect(serve!.stderr()).toContain("streaming: off (stream: true is a 501");
    const caught = await client.chat.completions
      .create({ model: "coord", messages, stream: true })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect((caught as InstanceType<typeof OpenAI.APIError>).status).toBe(501);
    await serve!.waitFor(/POST \/v1\/chat\/completions 501 /);
    expect(posts(501)).toHaveLength(1);
  });
});
