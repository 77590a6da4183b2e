/**
 * A failed team is never re-run by a client: the official `openai` npm client
 * (which retries a 5xx twice by default) sends one request to `coord serve` when the team fails,
 * because every 5xx coord sends says `x-should-retry: false` unless retrying helps (the 503 of the
 * in-flight cap: `x-should-retry: true`, `Retry-After`); and the message the client reads names
 * no provider address, while the server's log keeps it.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { afterEach, describe, expect, test } from "vitest";
import { createApp } from "../src/server/app.js";
import { loadServedTeam } from "../src/server/served-team.js";
import { startServer, type RunningServer } from "../src/server/start-server.js";
import { echoTeamConfig } from "./support/echo-team.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";
import { createIoGate, type IoGate } from "./support/io-gate.js";

let server: RunningServer | undefined;
let provider: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close({ graceMs: 0 });
  await provider?.close();
  server = provider = undefined;
});

/**
 * Serves the echo team on `providerUrl`; returns the client and the server's log lines. With a
 * `gate`, the server's runs take their time from its virtual clock and send through its fetch.
 */
async function serveTeam(
  providerUrl: string,
  options: { maxInFlight?: number; gate?: IoGate } = {},
) {
  const { gate, ...appOptions } = options;
  const cwd = await mkdtemp(join(tmpdir(), "coord-serve-retries-"));
  await writeFile(join(cwd, "team.yaml"), echoTeamConfig(providerUrl, 2));
  const team = await loadServedTeam("team.yaml", { cwd, env: {} });
  const log: string[] = [];
  server = await startServer(
    createApp({
      team,
      cwd,
      env: {},
      version: "0.0.0-test",
      onLog: (line) => log.push(line),
      ...(gate ? { clock: gate.clock, fetch: gate.fetch } : {}),
      ...appOptions,
    }),
    { host: "127.0.0.1", port: 0 },
  );
  // The SDK's defaults: 2 retries of a 5xx, unless the server says otherwise.
  const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused" });
  return { client, log };
}

const chatPosts = (log: readonly string[], status: number) =>
  log.filter((line) => line.includes(`POST /v1/chat/completions ${status} `));

describe("coord serve and client retries", () => {
  test("a team whose provider fails: one request from the openai client, no address in the message", async () => {
    provider = await startFakeOpenAIServer(() => ({
      error: { status: 400, message: "model fake-model does not exist" },
    }));
    const { client, log } = await serveTeam(provider.url);
    const error = await client.chat.completions
      .create({ model: "coord", messages: [{ role: "user", content: "What is 2 + 2?" }] })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(500);
    expect(apiError.code).toBe("run_failed");
    expect(apiError.headers?.get("x-should-retry")).toBe("false");
    expect(apiError.headers?.get("retry-after")).toBeNull();
    // Exactly one request reached coord: the client did not re-run the team.
    expect(chatPosts(log, 500)).toHaveLength(1);
    expect(log.filter((line) => line.includes("POST /v1/chat/completions"))).toHaveLength(1);
    expect(apiError.message).toContain("model fake-model does not exist");
    expect(apiError.message).not.toContain("127.0.0.1");
    expect(apiError.message).not.toContain(String(provider.port));
    // The server's log keeps the full message.
    expect(log.some((line) => line.includes(" 500 ") && line.includes("model fake-model"))).toBe(
      true,
    );
  });

  // The team's own retries of the refused connection wait their backoff (1, 2, 4 s with jitter)
  // on the server's clock: a virtual one, moved on while no request is on its way.
  test("a provider that cannot be reached: one request, the address stripped from the message", async () => {
    // A port nothing listens on: the fake server, closed.
    const closed = await startFakeOpenAIServer(() => ({ text: "unused" }));
    const url = closed.url;
    await closed.close();
    const gate = createIoGate();
    const started = gate.clock.now();
    const { client, log } = await serveTeam(url, { gate });
    const error = await client.chat.completions
      .create({ model: "coord", messages: [{ role: "user", content: "What is 2 + 2?" }] })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBeGreaterThanOrEqual(500);
    expect(apiError.headers?.get("x-should-retry")).toBe("false");
    expect(log.filter((line) => line.includes("POST /v1/chat/completions"))).toHaveLength(1);
    expect(apiError.message).not.toContain("127.0.0.1");
    expect(apiError.message).not.toContain(url);
    expect(log.some((line) => line.includes("127.0.0.1"))).toBe(true);
    // The retries' backoff went by on the server's clock, virtual: at least the first two
    // waits (1 and 2 s, at least half of each with the jitter), and no real seconds.
    expect(gate.clock.now() - started).toBeGreaterThanOrEqual(1_500);
  });

  test("the in-flight cap's 503 says retrying helps: x-should-retry true and Retry-After", async () => {
    let arrived: () => void = () => undefined;
    const modelCallArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    provider = await startFakeOpenAIServer(async () => {
      arrived();
      await released;
      return { text: "late" };
    });
    const { client } = await serveTeam(provider.url, { maxInFlight: 1 });
    const controller = new AbortController();
    const first = client.chat.completions
      .create(
        { model: "coord", messages: [{ role: "user", content: "slow" }] },
        { signal: controller.signal, maxRetries: 0 },
      )
      .catch(() => undefined);
    await modelCallArrived;
    const error = await client.chat.completions
      .create({ model: "coord", messages: [{ role: "user", content: "busy?" }] }, { maxRetries: 0 })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(503);
    expect(apiError.code).toBe("server_busy");
    expect(apiError.headers?.get("x-should-retry")).toBe("true");
    expect(apiError.headers?.get("retry-after")).toBe("5");
    controller.abort();
    release();
    await first;
  });
});
