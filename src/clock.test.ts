import { describe, expect, test } from "vitest";
import { createVirtualClock } from "./clock.js";

/** Resolves after the pending immediates (when a virtual clock would have moved). */
const idle = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describe("createVirtualClock", () => {
  test("time jumps to the earliest timer when nothing else can run", async () => {
    const clock = createVirtualClock(0);
    const fired: number[] = [];
    await Promise.all([
      clock.sleep(300).then(() => fired.push(clock.now())),
      clock.sleep(100).then(() => fired.push(clock.now())),
    ]);
    expect(fired).toEqual([100, 300]);
    expect(clock.pending).toBe(0);
  });

  test("with settled: time stays while it does not hold, and moves on wake() once it does", async () => {
    let busy = true;
    const clock = createVirtualClock(0, { settled: () => !busy });
    let fired = false;
    const sleeping = clock.sleep(5000).then(() => (fired = true));
    await idle();
    await idle();
    expect(fired).toBe(false);
    expect(clock.now()).toBe(0);
    expect(clock.pending).toBe(1);
    busy = false;
    clock.wake();
    await sleeping;
    expect(clock.now()).toBe(5000);
    expect(clock.pending).toBe(0);
  });

  test("an aborted sleep rejects with the reason and leaves no timer", async () => {
    const clock = createVirtualClock(0, { settled: () => false });
    const controller = new AbortController();
    const sleeping = clock.sleep(1000, controller.signal);
    controller.abort(new Error("stopped"));
    await expect(sleeping).rejects.toThrow("stopped");
    expect(clock.pending).toBe(0);
  });
});
