import { describe, expect, test } from "vitest";
import { createVirtualClock } from "../clock.js";
import type { CoordEvent } from "../events/index.js";
import { createReplayPace } from "./replay-pace.js";

const T0 = Date.UTC(2026, 10, 21, 9, 55, 44);

/** Minimal recorded events at the given offsets (ms) from T0. */
function recorded(offsets: number[]): CoordEvent[] {
  return offsets.map(
    (offset, index) =>
      ({
        v: 2,
        seq: index + 1,
        time: new Date(T0 + offset).toISOString(),
        runId: "log_test",
        type: "warning",
        message: `event ${index + 1}`,
      }) as unknown as CoordEvent,
  );
}

async function releaseTimes(
  offsets: number[],
  speed: number | undefined,
): Promise<{ at: number[]; logTimes: number[] }> {
  const clock = createVirtualClock(Date.UTC(2030, 0, 1));
  const start = clock.now();
  const pace = createReplayPace(recorded(offsets), { speed, clock });
  const at: number[] = [];
  const logTimes: number[] = [];
  for await (const _event of pace.events()) {
    at.push(clock.now() - start);
    logTimes.push(pace.logTime() - T0);
  }
  return { at, logTimes };
}

describe("replay pace on a virtual clock", () => {
  test("speed 1 releases each event at its recorded offset", async () => {
    const { at, logTimes } = await releaseTimes([0, 250, 250, 1000, 4000], 1);
    expect(at).toEqual([0, 250, 250, 1000, 4000]);
    expect(logTimes).toEqual([0, 250, 250, 1000, 4000]);
  });

  test("speed 2 twice as fast, 0.5 half as fast", async () => {
    expect((await releaseTimes([0, 250, 1000, 4000], 2)).at).toEqual([0, 125, 500, 2000]);
    expect((await releaseTimes([0, 250, 1000], 0.5)).at).toEqual([0, 500, 2000]);
  });

  test("instant: everything at once; the log time is the last event's", async () => {
    const { at, logTimes } = await releaseTimes([0, 250, 1000, 4000], undefined);
    expect(at).toEqual([0, 0, 0, 0]);
    expect(logTimes).toEqual([0, 250, 1000, 4000]);
  });

  test("the log time moves between events at the replay speed", async () => {
    const clock = createVirtualClock();
    const pace = createReplayPace(recorded([0, 10_000]), { speed: 2, clock });
    const iterator = pace.events();
    await iterator.next();
    await clock.sleep(3000);
    expect(pace.logTime() - T0).toBe(6000);
    await iterator.next();
    expect(pace.logTime() - T0).toBe(10_000);
  });

  test("aborting stops the replay", async () => {
    const clock = createVirtualClock();
    const controller = new AbortController();
    const pace = createReplayPace(recorded([0, 5000, 9000]), {
      speed: 1,
      clock,
      signal: controller.signal,
    });
    const seen: number[] = [];
    for await (const event of pace.events()) {
      seen.push(event.seq);
      controller.abort();
    }
    expect(seen).toEqual([1]);
  });

  test("a speed that is not a positive number is refused", () => {
    expect(() => createReplayPace([], { speed: 0, clock: createVirtualClock() })).toThrow(
      RangeError,
    );
  });
});
