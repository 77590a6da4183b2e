/**
 * `coord serve`'s graceful shutdown and runs whose clients went away (docs/server.md, the
 * "Shutdown" paragraph). Such a run has no open response, yet it holds its slot until its run
 * log is closed: SIGTERM must wait for it (within the grace period) so its log directory is
 * complete, not cut off by the process exit. End to end (the built CLI against the fake OpenAI
 * server): "stopped" is printed only once the run's log is complete, and a second signal still
 * stops at once (exit 4). In process (a provider fetch that ignores the abort, so the run
 * outlives its client for as long as the test wants): `close` waits for the run, says how many
 * it waits for, and stops waiting after the grace period plus `drainMs`, or at `stopNow`.
 */
import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import type { Server } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createApp } from "../src/server/app.js";
import { loadServedTeam } from "../src/server/served-team.js";
import { startServer, type RunningServer } from "../src/server/start-server.js";
import { makeSandbox } from "./support/cli.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";
import { startServe, type ServeProcess } from "./support/serve.js";

let serve: ServeProcess | undefined;
let provider: FakeOpenAIServer | undefined;
let server: RunningServer | undefined;
const cleanups: (() => void)[] = [];
afterEach(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGKILL");
    await serve.exited;
  }
  for (const cleanup of cleanups.splice(0)) cleanup();
  await server?.close({ graceMs: 0, drainMs: 0 });
  await provider?.close();
  serve = provider = server = undefined;
});

/** A model that answers each call only once the test releases it. */
async function heldModel(answer: string) {
  let arrived: () => void = () => undefined;
  const modelCallArrived = new Promise<void>((resolve) => (arrived = resolve));
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  provider = await startFakeOpenAIServer(async () => {
    arrived();
    await released;
    return { toolCalls: [{ name: "new_answer", arguments: { content: answer } }] };
  });
  return { modelCallArrived, release, url: provider.url };
}

/** Sends a non-streamed chat completion over a raw socket and returns the socket (never read). */
function sendAndKeepSocket(port: number, question: string) {
  const body = JSON.stringify({ model: "coord", messages: [{ role: "user", content: question }] });
  const socket = connect(port, "127.0.0.1", () =>
    socket.write(
      [
        "POST /v1/chat/completions HTTP/1.1",
        "Host: 127.0.0.1",
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "",
        body,
      ].join("\r\n"),
    ),
  );
  socket.on("error", () => undefined);
  return socket;
}

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

async function startTeam(modelUrl: string, extra: readonly string[] = []) {
  const sandbox = await makeSandbox();
  await writeFile(
    join(sandbox.cwd, "team.yaml"),
    `agents:\n  - id: solo\n    backend: { type: chatcompletion, model: m, base_url: "${modelUrl}" }\n`,
  );
  serve = await startServe(
    ["--host", "127.0.0.1", "--port", "0", "--config", "team.yaml", ...extra],
    sandbox,
  );
  return { serve, logRoot: join(sandbox.cwd, "agent_outputs") };
}

/** The run log directory of the server's one run: `turn_1/attempt_1` in its one `log_…` folder. */
async function onlyRunDir(logRoot: string): Promise<string> {
  const [logName, ...others] = await readdir(logRoot);
  expect(others).toEqual([]);
  return join(logRoot, logName!, "turn_1", "attempt_1");
}

/** What a complete run log has: events ending with run-end, metrics.json, no temp file left. */
async function expectCompleteLog(logRoot: string, reason: string): Promise<void> {
  const runDir = await onlyRunDir(logRoot);
  const files = await filesUnder(join(runDir, "..", ".."));
  expect(files.filter((file) => file.endsWith(".tmp"))).toEqual([]);
  expect(files).toContain(join("turn_1", "attempt_1", "metrics.json"));
  const events = (await readFile(join(runDir, "events.jsonl"), "utf8")).trim().split("\n");
  expect(JSON.parse(events.at(-1)!)).toMatchObject({ type: "run-end", reason });
}

describe("coord serve shutdown with runs whose clients went away", () => {
  test("SIGTERM: 'stopped' only once the run's log is complete; exit 0", async () => {
    const model = await heldModel("Nobody reads this.");
    const { serve, logRoot } = await startTeam(model.url);

    const socket = sendAndKeepSocket(serve.port, "Slow question");
    await model.modelCallArrived;
    socket.destroy(); // the client goes away before the answer
    serve.child.kill("SIGTERM");
    await serve.waitFor(/SIGTERM: shutting down/);
    model.release();
    // The moment the server says it stopped, freeze it: nothing of the run may still be pending
    // (a supervisor may kill a server that said so). Without waiting for its slot, the server
    // said so while the run was still closing its log.
    await serve.waitFor(/coord serve: stopped\n/);
    serve.child.kill("SIGSTOP");
    try {
      await expectCompleteLog(logRoot, "interrupted");
    } finally {
      serve.child.kill("SIGCONT");
    }
    expect(await serve.exited).toBe(0);
    await expectCompleteLog(logRoot, "interrupted");
  });
});

describe("coord serve: a second signal", () => {
  test("stops at once: the run ends with shutdown, its client gets 503, exit 4", async () => {
    const model = await heldModel("Never sent.");
    const { serve, logRoot } = await startTeam(model.url);
    cleanups.push(model.release);

    const socket = sendAndKeepSocket(serve.port, "Slow question");
    let answer = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (answer += chunk));
    const answered = new Promise((resolve) => socket.once("close", resolve));
    await model.modelCallArrived;
    serve.child.kill("SIGTERM");
    await serve.waitFor(/waiting for 1 request in flight/);
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(4);
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toContain("the server is shutting down");
    expect(serve.stderr()).toContain("coord serve: SIGTERM again: stopping now\n");
    await expectCompleteLog(logRoot, "shutdown");
  });
});

/** A promise and the function that settles it. */
function signal<T = void>(): { promise: Promise<T>; fire: (value: T) => void } {
  let fire: (value: T) => void = () => undefined;
  const promise = new Promise<T>((resolve) => (fire = resolve));
  return { promise, fire };
}

/**
 * The app and server in this process, with a provider `fetch` that ignores the run's abort
 * signal and answers only once released: a run that keeps going after its client went away
 * (as a provider SDK that does not stop on abort would keep it).
 */
async function serveInProcess() {
  provider = await startFakeOpenAIServer(async () => ({
    toolCalls: [{ name: "new_answer", arguments: { content: "Late answer." } }],
  }));
  const cwd = await mkdtemp(join(tmpdir(), "coord-serve-shutdown-"));
  await writeFile(
    join(cwd, "team.yaml"),
    `agents:\n  - id: solo\n    backend: { type: chatcompletion, model: m, base_url: "${provider.url}" }\n`,
  );
  const team = await loadServedTeam("team.yaml", { cwd, env: {} });
  const called = signal();
  const released = signal();
  const responseClosed = signal();
  const shutdown = new AbortController();
  cleanups.push(() => released.fire());
  const app = createApp({
    team,
    env: {},
    cwd,
    version: "0.0.0-test",
    logRoot: join(cwd, "agent_outputs"),
    signal: shutdown.signal,
    fetch: async (input, init) => {
      called.fire();
      await released.promise;
      return fetch(input, { ...init, signal: null });
    },
  });
  server = await startServer(app, {
    host: "127.0.0.1",
    port: 0,
    onServer: (node: Server) =>
      node.on("request", (_request, response) =>
        response.once("close", () => responseClosed.fire()),
      ),
  });
  // The client asks, the model call starts, the client goes away, the server sees it.
  const socket = sendAndKeepSocket(server.port, "Slow question");
  await called.promise;
  socket.destroy();
  await responseClosed.promise;
  return {
    app,
    running: server,
    release: released.fire,
    shutdown,
    logRoot: join(cwd, "agent_outputs"),
  };
}

describe("closing the server waits for runs whose clients went away", () => {
  test("close resolves only once the run ended; onWaitingForRuns tells how many", async () => {
    const { app, running, release, logRoot } = await serveInProcess();
    expect(app.activity.inFlight).toBe(1);
    const waiting = signal<number>();
    let closed = false;
    const closing = running
      .close({ graceMs: 60_000, runs: app.activity, onWaitingForRuns: waiting.fire })
      .then(() => (closed = true));
    expect(await waiting.promise).toBe(1);
    // The listener is closed and no response is open: only the run is left.
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    expect(app.activity.inFlight).toBe(1);

    release();
    await closing;
    expect(app.activity.inFlight).toBe(0);
    await app.activity.idle(); // at once when idle
    await expectCompleteLog(logRoot, "interrupted");
  });

  test("past the grace period the runs are stopped and the wait is bounded by drainMs", async () => {
    const { app, running, shutdown } = await serveInProcess();
    let expired = 0;
    await running.close({
      graceMs: 1,
      drainMs: 1,
      runs: app.activity,
      onGraceExpired: () => {
        expired++;
        shutdown.abort();
      },
    });
    // The run ignores every stop (its fetch never ends): close gave up on it after drainMs.
    expect(expired).toBe(1);
    expect(app.activity.inFlight).toBe(1);
  });

  test("stopNow ends the grace period at once, without onGraceExpired", async () => {
    const { app, running } = await serveInProcess();
    let expired = 0;
    const closing = running.close({
      graceMs: 60_000,
      runs: app.activity,
      onGraceExpired: () => expired++,
    });
    running.stopNow(1);
    await closing;
    expect(expired).toBe(0);
    expect(app.activity.inFlight).toBe(1);
  });
});
