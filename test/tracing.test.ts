/**
 * Tracing end to end (docs/tracing.md): the built CLI runs a three-agent team against
 * the fake OpenAI server on 127.0.0.1 and sends its spans over OTLP/HTTP to a local receiver
 * (test/support/otlp-receiver.ts) that decodes the real JSON payloads. The span tree, its times
 * against events.jsonl, its tokens against metrics.json, the trace id in the run log, the end
 * lines and `coord logs summary`, content and secrets, and the switches (`--tracing`,
 * `COORD_TRACING_ENABLED`, nowhere to send).
 */
import { spawnSync } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import type { CoordEvent } from "../src/events/index.js";
import type { MetricsJson } from "../src/session/index.js";
import { CLI, makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "./support/fake-openai-server.js";
import {
  type OtlpReceiver,
  type ReceivedSpan,
  startOtlpReceiver,
} from "./support/otlp-receiver.js";

const API_KEY = "sk-testkey-0123456789abcdef";
const QUESTION_SECRET = "sk-live-abcdefghijklmnop0123";
const USAGE = { inputTokens: 120, outputTokens: 30, reasoningTokens: 5, cachedInputTokens: 40 };

let provider: FakeOpenAIServer | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await provider?.close();
  await receiver?.close();
  provider = receiver = undefined;
});

function teamYaml(url: string, extra = ""): string {
  const agent = (id: string, model: string) =>
    `  - id: ${id}\n    backend: { type: openai, model: ${model}, base_url: "${url}", api_key: ${API_KEY} }`;
  return [
    "agents:",
    agent("mini", "gpt-4.1-mini"),
    agent("four_o", "gpt-4o-mini"),
    agent("nano", "gpt-4.1-nano"),
    extra,
  ].join("\n");
}

async function team(extra = "") {
  // Distinct answers per model: identical ones would be refused (docs/coordination.md "Voting mode"
  // step 2).
  provider = await startFakeOpenAIServer((request) =>
    coordinationHandler({
      answer: `2+2=4, says ${String(request.body.model)}.`,
      finalAnswer: "Final: 4.",
      usage: USAGE,
    })(request),
  );
  receiver = await startOtlpReceiver();
  const sandbox = await makeSandbox();
  await writeFile(join(sandbox.cwd, "team.yaml"), teamYaml(provider.url, extra));
  return sandbox;
}

const ns = (time: string) => BigInt(Date.parse(time)) * 1_000_000n;
const named = (spans: ReceivedSpan[], prefix: string) =>
  spans.filter((span) => span.name.startsWith(prefix));

describe("coord --tracing", () => {
  test("a three-agent run: the span tree, event times, metrics.json tokens, the trace id everywhere", async () => {
    const sandbox = await team();
    const result = await runCli(
      ["--config", "team.yaml", "--no-display", "--tracing", `What is 2+2? (${QUESTION_SECRET})`],
      { ...sandbox, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver!.url } },
    );
    expect(result.stderr).not.toContain("warning");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Final: 4.\n");
    const printed = /\[system\] Trace: ([0-9a-f]{32}) \((.+)\)\n/.exec(result.stderr);
    expect(printed?.[2]).toBe(`${receiver!.url}/v1/traces`);
    const traceId = printed![1]!;

    // Delivered before the process exited: the flush at exit waits for the receiver's answer.
    const spans = receiver!.spans();
    expect(new Set(spans.map((span) => span.traceId))).toEqual(new Set([traceId]));
    const [run, ...otherRoots] = spans.filter((span) => span.parentSpanId === "");
    expect(otherRoots).toEqual([]);
    expect(run).toMatchObject({
      name: "invoke_workflow coord",
      attributes: {
        "gen_ai.operation.name": "invoke_workflow",
        "coord.mode": "voting",
        "coord.agents": ["mini", "four_o", "nano"],
        "coord.end_reason": "completed",
        "coord.winner.agent_id": "mini",
        "coord.final_answer": "Final: 4.",
      },
      resource: { "service.name": "coord" },
    });
    expect(run!.events.map((event) => event.name)).toContain("winner");

    const rounds = named(spans, "invoke_agent ");
    expect(rounds).toHaveLength(7); // 3 answers, 3 votes, 1 presentation
    for (const round of rounds) expect(round.parentSpanId).toBe(run!.spanId);
    const roundIds = new Set(rounds.map((round) => round.spanId));
    const calls = named(spans, "chat ");
    const tools = named(spans, "execute_tool ");
    expect(calls).toHaveLength(7);
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      ...Array<string>(3).fill("execute_tool new_answer"),
      ...Array<string>(3).fill("execute_tool vote"),
    ]);
    for (const span of [...calls, ...tools]) expect(roundIds.has(span.parentSpanId)).toBe(true);
    expect(spans).toHaveLength(1 + 7 + 7 + 6);
    expect(rounds.flatMap((round) => round.events.map((event) => event.name))).toEqual(
      expect.arrayContaining(["answer", "vote"]),
    );

    // Times are the events' own: each model call ends at its usage event and lasts its durationMs.
    const dir = await onlyAttemptDir(sandbox.cwd);
    const events = (await readLog(dir, "events.jsonl"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as CoordEvent);
    const start = events.find((event) => event.type === "run-start")!;
    const end = events.find((event) => event.type === "run-end")!;
    expect(run!.startTimeUnixNano).toBe(ns(start.time));
    expect(run!.endTimeUnixNano).toBe(ns(end.time));
    const usages = events.filter((event) => event.type === "usage");
    expect(usages).toHaveLength(7);
    for (const usage of usages) {
      const call = calls.find(
        (span) =>
          span.endTimeUnixNano === ns(usage.time) &&
          span.attributes["coord.agent.id"] === usage.agentId &&
          span.attributes["coord.round"] === usage.round,
      );
      expect(call, `the model call of ${usage.agentId} round ${usage.round}`).toBeDefined();
      expect(call!.endTimeUnixNano - call!.startTimeUnixNano).toBe(
        BigInt(usage.durationMs) * 1_000_000n,
      );
      expect(call!.attributes).toMatchObject({
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": usage.model,
        "gen_ai.usage.input_tokens": usage.usage.inputTokens,
      });
    }

    // Token counts equal metrics.json, per agent and in total.
    const metrics = JSON.parse(await readLog(dir, "metrics.json")) as MetricsJson;
    const sum = (list: ReceivedSpan[], key: string) =>
      list.reduce((total, span) => total + (span.attributes[key] as number), 0);
    for (const agent of metrics.agents) {
      const own = calls.filter((call) => call.attributes["coord.agent.id"] === agent.id);
      expect(own).toHaveLength(agent.model_calls);
      expect(sum(own, "gen_ai.usage.input_tokens")).toBe(agent.tokens.input);
      expect(sum(own, "gen_ai.usage.output_tokens")).toBe(agent.tokens.output);
      expect(sum(own, "gen_ai.usage.reasoning.output_tokens")).toBe(agent.tokens.reasoning);
      expect(sum(own, "gen_ai.usage.cache_read.input_tokens")).toBe(agent.tokens.cached_input);
    }
    expect(sum(calls, "gen_ai.usage.input_tokens")).toBe(metrics.totals.tokens.input);
    expect(run!.attributes["coord.usage.output_tokens"]).toBe(metrics.totals.tokens.output);
    expect(run!.attributes["coord.cost_usd"]).toBeCloseTo(metrics.totals.cost_usd!, 12);

    // The trace id in the run log and in `coord logs summary`.
    expect(await readLog(dir, "execution_metadata.yaml")).toContain(`trace_id: ${traceId}\n`);
    const summary = await runCli(["logs"], sandbox);
    expect(summary.stdout).toMatch(new RegExp(`^Trace: +${traceId}$`, "m"));
    const json = await runCli(["logs", "summary", "--json"], sandbox);
    expect((JSON.parse(json.stdout) as { trace_id: string }).trace_id).toBe(traceId);

    // Content is on by default; credentials never leave: the API key and the one in the question.
    const bodies = receiver!.requests.map((request) => request.body).join("\n");
    expect(bodies).toContain("2+2=4, says gpt-4o-mini.");
    expect(bodies).toContain("What is 2+2? (<redacted>)");
    expect(bodies).not.toContain(API_KEY);
    expect(bodies).not.toContain(QUESTION_SECRET);
  });

  test("tracing.include_content: false keeps the question, answers and reasons out", async () => {
    const sandbox = await team("tracing:\n  include_content: false");
    const result = await runCli(
      ["--config", "team.yaml", "--no-display", "--tracing", "What is two plus two?"],
      { ...sandbox, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver!.url } },
    );
    expect(result.code).toBe(0);
    const bodies = receiver!.requests.map((request) => request.body).join("\n");
    expect(receiver!.spans()).toHaveLength(21);
    for (const text of ["What is two plus two?", "2+2=4, says", "Final: 4."])
      expect(bodies).not.toContain(text);
    expect(bodies).toContain("gen_ai.usage.input_tokens");
  });

  test("COORD_TRACING_ENABLED=true turns it on without the flag; --automation prints TRACE_ID", async () => {
    receiver = await startOtlpReceiver();
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--config", "@examples/scripted_team", "--automation", "What is 2+2?"],
      {
        ...sandbox,
        env: { COORD_TRACING_ENABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
      },
    );
    expect(result.code).toBe(0);
    const traceId = /^TRACE_ID: ([0-9a-f]{32})$/m.exec(result.stdout)?.[1];
    expect(traceId).toBeDefined();
    expect(named(receiver.spans(), "invoke_workflow")).toMatchObject([{ traceId }]);

    const off = await runCli(["--config", "@examples/scripted_team", "--automation", "q"], {
      ...sandbox,
      env: { COORD_TRACING_ENABLED: "false", OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
    });
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain("TRACE_ID");
    const bad = await runCli(["--config", "@examples/scripted_team", "q"], {
      ...sandbox,
      env: { COORD_TRACING_ENABLED: "sometimes" },
    });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'coord: COORD_TRACING_ENABLED="sometimes": use true or false (or unset it); docs/tracing.md\n',
    );
  });

  test("--tracing with no token and no endpoint: exit 1, one line saying how to log in or what to set", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(["--config", "@examples/scripted_team", "--tracing", "q"], sandbox);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^coord: tracing \(--tracing\) needs somewhere to send traces: /);
    expect(lines[0]).toContain("`logfire auth`");
    expect(lines[0]).toContain("LOGFIRE_TOKEN");
    expect(lines[0]).toContain("OTEL_EXPORTER_OTLP_ENDPOINT");
    // Nothing ran: no run log.
    expect(await readdir(sandbox.cwd)).toEqual([]);
  });
});

describe("loaded lazily", () => {
  /** The OpenTelemetry modules a CLI invocation loads (an ESM resolve hook lists them). */
  async function openTelemetryModules(args: string[], env: Record<string, string> = {}) {
    const sandbox = await makeSandbox();
    const hook = join(sandbox.home, "hook.mjs");
    const resolveHook = `export async function resolve(specifier, context, next) {
      const result = await next(specifier, context);
      if (result.url.includes("@opentelemetry")) console.error("OTEL " + result.url);
      return result;
    }`;
    await writeFile(
      hook,
      `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(resolveHook)}`)});\n`,
    );
    const child = spawnSync(process.execPath, ["--import", hook, CLI, ...args], {
      cwd: sandbox.cwd,
      env: { PATH: process.env.PATH ?? "", HOME: sandbox.home, ...env },
      encoding: "utf8",
    });
    expect(child.status).toBe(0);
    return child.stderr.split("\n").filter((line) => line.startsWith("OTEL "));
  }

  test("coord --help and an untraced run load no OpenTelemetry module; a traced run does", async () => {
    expect(await openTelemetryModules(["--help"])).toEqual([]);
    const question = ["--config", "@examples/scripted_team", "--no-display", "What is 2+2?"];
    expect(await openTelemetryModules(question)).toEqual([]);
    const traced = await openTelemetryModules(["--tracing", ...question], {
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9",
    });
    expect(traced.some((line) => line.includes("@opentelemetry/sdk-trace-base"))).toBe(true);
  });
});
