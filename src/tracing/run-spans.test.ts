/**
 * The span tree of a scripted run (virtual clock), in memory: every round a child of the run,
 * every model call and tool a child of its round, times equal to the events', tokens equal to
 * the reducer's totals; content only with includeContent; secrets redacted; votes, errors and
 * the winner as span events.
 */
import { ROOT_CONTEXT } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { describe, expect, test } from "vitest";
import { createVirtualClock } from "../clock.js";
import { allAgree } from "../engine/scenarios.js";
import { runScripted } from "../engine/test-helpers.js";
import type { CoordEvent } from "../events/index.js";
import { initialRunState, reduceRun, type RunState } from "../session/index.js";
import { createRunSpans } from "./run-spans.js";

function traceRun(events: CoordEvent[], includeContent: boolean) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const errors: unknown[] = [];
  const spans = createRunSpans(
    { tracer: provider.getTracer("test"), parent: ROOT_CONTEXT, includeContent },
    (error) => errors.push(error),
  );
  let state: RunState = initialRunState();
  for (const event of events) {
    state = reduceRun(state, event);
    spans.subscriber(event, state);
  }
  return { finished: exporter.getFinishedSpans(), state, errors, ended: spans.ended };
}

const ms = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;
const byName = (spans: ReadableSpan[], prefix: string) =>
  spans.filter((span) => span.name.startsWith(prefix));

describe("run spans", () => {
  test("three agents agree: run → 7 rounds → 7 model calls and 6 workflow tools, times from the events", async () => {
    const clock = createVirtualClock();
    const { events } = await runScripted(allAgree, { clock });
    const { finished, state, errors, ended } = traceRun(events, true);
    expect(errors).toEqual([]);
    expect(ended).toBe(true);

    const [run] = byName(finished, "invoke_workflow");
    expect(run).toBeDefined();
    expect(run!.parentSpanContext).toBeUndefined();
    const runId = run!.spanContext().spanId;
    const start = events.find((event) => event.type === "run-start")!;
    const end = events.find((event) => event.type === "run-end")!;
    expect(ms(run!.startTime)).toBe(Date.parse(start.time));
    expect(ms(run!.endTime)).toBe(Date.parse(end.time));
    expect(run!.attributes["coord.end_reason"]).toBe("completed");
    expect(run!.attributes["coord.question"]).toBe("What is 2+2?");
    expect(run!.attributes["coord.winner.agent_id"]).toBe("a");
    expect(run!.events.map((event) => event.name)).toContain("winner");

    const rounds = byName(finished, "invoke_agent");
    expect(rounds.map((span) => span.name).sort()).toEqual([
      "invoke_agent a",
      "invoke_agent a",
      "invoke_agent a",
      "invoke_agent b",
      "invoke_agent b",
      "invoke_agent c",
      "invoke_agent c",
    ]);
    for (const round of rounds) expect(round.parentSpanContext?.spanId).toBe(runId);
    const roundIds = new Set(rounds.map((span) => span.spanContext().spanId));

    const calls = byName(finished, "chat ");
    expect(calls).toHaveLength(7);
    for (const call of calls) expect(roundIds.has(call.parentSpanContext!.spanId)).toBe(true);
    const usages = events.filter((event) => event.type === "usage");
    for (const [index, usage] of usages.entries()) {
      const call = calls[index]!;
      expect(ms(call.endTime)).toBe(Date.parse(usage.time));
      expect(ms(call.endTime) - ms(call.startTime)).toBe(usage.durationMs);
      expect(call.attributes["gen_ai.usage.input_tokens"]).toBe(usage.usage.inputTokens);
    }
    const sum = (key: string) =>
      calls.reduce((total, call) => total + (call.attributes[key] as number), 0);
    expect(sum("gen_ai.usage.input_tokens")).toBe(state.totals.usage.inputTokens);
    expect(sum("gen_ai.usage.output_tokens")).toBe(state.totals.usage.outputTokens);
    expect(run!.attributes["coord.usage.input_tokens"]).toBe(state.totals.usage.inputTokens);

    const tools = byName(finished, "execute_tool");
    expect(tools.map((span) => span.name).sort()).toEqual([
      ...Array<string>(3).fill("execute_tool new_answer"),
      ...Array<string>(3).fill("execute_tool vote"),
    ]);
    for (const tool of tools) expect(roundIds.has(tool.parentSpanContext!.spanId)).toBe(true);
    const votes = rounds.flatMap((span) => span.events.filter((event) => event.name === "vote"));
    expect(votes).toHaveLength(3);
    expect(votes.map((vote) => vote.attributes?.["coord.vote.reason"]).sort()).toEqual([
      "clearest",
      "correct",
      "same answer",
    ]);
    const presentation = rounds.find((span) => span.attributes["coord.round.kind"] === "final")!;
    const finalCall = calls.find(
      (call) => call.parentSpanContext!.spanId === presentation.spanContext().spanId,
    )!;
    expect(String(finalCall.attributes["gen_ai.output.messages"])).toContain("The answer is 4.");
  });

  test("without content: no question, answers, reasons, output or tool payloads", async () => {
    const { events } = await runScripted(allAgree);
    const { finished } = traceRun(events, false);
    const text = JSON.stringify(
      finished.map((span) => ({ attributes: span.attributes, events: span.events })),
    );
    for (const secret of ["What is 2+2?", "2+2=4", "clearest", "The answer is 4.", "Four"]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain("gen_ai.usage.input_tokens");
  });

  test("credentials in the question and answers are redacted", async () => {
    const key = "sk-proj-abcdefghijklmnop1234";
    const { events } = await runScripted(
      { a: [{ answer: `use ${key}` }, { text: `Final: ${key}` }] },
      { question: `My key is ${key}`, mode: "single" },
    );
    const { finished } = traceRun(events, true);
    const text = JSON.stringify(
      finished.map((span) => ({ attributes: span.attributes, events: span.events })),
    );
    expect(text).not.toContain(key);
    expect(text).toContain("<redacted>");
  });

  test("a provider error: an exception event, the round and the run in error", async () => {
    const { events } = await runScripted({
      a: [
        { error: { status: 400, message: "bad request", retryable: false } },
        { error: { status: 400, message: "bad request", retryable: false } },
      ],
    });
    const { finished } = traceRun(events, true);
    const [run] = byName(finished, "invoke_workflow");
    expect(run!.status.code).toBe(2);
    const exceptions = finished.flatMap((span) =>
      span.events.filter((event) => event.name === "exception"),
    );
    expect(exceptions.length).toBeGreaterThan(0);
    expect(exceptions[0]!.attributes?.["exception.message"]).toContain("bad request");
    const failedRounds = byName(finished, "invoke_agent").filter(
      (span) => span.attributes["coord.round.outcome"] === "error",
    );
    expect(failedRounds.length).toBeGreaterThan(0);
    for (const round of failedRounds) expect(round.status.code).toBe(2);
  });

  test("abandon ends what is open, in error", async () => {
    const { events } = await runScripted(allAgree);
    const cut = events.findIndex((event) => event.type === "vote");
    const { finished: before } = traceRun(events.slice(0, cut), true);
    expect(byName(before, "invoke_workflow")).toHaveLength(0);

    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    const spans = createRunSpans(
      { tracer: provider.getTracer("test"), parent: ROOT_CONTEXT, includeContent: true },
      () => undefined,
    );
    let state = initialRunState();
    for (const event of events.slice(0, cut)) {
      state = reduceRun(state, event);
      spans.subscriber(event, state);
    }
    spans.abandon(Date.parse(events[cut]!.time), "stopped");
    spans.abandon(0, "again");
    const finished = exporter.getFinishedSpans();
    const [run] = byName(finished, "invoke_workflow");
    expect(run!.status).toEqual({ code: 2, message: "stopped" });
    expect(spans.ended).toBe(true);
  });
});
