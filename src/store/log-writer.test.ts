import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import { InternalError } from "../errors.js";
import { parseEventLog, type CoordEvent, type EventBody } from "../events/index.js";
import {
  initialRunState,
  reduceRun,
  type MetricsJson,
  type RunState,
  type StatusJson,
} from "../session/reducer.js";
import { findLatestLogDir, listLogDirs, logDirName } from "./log-dir.js";
import { readRunLog } from "./log-reader.js";
import { createVirtualClock } from "../clock.js";
import {
  createLogWriter,
  EVENTS_BATCH_CHARS,
  REDACTED,
  type LogWriterOptions,
} from "./log-writer.js";
import { eventsOf } from "../../test/support/events.js";

/** Resolves after the current turn of the event loop, when batched event lines are written. */
const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

const NOW = new Date(2025, 2, 1, 9, 5, 7); // local time → log_20250301_090507
let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "coord-log-writer-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function options(overrides: Partial<LogWriterOptions> = {}): LogWriterOptions {
  return {
    root,
    turn: 1,
    attempt: 1,
    now: NOW,
    coordVersion: "0.1.0",
    question: "What is 2+2?",
    config: {
      agents: [
        { id: "a", backend: { type: "openai", model: "gpt-x", api_key: "sk-live-1234567890abcd" } },
        { id: "b", backend: { type: "openai", model: "gpt-y", api_key: "${OPENAI_API_KEY}" } },
      ],
      orchestrator: { max_tokens: 4096 },
    },
    cliArgs: ["--config", "x.yaml", "--api-key", "sk-abcdefghijklmnop", "What is 2+2?"],
    debug: false,
    statusIntervalMs: 0,
    ...overrides,
  };
}

function events(bodies: EventBody[]): CoordEvent[] {
  return eventsOf(bodies, { start: Date.UTC(2025, 2, 1, 9, 5, 7), stepMs: 10, runId: "run-9" });
}

const usage = (agentId: string, input: number, output: number): EventBody => ({
  type: "usage",
  agentId,
  round: 1,
  backend: "openai",
  model: "gpt-x",
  usage: { inputTokens: input, outputTokens: output, reasoningTokens: 1, cachedInputTokens: 2 },
  durationMs: 250,
  finishReason: "stop",
});

const run = events([
  {
    type: "run-start",
    question: "What is 2+2?",
    mode: "voting",
    historyTurns: 0,
    agents: [
      { id: "a", anonId: "agent1", backend: "openai", model: "gpt-x" },
      { id: "b", anonId: "agent2", backend: "openai", model: "gpt-y" },
    ],
  },
  {
    type: "round-start",
    agentId: "a",
    round: 1,
    attempt: 1,
    kind: "coordinate",
    answersSeen: [],
  },
  {
    type: "round-start",
    agentId: "b",
    round: 1,
    attempt: 1,
    kind: "coordinate",
    answersSeen: [],
  },
  { type: "tool-call", agentId: "a", round: 1, toolCallId: "c1", toolName: "calc", input: "2+2" },
  {
    type: "tool-result",
    agentId: "a",
    round: 1,
    toolCallId: "c1",
    toolName: "calc",
    output: "4",
    isError: false,
    durationMs: 15,
  },
  usage("a", 100, 10),
  { type: "answer", agentId: "a", round: 1, label: "agent1.1", anonId: "agent1", content: "4" },
  { type: "round-end", agentId: "a", round: 1, outcome: "answer", durationMs: 300 },
  usage("b", 120, 12),
  {
    type: "vote",
    agentId: "b",
    round: 1,
    targetAgentId: "a",
    targetAnonId: "agent1",
    label: "agent1.1",
    reason: "correct",
  },
  { type: "round-end", agentId: "b", round: 1, outcome: "vote", durationMs: 280 },
  usage("a", 130, 3),
  {
    type: "vote",
    agentId: "a",
    round: 2,
    targetAgentId: "a",
    targetAnonId: "agent1",
    label: "agent1.1",
    reason: "correct",
  },
  {
    type: "winner",
    agentId: "a",
    anonId: "agent1",
    label: "agent1.1",
    votes: 2,
    tally: { a: 2 },
    tieBroken: false,
    basis: "votes",
  },
  {
    type: "round-start",
    agentId: "a",
    round: 3,
    attempt: 1,
    kind: "final",
    answersSeen: ["agent1.1"],
  },
  { type: "final-start", agentId: "a", blockId: "b1" },
  { type: "final-delta", agentId: "a", blockId: "b1", text: "2+2 " },
  { type: "final-delta", agentId: "a", blockId: "b1", text: "= 4" },
  { type: "final-end", agentId: "a", blockId: "b1" },
  usage("a", 140, 4),
  {
    type: "final-answer",
    agentId: "a",
    label: "agent1.final",
    content: "2+2 = 4",
    source: "presentation",
  },
  { type: "run-end", reason: "completed", durationMs: 1234 },
]);

/** The state after each event of `run`, as the live run's one reducer pass gives it. */
const stateAfter = new Map<CoordEvent, RunState>();
run.reduce((state, event) => {
  const next = reduceRun(state, event);
  stateAfter.set(event, next);
  return next;
}, initialRunState());

/** Writes an event of `run` with its state, as a subscriber of the live run is given it. */
const write = (writer: { write(event: CoordEvent, state: RunState): void }, event: CoordEvent) =>
  writer.write(event, stateAfter.get(event)!);

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8"));

/** An event with a delta's text left out. */
const withoutDeltaText = (event: CoordEvent): unknown =>
  event.type.endsWith("-delta") ? { ...event, text: undefined } : event;

describe("createLogWriter", () => {
  it("writes every file with the right content", async () => {
    const writer = await createLogWriter(options());
    expect(writer.logDir).toBe(join(root, "log_20250301_090507"));
    expect(writer.dir).toBe(join(writer.logDir, "turn_1", "attempt_1"));
    for (const event of run) write(writer, event);
    await writer.close();

    expect((await readdir(writer.dir)).sort()).toEqual([
      "events.jsonl",
      "execution_metadata.yaml",
      "final_answer.md",
      "metrics.json",
      "status.json",
    ]);
    const parsed = parseEventLog(readFileSync(join(writer.dir, "events.jsonl"), "utf8"));
    // Every event in order; a block's deltas may be re-chunked (stream-redactor.ts), its text not.
    expect(parsed.truncated).toBe(false);
    expect(parsed.events.map(withoutDeltaText)).toEqual(run.map(withoutDeltaText));
    const finalText = (events: CoordEvent[]) =>
      events.flatMap((event) => (event.type === "final-delta" ? [event.text] : [])).join("");
    expect(finalText(parsed.events)).toBe(finalText(run));

    const status = readJson(join(writer.dir, "status.json")) as StatusJson;
    expect(status).toMatchObject({
      run_id: "run-9",
      phase: "done",
      end_reason: "completed",
      elapsed_ms: 1234,
      answer_count: 1,
      vote_tally: { a: 2 },
      winner: { agent_id: "a", label: "agent1.1" },
      has_final_answer: true,
    });
    expect(status.agents.map((agent) => agent.status)).toEqual(["done", "voted"]);

    const metrics = readJson(join(writer.dir, "metrics.json")) as MetricsJson;
    const usages = run.filter((event) => event.type === "usage");
    const sum = (pick: (event: (typeof usages)[number]) => number) =>
      usages.reduce((total, event) => total + pick(event), 0);
    expect(metrics.totals.tokens).toEqual({
      input: sum((event) => event.usage.inputTokens),
      output: sum((event) => event.usage.outputTokens),
      reasoning: sum((event) => event.usage.reasoningTokens),
      cached_input: sum((event) => event.usage.cachedInputTokens),
      total: sum((event) => event.usage.inputTokens + event.usage.outputTokens),
    });
    expect(metrics.totals.model_calls).toBe(usages.length);
    expect(metrics.totals.model_call_ms).toBe(sum((event) => event.durationMs));
    expect(metrics.totals.tools).toEqual({
      calc: { calls: 1, failures: 0, total_ms: 15, mean_ms: 15 },
    });
    expect(metrics.wall_time_ms).toBe(1234);
    expect(metrics.agents[0]!.cost_usd).toBeNull();

    expect(readFileSync(join(writer.dir, "final_answer.md"), "utf8")).toBe("2+2 = 4\n");

    const metadataText = readFileSync(join(writer.dir, "execution_metadata.yaml"), "utf8");
    expect(metadataText).not.toContain("sk-live");
    expect(metadataText).not.toContain("sk-abcdef");
    const metadata = parse(metadataText) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      coord_version: "0.1.0",
      question: "What is 2+2?",
      turn: 1,
      attempt: 1,
      cli_args: ["--config", "x.yaml", "--api-key", REDACTED, "What is 2+2?"],
      config: {
        agents: [
          { id: "a", backend: { type: "openai", model: "gpt-x", api_key: REDACTED } },
          { id: "b", backend: { api_key: "${OPENAI_API_KEY}" } },
        ],
        orchestrator: { max_tokens: 4096 },
      },
    });
  });

  it("keeps status.json valid JSON at every point, throttled or not", async () => {
    for (const statusIntervalMs of [0, 5, 200]) {
      const writer = await createLogWriter(options({ statusIntervalMs, now: new Date() }));
      const statusPath = join(writer.dir, "status.json");
      expect(readJson(statusPath)).toMatchObject({ phase: "starting" });
      for (const event of run) {
        write(writer, event);
        expect(() => readJson(statusPath)).not.toThrow();
        await new Promise((resolve) => setImmediate(resolve));
        expect(() => readJson(statusPath)).not.toThrow();
      }
      await writer.close();
      expect(readJson(statusPath)).toMatchObject({ phase: "done", last_seq: run.length });
    }
  });

  it("rewrites status.json at once on a phase change, and a throttled one after the interval on the clock", async () => {
    // The throttle sleeps on the injected clock: a virtual one moves on at once in real time,
    // and its time says when the throttled rewrite happened.
    const clock = createVirtualClock();
    const writer = await createLogWriter(options({ statusIntervalMs: 1_000, clock }));
    const statusPath = join(writer.dir, "status.json");
    const seqOf = () => (readJson(statusPath) as StatusJson).last_seq;
    const started = clock.now();
    write(writer, run[0]!); // run-start: phase stays "starting": throttled (creation wrote one)
    write(writer, run[1]!); // first round: phase "coordinating": written at once
    await vi.waitFor(() => expect(readJson(statusPath)).toMatchObject({ phase: "coordinating" }));
    expect(clock.now()).toBe(started); // the phase change did not wait for the throttle
    write(writer, run[2]!); // same phase: throttled until 1 s after the last rewrite
    await vi.waitFor(() => expect(seqOf()).toBe(3));
    // Broken throttling (written at once, no sleep) leaves the clock where it was; a throttle
    // that never fires times the wait out.
    expect(clock.now()).toBe(started + 1_000);
    write(writer, run[3]!); // throttled again; close() writes it and cancels the sleep
    expect(clock.pending).toBe(1);
    await writer.close();
    expect(seqOf()).toBe(4);
    expect(clock.pending).toBe(0);
    expect(clock.now()).toBe(started + 1_000);
  });

  it("does not write status.json again when its text would not change", async () => {
    const writer = await createLogWriter(options({ statusIntervalMs: 0 }));
    const statusPath = join(writer.dir, "status.json");
    for (const event of run) write(writer, event);
    await vi.waitFor(() => expect((readJson(statusPath) as StatusJson).last_seq).toBe(run.length));
    // Mark the file: a rewrite would replace it, a skipped one leaves the mark.
    const marked = `${readFileSync(statusPath, "utf8")}\n`;
    writeFileSync(statusPath, marked);
    write(writer, run.at(-1)!); // the same state again: nothing to write
    await writer.close(); // the final state is already on disk
    expect(readFileSync(statusPath, "utf8")).toBe(marked);
    expect((readJson(statusPath) as StatusJson).last_seq).toBe(run.length);
  });

  it("adds _2, _3 … when a log directory for the same second exists", async () => {
    const first = await createLogWriter(options());
    const second = await createLogWriter(options());
    const third = await createLogWriter(options());
    const name = logDirName(NOW);
    expect([first.logDir, second.logDir, third.logDir]).toEqual([
      join(root, name),
      join(root, `${name}_2`),
      join(root, `${name}_3`),
    ]);
    await Promise.all([first.close(), second.close(), third.close()]);
    expect((await listLogDirs(root)).map((entry) => entry.name)).toEqual([
      `${name}_3`,
      `${name}_2`,
      name,
    ]);
    expect(await findLatestLogDir(root)).toBe(third.logDir);
  });

  it("writes a later turn into an existing log directory", async () => {
    const first = await createLogWriter(options());
    await first.close();
    const second = await createLogWriter(options({ logDir: first.logDir, turn: 2 }));
    expect(second.dir).toBe(join(first.logDir, "turn_2", "attempt_1"));
    await second.close();
    await expect(createLogWriter(options({ logDir: first.logDir, turn: 2 }))).rejects.toThrow(
      /attempt_1 already exists/,
    );
  });

  it("leaves a readable events.jsonl when the run crashes before close", async () => {
    const writer = await createLogWriter(options());
    const half = run.slice(0, 9);
    for (const event of half) write(writer, event);
    // Batched: the lines go out together at the end of this turn of the event loop.
    await endOfTurn();
    // no close(): the process "dies" here
    const log = await readRunLog(writer.dir);
    expect(log.events).toEqual(half);
    expect(log.truncated).toBe(false);
    expect(log.metrics).toBeUndefined();
    expect(log.state.answers).toHaveLength(1);
    expect(existsSync(join(writer.dir, "final_answer.md"))).toBe(false);

    // a crash in the middle of a line: the earlier events still stand
    appendFileSync(join(writer.dir, "events.jsonl"), '{"v":1,"seq":10,"time":"2025-');
    const cut = await readRunLog(writer.dir);
    expect(cut.truncated).toBe(true);
    expect(cut.events).toEqual(half);
    await writer.close();
  });

  it("writes the events of one turn of the event loop in one go, whole lines only", async () => {
    const writer = await createLogWriter(options());
    const eventsPath = join(writer.dir, "events.jsonl");
    const lines = () => readFileSync(eventsPath, "utf8");
    for (const event of run.slice(0, 5)) write(writer, event);
    expect(lines()).toBe(""); // nothing yet: the turn is not over
    await endOfTurn();
    expect(parseEventLog(lines()).events).toEqual(run.slice(0, 5));
    // A turn that queues more than EVENTS_BATCH_CHARS is written at once, whole lines only.
    const big = events(
      Array.from({ length: 40 }, (): EventBody => ({
        type: "tool-result",
        agentId: "a",
        round: 1,
        toolCallId: "c1",
        toolName: "calc",
        output: "x".repeat(4_000),
        isError: false,
        durationMs: 1,
      })),
    ).map((event, index) => ({ ...event, seq: 6 + index }));
    const state = stateAfter.get(run[4]!)!;
    for (const event of big) writer.write(event, state);
    const early = lines();
    expect(early.length).toBeGreaterThanOrEqual(EVENTS_BATCH_CHARS);
    expect(early.endsWith("\n")).toBe(true);
    expect(parseEventLog(early).events.length).toBeLessThan(5 + big.length);
    await writer.close();
    expect(parseEventLog(lines()).events).toEqual([...run.slice(0, 5), ...big]);
  });

  it("writes coord_debug.log in the log directory only with debug on", async () => {
    const quiet = await createLogWriter(options());
    quiet.debug("not written");
    await quiet.close();
    expect(existsSync(join(quiet.logDir, "coord_debug.log"))).toBe(false);

    const loud = await createLogWriter(
      options({ debug: true, clock: { now: () => 0, sleep: async () => {} } }),
    );
    loud.debug("hello");
    for (const event of run.slice(0, 3)) write(loud, event);
    await loud.close();
    const lines = readFileSync(join(loud.logDir, "coord_debug.log"), "utf8").trim().split("\n");
    expect(lines).toContain("1970-01-01T00:00:00.000Z hello");
    expect(lines).toContain(
      "1970-01-01T00:00:00.000Z #1 run start: mode voting, 2 agents (a = agent1, openai/gpt-x; b = agent2, openai/gpt-y), 0 earlier turns, question 12 chars: What is 2+2?",
    );
    expect(lines).toContain(
      "1970-01-01T00:00:00.000Z #2 a: round 1 start (coordinate, attempt 1, sees no answers); model request 1 start: openai/gpt-x",
    );
  });

  it("omits final_answer.md without a final answer and refuses writes after close", async () => {
    const writer = await createLogWriter(options());
    write(writer, run[0]!);
    await writer.close();
    await writer.close(); // idempotent
    expect(existsSync(join(writer.dir, "final_answer.md"))).toBe(false);
    expect(existsSync(join(writer.dir, "metrics.json"))).toBe(true);
    expect(() => write(writer, run[1]!)).toThrow(InternalError);
  });

  it("reports IO failures through onError and close() instead of throwing from write()", async () => {
    const onError = vi.fn();
    const writer = await createLogWriter(options({ onError }));
    await rm(writer.dir, { recursive: true, force: true });
    for (const event of run) expect(() => write(writer, event)).not.toThrow();
    await expect(writer.close()).rejects.toThrow(/ENOENT/);
    expect(onError).toHaveBeenCalledTimes(1);
    expect(writer.error).toBeInstanceOf(Error);
  });
});
