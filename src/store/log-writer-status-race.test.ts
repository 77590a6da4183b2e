/**
 * A bug of the log writer's status.json throttle (src/store/log-writer.ts `writeStatus`), fixed,
 * found by src/server/run-logs.test.ts (concurrent served runs, now and then a status.json left in
 * mid-run while every event, metrics.json and final_answer.md are written): when a throttled
 * rewrite finds status.json already current (a write in flight wrote the latest state, events
 * that set the throttle's timer included), `writeStatus`'s async body finishes without awaiting,
 * so its `finally` clears `inFlight` before `inFlight` is assigned the finished promise; every
 * later `writeStatus`, close()'s final one too, then returns that promise and writes nothing.
 * The fix, in log-writer.ts: `await Promise.resolve()` first in that body (this scenario ends
 * with status.json at event 4; without it, at event 3). src/server/run-logs.test.ts checks the
 * final phase of concurrent served runs' status.json again.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { eventsOf } from "../../test/support/events.js";
import { createVirtualClock } from "../clock.js";
import type { CoordEvent } from "../events/index.js";
import { initialRunState, reduceRun, type RunState, type StatusJson } from "../session/reducer.js";
import { createLogWriter } from "./log-writer.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "coord-status-race-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const round = (agentId: string) => ({
  type: "round-start" as const,
  agentId,
  round: 1,
  attempt: 1,
  kind: "coordinate" as const,
  answersSeen: [],
});

const run = eventsOf(
  [
    {
      type: "run-start",
      question: "What is 2+2?",
      mode: "voting",
      historyTurns: 0,
      agents: [
        { id: "a", anonId: "agent1", backend: "openai", model: "gpt-x" },
        { id: "b", anonId: "agent2", backend: "openai", model: "gpt-y" },
        { id: "c", anonId: "agent3", backend: "openai", model: "gpt-z" },
      ],
    },
    round("a"),
    round("b"),
    round("c"),
  ],
  { start: Date.UTC(2025, 2, 1, 9, 5, 7), stepMs: 10, runId: "run-9" },
);

const states = new Map<CoordEvent, RunState>();
run.reduce((state, event) => {
  const next = reduceRun(state, event);
  states.set(event, next);
  return next;
}, initialRunState());

it("a throttled rewrite that finds status.json current does not stop later rewrites", async () => {
  // Time moves only when the test opens the gate: the throttle's timer fires when it says.
  let open = false;
  const clock = createVirtualClock(undefined, { settled: () => open });
  const writer = await createLogWriter({
    root,
    turn: 1,
    attempt: 1,
    now: new Date(2025, 2, 1, 9, 5, 7),
    coordVersion: "0.1.0",
    question: "What is 2+2?",
    config: { agents: [] },
    cliArgs: [],
    debug: false,
    statusIntervalMs: 1_000,
    clock,
  });
  const seqOf = () =>
    (JSON.parse(readFileSync(join(writer.dir, "status.json"), "utf8")) as StatusJson).last_seq;
  const write = (event: CoordEvent) => writer.write(event, states.get(event)!);
  write(run[0]!); // the first rewrite: in flight
  write(run[1]!); // a phase change: the write in flight goes round again
  write(run[2]!); // same phase, within the interval: the throttle's timer is set
  // The write in flight's second round wrote the latest state (event 3 included).
  await vi.waitFor(() => expect(seqOf()).toBe(3));
  await new Promise((resolve) => setImmediate(resolve));
  open = true;
  clock.wake(); // the timer fires: nothing new to write
  await vi.waitFor(() => expect(clock.pending).toBe(0));
  write(run[3]!); // a new state: rewritten after the interval, or by close() at the latest
  await writer.close();
  expect(seqOf()).toBe(4);
});
