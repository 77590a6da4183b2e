/**
 * `coord serve` cannot be tied up (docs/security.md), over real sockets
 * to the built CLI with small time limits (the COORD_SERVER_*_TIMEOUT_MS variables):
 *
 * - a half-sent body is answered 408 and dropped after the body timeout, and logged as one
 *   access line (no "internal error", no stack); a connection that never sends a byte is closed
 *   after the idle timeout;
 * - a client that disconnects mid-body is one access line, no stack;
 * - past `--max-in-flight`, a request gets an OpenAI-shaped 503 with `Retry-After`, and the run
 *   in flight still answers, however long it takes past the socket limits.
 */
import { writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox } from "./support/cli.js";
import {
  coordinationHandler,
  type FakeOpenAIServer,
  startFakeOpenAIServer,
} from "./support/fake-openai-server.js";
import { startServe, type ServeProcess } from "./support/serve.js";

let serve: ServeProcess | undefined;
let fake: FakeOpenAIServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  serve = undefined;
  await fake?.close();
  fake = undefined;
});

/** Small limits, so each test waits a fraction of a second for the server to act. */
const SMALL_TIMEOUTS = {
  COORD_SERVER_HEADERS_TIMEOUT_MS: "300",
  COORD_SERVER_BODY_TIMEOUT_MS: "400",
  COORD_SERVER_KEEP_ALIVE_TIMEOUT_MS: "300",
  COORD_SERVER_IDLE_TIMEOUT_MS: "400",
};

/** Opens a raw connection; resolves with what it received once the server closes it. */
function rawClient(port: number): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  let received = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
  socket.on("error", () => undefined);
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(received)));
  return { socket, closed };
}

const HEAD =
  "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n";

describe("every socket has a time limit", () => {
  test(
    "row 5: a half-sent body is answered 408 and dropped; a silent connection is closed; one log line each",
    { timeout: 30_000 },
    async () => {
      const sandbox = await makeSandbox();
      serve = await startServe(
        ["--host", "127.0.0.1", "--port", "0", "--config", "@examples/scripted_team", "--no-logs"],
        { ...sandbox, env: SMALL_TIMEOUTS },
      );
      const half = rawClient(serve.port);
      half.socket.write(`${HEAD}Content-Length: 1000\r\n\r\n{"model": "coord", "mess`);
      const silent = rawClient(serve.port);
      // Both are closed by the server (on the old code neither ever was).
      expect(await half.closed).toMatch(/^HTTP\/1\.1 408 /);
      // Closed unanswered, or with a 408 (Node's header timer may see it first).
      expect(await silent.closed).toMatch(/^(?:|HTTP\/1\.1 408 [\s\S]*)$/);
      await serve.waitFor(/POST \/v1\/chat\/completions 499 \d+ ms \(the client went away/);
      expect(serve.stderr()).not.toContain("internal error");
      expect(serve.stderr()).not.toMatch(/\n\s+at /);
      expect(serve.stderr().match(/POST \/v1\/chat\/completions \d{3} /g)).toHaveLength(1);

      // The server still answers, and an idle keep-alive connection is closed after an answer.
      const kept = rawClient(serve.port);
      const body = JSON.stringify({ model: "coord", messages: [{ role: "user", content: "Hi" }] });
      kept.socket.write(`${HEAD}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      expect(await kept.closed).toMatch(/^HTTP\/1\.1 200 [\s\S]*keep-alive/i);
    },
  );

  test("a client that disconnects mid-body is one log line, not a 500 with a stack", async () => {
    const sandbox = await makeSandbox();
    serve = await startServe(
      ["--host", "127.0.0.1", "--port", "0", "--config", "@examples/scripted_team", "--no-logs"],
      sandbox,
    );
    for (let index = 0; index < 3; index++) {
      const client = rawClient(serve.port);
      await new Promise<void>((resolve) =>
        client.socket.write(`${HEAD}Content-Length: 500\r\n\r\n{"model":`, () => resolve()),
      );
      client.socket.destroy();
    }
    await serve.waitFor(/(?:499 \d+ ms \(the client went away[^\n]*\n[\s\S]*){3}/);
    expect(serve.stderr()).not.toContain("internal error");
    expect(serve.stderr()).not.toMatch(/\n\s+at /);
    expect(serve.stderr().match(/POST \/v1\/chat\/completions \d{3} /g)).toHaveLength(3);
  });
});

describe("an in-flight cap", () => {
  test(
    "past --max-in-flight a request gets 503 server_busy with Retry-After; the run in flight still answers",
    { timeout: 30_000 },
    async () => {
      const sandbox = await makeSandbox();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const decide = coordinationHandler({ answer: () => "Held answer." });
      fake = await startFakeOpenAIServer(async (request) => {
        await gate;
        return decide(request);
      });
      await writeFile(
        join(sandbox.cwd, "team.yaml"),
        `agents:\n  - id: a\n    backend: { type: chatcompletion, model: m, base_url: "${fake.url}", api_key: sk-test-0000 }\n`,
      );
      serve = await startServe(
        [
          "--host",
          "127.0.0.1",
          "--port",
          "0",
          "--config",
          "team.yaml",
          "--no-logs",
          "--max-in-flight",
          "1",
        ],
        { ...sandbox, env: SMALL_TIMEOUTS },
      );
      const post = () =>
        fetch(`${serve!.url}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model: "coord", messages: [{ role: "user", content: "Hi" }] }),
        });
      const first = post();
      // Wait until the first run reached its provider (it is in flight).
      for (;;) {
        const health = (await (await fetch(`${serve.url}/health`)).json()) as {
          in_flight: number;
        };
        if (health.in_flight === 1 && fake.requests.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const busy = await post();
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("5");
      expect(await busy.json()).toEqual({
        error: {
          message:
            "the server is busy: 1 team runs are in flight, its limit (--max-in-flight); retry in 5 s",
          type: "service_unavailable_error",
          param: null,
          code: "server_busy",
        },
      });
      // A run may take longer than every socket limit: once a silent connection opened now has
      // been dropped (the idle limit passed), the held run still answers.
      const silent = rawClient(serve.port);
      await silent.closed;
      release();
      const answered = await first;
      expect(answered.status).toBe(200);
      expect(((await answered.json()) as { choices: unknown[] }).choices).toHaveLength(1);
      expect((await post()).status).toBe(200);
    },
  );
});
