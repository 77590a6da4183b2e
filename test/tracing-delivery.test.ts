/**
 * Tracing never breaks a run, and its spans get out (docs/tracing.md): Ctrl+C (SIGINT),
 * SIGTERM or SIGHUP mid-run still delivers the spans of the rounds so far; a receiver that is not
 * there, fails or never answers changes neither the exit code nor the answer (one warning); Logfire's
 * write token from the environment and from the credentials file reaches the receiver standing
 * in for the regional endpoint (LOGFIRE_BASE_URL) as the Authorization header; `coord serve`
 * traces each request under the caller's traceparent and names the trace in its response.
 */
import { mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply,
} from "./support/fake-openai-server.js";
import { type OtlpReceiver, startOtlpReceiver } from "./support/otlp-receiver.js";
import { startServe, type ServeProcess } from "./support/serve.js";

let provider: FakeOpenAIServer | undefined;
let receiver: OtlpReceiver | undefined;
let serve: ServeProcess | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGKILL");
    await serve.exited;
  }
  await provider?.close();
  await receiver?.close();
  provider = receiver = serve = undefined;
});

/** A port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const SCRIPTED = ["--config", "@examples/scripted_team", "--no-display", "--tracing"];

describe("spans get out", () => {
  test.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)(
    "%s mid-run: exit 4, and the spans of the run so far arrive",
    async (signal) => {
      // Answers (distinct per model) come at once; every vote call hangs until the run stops.
      let voteCalls = 0;
      let sawVote: () => void = () => undefined;
      const voting = new Promise<void>((resolve) => (sawVote = resolve));
      provider = await startFakeOpenAIServer(async (request) => {
        const reply = await coordinationHandler({
          answer: `${String(request.body.model)} says 4`,
        })(request);
        if (!reply.toolCalls?.some((call) => call.name === "vote")) return reply;
        voteCalls++;
        sawVote();
        return new Promise<FakeReply>(() => undefined);
      });
      receiver = await startOtlpReceiver();
      const sandbox = await makeSandbox();
      const agent = (id: string, model: string) =>
        `  - id: ${id}\n    backend: { type: openai, model: ${model}, base_url: "${provider!.url}", api_key: sk-test }`;
      await writeFile(
        join(sandbox.cwd, "team.yaml"),
        [
          "agents:",
          agent("a", "gpt-4.1-mini"),
          agent("b", "gpt-4o-mini"),
          agent("c", "gpt-4.1-nano"),
        ].join("\n"),
      );
      const result = await runCli(
        ["--config", "team.yaml", "--no-display", "--tracing", "What is 2+2?"],
        {
          ...sandbox,
          env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
          onSpawn: (child) => void voting.then(() => child.kill(signal)),
        },
      );
      expect(voteCalls).toBeGreaterThan(0);
      expect(result.code).toBe(4);
      const spans = receiver.spans();
      const run = spans.find((span) => span.name === "invoke_workflow coord");
      expect(run?.attributes["coord.end_reason"]).toBe("interrupted");
      expect(run?.status.code).toBe(2);
      const outcomes = spans
        .filter((span) => span.name.startsWith("invoke_agent "))
        .map((span) => span.attributes["coord.round.outcome"]);
      expect(outcomes.filter((outcome) => outcome === "answer")).toHaveLength(3);
      expect(outcomes).toContain("aborted");
      expect(spans.filter((span) => span.name.startsWith("chat "))).toHaveLength(3);
    },
  );

  test("a receiver that is not there: same exit code and answer, one warning", async () => {
    const sandbox = await makeSandbox();
    const without = await runCli(
      SCRIPTED.filter((arg) => arg !== "--tracing").concat("What is 2+2?"),
      sandbox,
    );
    const port = await closedPort();
    const result = await runCli([...SCRIPTED, "What is 2+2?"], {
      ...sandbox,
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` },
    });
    expect(result.code).toBe(without.code);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(without.stdout);
    const warnings = result.stderr.split("\n").filter((line) => line.includes("warning"));
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^coord: warning: tracing: cannot send spans to http://127\\.0\\.0\\.1:${port}/v1/traces: .*ECONNREFUSED.*; spans are dropped, the run is not affected$`,
        ),
      ),
    ]);
  });

  test.each(["fail", "hang"] as const)(
    "a receiver that answers 500 or never answers (%s): exit 0, the answer, one warning",
    async (mode) => {
      receiver = await startOtlpReceiver({ mode });
      const sandbox = await makeSandbox();
      const result = await runCli([...SCRIPTED, "What is 2+2?"], {
        ...sandbox,
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_TIMEOUT: "1000" },
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe("2 + 2 = 4.\n");
      expect(receiver.requests.length).toBeGreaterThan(0);
      const warnings = result.stderr.split("\n").filter((line) => line.includes("warning"));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^coord: warning: tracing: /);
    },
  );
});

describe("Logfire", () => {
  async function logfireRun(env: Record<string, string>, setup?: (cwd: string) => Promise<void>) {
    receiver = await startOtlpReceiver();
    const sandbox = await makeSandbox();
    await setup?.(sandbox.cwd);
    const result = await runCli([...SCRIPTED, "What is 2+2?"], {
      ...sandbox,
      env: { LOGFIRE_BASE_URL: receiver.url, ...env },
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`(Logfire (${receiver.url}))`);
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) {
      expect(request.path).toBe("/v1/traces");
      expect(request.headers["content-encoding"]).toBe("gzip");
    }
    expect(receiver.spans().some((span) => span.name === "invoke_workflow coord")).toBe(true);
    return receiver.requests;
  }

  test("LOGFIRE_TOKEN: sent as the Authorization header, never inside the spans", async () => {
    const token = "pylf_v1_eu_0123456789abcdefghijklmnopqrstuvwxyz";
    const requests = await logfireRun({ LOGFIRE_TOKEN: token });
    for (const request of requests) {
      expect(request.headers.authorization).toBe(token);
      expect(request.body).not.toContain(token);
    }
  });

  test("the credentials file `logfire projects use` writes (.logfire/logfire_credentials.json)", async () => {
    const token = "pylf_v1_us_FromTheCredentialsFile0123456789";
    const requests = await logfireRun({}, async (cwd) => {
      await mkdir(join(cwd, ".logfire"));
      await writeFile(
        join(cwd, ".logfire", "logfire_credentials.json"),
        JSON.stringify({
          token,
          project_name: "coord-test",
          project_url: "https://logfire-us.pydantic.dev/me/coord-test",
          logfire_api_url: "https://logfire-us.pydantic.dev",
        }),
      );
    });
    for (const request of requests) expect(request.headers.authorization).toBe(token);
  });
});

describe("coord serve --tracing", () => {
  test("each request a server span under the caller's traceparent, its run below; headers name the trace", async () => {
    receiver = await startOtlpReceiver();
    const sandbox = await makeSandbox();
    serve = await startServe(
      ["--tracing", "--config", "@examples/scripted_team", "--host", "127.0.0.1", "--port", "0"],
      { ...sandbox, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } },
    );
    expect(serve.stderr()).toContain(`tracing:   ${receiver.url}/v1/traces`);
    const parent = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7" };
    const post = (headers: Record<string, string>) =>
      fetch(`${serve!.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ model: "coord", messages: [{ role: "user", content: "2+2?" }] }),
      });
    const joined = await post({ traceparent: `00-${parent.traceId}-${parent.spanId}-01` });
    expect(joined.status).toBe(200);
    expect(joined.headers.get("x-coord-trace-id")).toBe(parent.traceId);
    const serverSpanId = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(
      joined.headers.get("traceresponse") ?? "",
    );
    expect(serverSpanId?.[1]).toBe(parent.traceId);
    const fresh = await post({});
    const freshTrace = fresh.headers.get("x-coord-trace-id");
    expect(freshTrace).toMatch(/^[0-9a-f]{32}$/);
    expect(freshTrace).not.toBe(parent.traceId);

    // Spans go out in the background (every few seconds) and at the latest on shutdown.
    serve.child.kill("SIGTERM");
    expect(await serve.exited).toBe(0);
    const spans = receiver.spans();
    const request = spans.find((span) => span.spanId === serverSpanId![2]);
    expect(request).toMatchObject({
      name: "POST /v1/chat/completions",
      kind: 2,
      traceId: parent.traceId,
      parentSpanId: parent.spanId,
      attributes: { "http.response.status_code": 200 },
    });
    const run = spans.find(
      (span) => span.name === "invoke_workflow coord" && span.traceId === parent.traceId,
    );
    expect(run?.parentSpanId).toBe(request!.spanId);
    const freshRequest = spans.find(
      (span) => span.traceId === freshTrace && span.name === "POST /v1/chat/completions",
    );
    expect(freshRequest?.parentSpanId).toBe("");

    // Each request's run log carries its trace id.
    const logs = await readdir(join(sandbox.cwd, "agent_outputs"));
    const ids = await Promise.all(
      logs.map(async (log) => {
        const text = await readFile(
          join(sandbox.cwd, "agent_outputs", log, "turn_1", "attempt_1", "execution_metadata.yaml"),
          "utf8",
        );
        return /^trace_id: (\w+)$/m.exec(text)?.[1];
      }),
    );
    expect(ids.sort()).toEqual([parent.traceId, freshTrace].sort());
  });
});
