/**
 * One live run, many subscribers (docs/architecture.md "One stream"): the log writer, the
 * plain trace and a collector attached to one run see the same ordered events; the events are
 * reduced once each, however many subscribers there are; a subscriber that attaches late catches
 * up from the start; one that throws is detached without taking the run down.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createVirtualClock } from "../src/clock.js";
import { parseConfigText } from "../src/config/index.js";
import { runCoordination } from "../src/engine/index.js";
import { allAgree } from "../src/engine/scenarios.js";
import { DEFAULT_SETTINGS, scriptedTeam } from "../src/engine/test-helpers.js";
import { parseEventLog, type CoordEvent } from "../src/events/index.js";
import { startRun } from "../src/runner/run-team.js";
import { createLiveRun } from "../src/session/live-run.js";
import { reduceRun, replay, type RunState } from "../src/session/reducer.js";
import { createLogWriter } from "../src/store/log-writer.js";
import { traceText, traceSubscriber } from "../src/ui/plain/trace-lines.js";

describe("one live run, many subscribers", () => {
  test("log writer, plain trace and a collector see identical sequences; one reducer pass per event; a late subscriber catches up", async () => {
    const clock = createVirtualClock();
    let reductions = 0;
    const live = createLiveRun({
      reduce: (state, event) => {
        reductions++;
        return reduceRun(state, event);
      },
    });
    const root = await mkdtemp(join(tmpdir(), "coord-live-run-"));
    const writer = await createLogWriter({
      root,
      turn: 1,
      attempt: 1,
      now: new Date(clock.now()),
      coordVersion: "test",
      question: "What is 2+2?",
      config: {},
      cliArgs: [],
      debug: false,
      clock,
    });
    const collected: Array<{ event: CoordEvent; state: RunState }> = [];
    const traced: CoordEvent[] = [];
    const lines: string[] = [];
    const toLines = traceSubscriber((line) => lines.push(line));
    live.subscribe((event, state) => writer.write(event, state));
    live.subscribe((event) => {
      traced.push(event);
      toLines(event);
    });
    live.subscribe((event, state) => collected.push({ event, state }));

    const { agents } = scriptedTeam(allAgree, clock);
    let late: CoordEvent[] | undefined;
    let lateState: RunState | undefined;
    let stateWhenLate: RunState | undefined;
    for await (const event of runCoordination({
      runId: "run_live",
      question: "What is 2+2?",
      agents,
      mode: "voting",
      settings: DEFAULT_SETTINGS,
      orchestratorTimeoutMs: 1_800_000,
      clock,
    })) {
      live.publish(event);
      // Halfway through, a fourth subscriber attaches and must catch up from the start.
      if (late === undefined && event.type === "winner") {
        late = [];
        const received = late;
        stateWhenLate = live.state;
        live.subscribe((lateEvent, state) => {
          received.push(lateEvent);
          lateState = state;
        });
      }
    }
    live.end();
    await writer.close();
    const finalState = await live.done;

    const events = collected.map((entry) => entry.event);
    expect(events.length).toBeGreaterThan(40);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    const logged = parseEventLog(await readFile(join(writer.dir, "events.jsonl"), "utf8")).events;
    expect(logged).toEqual(events);
    expect(traced).toEqual(events);
    expect(late).toEqual(events);
    // One reducer pass per event for the live subscribers, plus the late one's catch-up alone.
    const caughtUp = stateWhenLate!.eventCount;
    expect(reductions).toBe(events.length + caughtUp);
    // Every subscriber was handed the same state objects, and they are the reducer's.
    expect(collected.at(-1)!.state).toBe(finalState);
    expect(lateState).toBe(finalState);
    expect(finalState).toEqual(replay(events));
    expect(lines.join("\n")).toBe(traceText(events));
    expect(JSON.parse(await readFile(join(writer.dir, "status.json"), "utf8"))).toMatchObject({
      phase: "done",
      last_seq: events.length,
    });
  });

  test("a subscriber that throws is detached; the run and the other subscribers go on", async () => {
    const errors: unknown[] = [];
    const { config } = parseConfigText(
      [
        "agents:",
        "  - id: a",
        "    backend: { type: scripted, steps: [{ answer: '4' }, { vote: agent1 }, { text: '4.' }] }",
        "  - id: b",
        "    backend: { type: scripted, steps: [{ answer: 'four' }, { vote: agent1 }] }",
      ].join("\n"),
      { env: {} },
    );
    let calls = 0;
    const seen: CoordEvent[] = [];
    const handle = await startRun({
      config,
      mode: "voting",
      agentIndexes: [0, 1],
      question: "What is 2+2?",
      env: {},
      cwd: tmpdir(),
      clock: createVirtualClock(),
      onSubscriberError: (error) => errors.push(error),
      subscribers: [
        () => {
          calls++;
          if (calls === 3) throw new Error("display broke");
        },
        (event) => seen.push(event),
      ],
    });
    const { state } = await handle.done;
    expect(state.endReason).toBe("completed");
    expect(calls).toBe(3);
    expect(errors).toEqual([new Error("display broke")]);
    expect(seen).toEqual(handle.live.events);
    expect(handle.live.ended).toBe(true);
  });

  test("stop(reason) ends the run with that reason", async () => {
    const { config } = parseConfigText(
      "agents:\n  - id: a\n    backend: { type: scripted, steps: [{ answer: '4', delay_ms: 60000 }] }\n",
      { env: {} },
    );
    const handle = await startRun({
      config,
      mode: "single",
      agentIndexes: [0],
      question: "q",
      env: {},
      cwd: tmpdir(),
      clock: createVirtualClock(),
    });
    handle.subscribe((event) => {
      if (event.type === "round-start") handle.stop("shutdown");
    });
    const { state } = await handle.done;
    expect(state.endReason).toBe("shutdown");
    expect(handle.live.events.at(-1)).toMatchObject({ type: "run-end", reason: "shutdown" });
  });
});
