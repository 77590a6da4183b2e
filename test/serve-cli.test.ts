/**
 * `coord serve` end to end: the built CLI spawned as a process (spec section 4.2 `serve`). The
 * start-up banner, environment variables under flags, a raw HTTP request as curl would send it,
 * one run log per request, a graceful SIGTERM that lets a request in flight finish, start-up
 * errors, and `--reload` picking up an edited config.
 */
import { readdir, writeFile } from "node:fs/promises";
import { connect, createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";
import { startServe, type ServeProcess } from "./support/serve.js";

let serve: ServeProcess | undefined;
let provider: FakeOpenAIServer | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  await provider?.close();
  serve = provider = undefined;
});

/** Sends raw HTTP/1.1 text (as `curl` would) and returns the status and the JSON body. */
function rawRequest(
  port: number,
  request: string,
): Promise<{ status: number; head: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let text = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      resolve({ status, head, body: body === "" ? undefined : (JSON.parse(body) as unknown) });
    });
  });
}

function chatRequest(question: string): string {
  const body = JSON.stringify({ model: "coord", messages: [{ role: "user", content: question }] });
  return [
    "POST /v1/chat/completions HTTP/1.1",
    "Host: 127.0.0.1",
    "User-Agent: curl/8.5.0",
    "Accept: */*",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

describe("coord serve", () => {
  test("prints the address, config and agents; answers a raw request; one run log per request", async () => {
    const sandbox = await makeSandbox();
    serve = await startServe(["--port", "0"], {
      ...sandbox,
      env: {
        COORD_SERVER_HOST: "127.0.0.1",
        COORD_SERVER_PORT: "not-a-port", // --port wins, so this is never read
        COORD_SERVER_DEFAULT_CONFIG: "@examples/scripted_team",
      },
    });
    const banner = serve.stderr();
    expect(banner).toMatch(/^coord serve \S+ listening on http:\/\/127\.0\.0\.1:\d+\n/);
    expect(banner).toMatch(
      /config: +\S*examples\/scripted_team\.yaml \(served as model coord\/scripted_team\)/,
    );
    expect(banner).toContain(
      "alice (scripted/scripted), bob (scripted/scripted), carol (scripted/scripted); mode voting",
    );

    const { status, head, body } = await rawRequest(serve.port, chatRequest("What is 2+2?"));
    expect(status).toBe(200);
    expect(head.toLowerCase()).toMatch(/\r\nx-request-id: req_[0-9a-f]{32}\r\n/);
    expect(body).toMatchObject({
      object: "chat.completion",
      choices: [{ message: { role: "assistant", content: "2 + 2 = 4." }, finish_reason: "stop" }],
    });
    const health = await rawRequest(
      serve.port,
      "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
    );
    expect(health.body).toMatchObject({ status: "ok", default_config: true });
    await rawRequest(serve.port, chatRequest("And 3+3?"));
    expect(await readdir(join(sandbox.cwd, "agent_outputs"))).toHaveLength(2);
    await serve.waitFor(
      /POST \/v1\/chat\/completions 200 \d+ ms\n[\s\S]*POST \/v1\/chat\/completions 200/,
    );

    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).toContain("coord serve: SIGTERM: shutting down\ncoord serve: stopped\n");
  });

  test("SIGTERM while a request is in flight: the request finishes, then the server exits 0", async () => {
    let arrived: () => void = () => undefined;
    const modelCallArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    provider = await startFakeOpenAIServer(async () => {
      arrived();
      await released;
      return {
        toolCalls: [{ name: "new_answer", arguments: { content: "Finished after SIGTERM." } }],
      };
    });
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      `agents:\n  - id: solo\n    backend: { type: chatcompletion, model: m, base_url: "${provider.url}" }\n`,
    );
    serve = await startServe(
      ["--host", "127.0.0.1", "--port", "0", "--config", "team.yaml", "--no-logs"],
      sandbox,
    );
    expect(serve.stderr()).toContain("run logs:  off");

    const response = rawRequest(serve.port, chatRequest("Slow question"));
    await modelCallArrived;
    serve.child.kill("SIGTERM");
    await serve.waitFor(/SIGTERM: shutting down; waiting for 1 request in flight/);
    // No new requests once shutdown began: refused, or (connected in the instant before the
    // listener closed) reset without an answer.
    await expect(rawRequest(serve.port, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")).rejects.toThrow(
      /ECONNREFUSED|ECONNRESET/,
    );
    release();
    const { status, body } = await response;
    expect(status).toBe(200);
    expect(body).toMatchObject({ choices: [{ message: { content: "Finished after SIGTERM." } }] });
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).toContain("coord serve: stopped");
  });

  test("start-up errors are one line and exit 1", async () => {
    const sandbox = await makeSandbox();
    const missing = await runCli(["serve", "--port", "0", "--config", "nope.yaml"], sandbox);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^coord: .*nope\.yaml.*\n$/);
    const badPort = await runCli(["serve"], { ...sandbox, env: { COORD_SERVER_PORT: "99999" } });
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toBe(
      'coord: COORD_SERVER_PORT="99999": expected a port number from 0 to 65535\n',
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as AddressInfo;
    const inUse = await runCli(
      [
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--config",
        "@examples/scripted_team",
      ],
      sandbox,
    );
    await new Promise((resolve) => taken.close(resolve));
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toMatch(
      new RegExp(
        `^coord: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use; pick another with --port or COORD_SERVER_PORT .*\n$`,
      ),
    );
    const badFlag = await runCli(["serve", "--port", "-3"], sandbox);
    expect(badFlag.code).toBe(1);
    expect(badFlag.stderr).toContain("--port must be a port number from 0 to 65535");
  });

  test("--reload restarts the server when the config file changes", async () => {
    const sandbox = await makeSandbox();
    const team = (answer: string) =>
      `agents:\n  - id: solo\n    backend: { type: scripted, steps: [{ answer: "${answer}" }] }\n`;
    await writeFile(join(sandbox.cwd, "team.yaml"), team("First version."));
    serve = await startServe(
      ["--reload", "--host", "127.0.0.1", "--port", "0", "--config", "team.yaml", "--no-logs"],
      sandbox,
    );
    const first = await rawRequest(serve.port, chatRequest("Which version?"));
    expect(first.body).toMatchObject({ choices: [{ message: { content: "First version." } }] });

    await writeFile(join(sandbox.cwd, "team.yaml"), team("Second version."));
    await serve.waitFor(/team\.yaml[^\n]* changed: restarting/);
    // Ask the newest server until it answers from the new config (others rebuilding dist/ may
    // cause extra restarts, each on a new port: always ask the last one listening).
    let content: unknown;
    for (let attempt = 0; attempt < 100 && content !== "Second version."; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const ports = [...serve.stderr().matchAll(/listening on http:\/\/127\.0\.0\.1:(\d+)/g)];
      if (ports.length < 2) continue;
      const reply = await rawRequest(Number(ports.at(-1)![1]), chatRequest("Which version?")).catch(
        () => undefined,
      );
      content = (reply?.body as { choices?: { message: { content: string } }[] } | undefined)
        ?.choices?.[0]?.message.content;
    }
    expect(content).toBe("Second version.");

    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
  });
});
