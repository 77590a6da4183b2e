/**
 * The log writer's fewer writes (`log-writer.ts`), proven on a virtual clock whose time moves only
 * when the test lets it:
 * - events.jsonl: a run whose events come one turn of the event loop after another gets one write
 *   per {@link EVENTS_FLUSH_INTERVAL_MS} on the clock, not one per turn; what waits is written
 *   when the interval ends (or at close), whole lines, in order;
 * - status.json: the one written at creation counts as a rewrite, so the run's first events in
 *   the same phase wait for the interval; a phase change is still written at once;
 * - the log root is made once per process (`log-dir.ts`), and again when it was removed since;
 * - execution_metadata.yaml's `config:` is stringified once per config object, never stale: the
 *   file is the one YAML document of the whole map, a changed config or a secret registered since
 *   shows.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { parse, stringify } from "yaml";
import { createVirtualClock } from "../clock.js";
import { registerSecret } from "../redact.js";
import { parseEventLog, type CoordEvent } from "../events/index.js";
import { initialRunState, reduceRun } from "../session/reducer.js";
import { eventsOf } from "../../test/support/events.js";
import type { StatusJson } from "../session/reducer.js";
import { createLogWriter, EVENTS_FLUSH_INTERVAL_MS, type LogWriterOptions } from "./log-writer.js";

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve));

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "coord-log-batching-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A run start and a streamed final answer, one event per turn in the test. */
const run: CoordEvent[] = eventsOf(
  [
    {
      type: "run-start",
      question: "What is 2+2?",
      mode: "voting",
      historyTurns: 0,
      agents: [{ id: "a", anonId: "agent1", backend: "openai", model: "gpt-x" }],
    },
    { type: "final-start", agentId: "a", blockId: "b1" },
    ...Array.from({ length: 12 }, (_, index) => ({
      type: "final-delta" as const,
      agentId: "a",
      blockId: "b1",
      text: `word${index} `,
    })),
  ],
  { start: Date.UTC(2025, 2, 1), stepMs: 1, runId: "run-b" },
);

function options(clock: LogWriterOptions["clock"]): LogWriterOptions {
  return {
    root,
    turn: 1,
    attempt: 1,
    now: new Date(2025, 2, 1),
    coordVersion: "0.0.0",
    question: "What is 2+2?",
    config: {},
    cliArgs: [],
    debug: false,
    ...(clock ? { clock } : {}),
  };
}

describe("events.jsonl batches", () => {
  it("one write per interval on the clock, the rest when it ends, whole lines in order", async () => {
    let timeMoves = false;
    const clock = createVirtualClock(Date.UTC(2025, 2, 1), { settled: () => timeMoves });
    const writer = await createLogWriter({ ...options(clock), statusIntervalMs: 0 });
    const eventsPath = join(writer.dir, "events.jsonl");
    const written = () => parseEventLog(readFileSync(eventsPath, "utf8")).events;
    let state = initialRunState();
    const started = clock.now();
    for (const event of run) {
      state = reduceRun(state, event);
      writer.write(event, state);
      await endOfTurn();
    }
    // The first turn's lines went out at its end; every later turn's wait for the interval.
    // (The stream redactor holds the latest delta back until the block's next delta or end.)
    expect(written().map((event) => event.seq)).toEqual([1]);
    expect(clock.pending).toBe(1); // the wait for the interval's end
    timeMoves = true;
    clock.wake();
    await vi.waitFor(() => expect(written().length).toBeGreaterThan(1));
    expect(clock.now() - started).toBe(EVENTS_FLUSH_INTERVAL_MS);
    await writer.close();
    expect(written().map((event) => event.seq)).toEqual(run.map((event) => event.seq));
    expect(clock.pending).toBe(0);
  });
});

describe("status.json at the run's start", () => {
  it("the first events in the creation's phase wait for the interval; a phase change does not", async () => {
    let timeMoves = false;
    const clock = createVirtualClock(Date.UTC(2025, 2, 1), { settled: () => timeMoves });
    const writer = await createLogWriter({ ...options(clock), statusIntervalMs: 1_000 });
    const status = () =>
      JSON.parse(readFileSync(join(writer.dir, "status.json"), "utf8")) as StatusJson;
    expect(status()).toMatchObject({ phase: "starting", last_seq: 0 });
    let state = initialRunState();
    const write = (event: CoordEvent) => {
      state = reduceRun(state, event);
      writer.write(event, state);
    };
    write(run[0]!); // run-start: the phase stays "starting"
    await endOfTurn();
    await endOfTurn();
    expect(status()).toMatchObject({ phase: "starting", last_seq: 0 });
    write(run[1]!); // final-start: the phase changes, written at once (time does not move)
    await vi.waitFor(() => expect(status().last_seq).toBe(2));
    expect(status().phase).not.toBe("starting");
    timeMoves = true;
    await writer.close();
    expect(clock.pending).toBe(0);
  });
});

describe("the log root", () => {
  it("removed between two runs of one process: the second run makes it again", async () => {
    const first = await createLogWriter(options(undefined));
    await first.close();
    await rm(root, { recursive: true, force: true });
    const second = await createLogWriter(options(undefined));
    await second.close();
    expect(existsSync(join(second.dir, "status.json"))).toBe(true);
    expect(second.logDir.startsWith(root)).toBe(true);
  });
});

describe("execution_metadata.yaml of one config object, run after run", () => {
  it("is the whole map's YAML each time, with the config's changes and new secrets", async () => {
    const config = {
      agents: [
        { id: "a", backend: { type: "openai", model: "gpt-x", api_key: "sk-live-0123456789" } },
      ],
      orchestrator: { note: "first" },
    };
    const metadata = async () => {
      const writer = await createLogWriter({ ...options(undefined), config });
      await writer.close();
      return readFileSync(join(writer.dir, "execution_metadata.yaml"), "utf8");
    };
    const first = await metadata();
    const parsed = parse(first) as Record<string, unknown>;
    // One document, the same text the whole map gives in one go.
    expect(first).toBe(stringify(parsed));
    expect(JSON.stringify(parsed.config)).not.toContain("sk-live-0123456789");
    const second = await metadata(); // the config's YAML from the cache this time
    expect(second).toBe(stringify(parse(second)));
    expect((parse(second) as Record<string, unknown>).config).toEqual(parsed.config);
    config.orchestrator.note = "changed since";
    expect(parse(await metadata())).toMatchObject({
      config: { orchestrator: { note: "changed since" } },
    });
    // A value that becomes a known secret later is redacted in the next run's file.
    config.orchestrator.note = "becomes-secret-value-123";
    expect(await metadata()).toContain("becomes-secret-value-123");
    registerSecret("becomes-secret-value-123");
    expect(await metadata()).not.toContain("becomes-secret-value-123");
  });
});
