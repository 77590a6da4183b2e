import { EventEmitter } from "node:events";
import { describe, expect, test } from "vitest";
import {
  STOP_SIGNALS,
  stoppingMessage,
  watchRunInterrupts,
  type StopSignal,
} from "./run-interrupts.js";

function watch() {
  const source = new EventEmitter();
  const said: StopSignal[] = [];
  const quits: StopSignal[] = [];
  const interrupts = watchRunInterrupts({
    source,
    onStopping: (signal) => said.push(signal),
    quit: (signal) => quits.push(signal),
  });
  return { source, said, quits, interrupts };
}

describe("watchRunInterrupts", () => {
  test.each(STOP_SIGNALS)("%s stops the run; a second signal of any kind quits", (signal) => {
    const { source, said, quits, interrupts } = watch();
    expect(interrupts.signal.aborted).toBe(false);
    source.emit(signal);
    expect(interrupts.signal.aborted).toBe(true);
    // The run's run-end.error (engine/stop-reason.ts stopDetailOf) names what stopped it.
    expect(interrupts.signal.reason).toEqual(
      signal === "SIGINT" ? "interrupted by the user (Ctrl+C)" : expect.stringContaining(signal),
    );
    expect(said).toEqual([signal]);
    expect(quits).toEqual([]);
    source.emit("SIGINT");
    expect(quits).toEqual(["SIGINT"]);
  });

  test("a closed output stops the run without a message and is not the first signal", () => {
    const { source, said, quits, interrupts } = watch();
    interrupts.outputClosed();
    interrupts.outputClosed();
    expect(interrupts.signal.aborted).toBe(true);
    // The SIGHUP of the same closed terminal does not quit: it is the first signal.
    source.emit("SIGHUP");
    expect(said).toEqual([]);
    expect(quits).toEqual([]);
    source.emit("SIGTERM");
    expect(quits).toEqual(["SIGTERM"]);
  });

  test("dispose removes every listener", () => {
    const { source, interrupts } = watch();
    for (const signal of STOP_SIGNALS) expect(source.listenerCount(signal)).toBe(1);
    interrupts.dispose();
    for (const signal of STOP_SIGNALS) expect(source.listenerCount(signal)).toBe(0);
    source.emit("SIGTERM");
    expect(interrupts.signal.aborted).toBe(false);
  });

  test("the message names how to quit at once", () => {
    expect(stoppingMessage("SIGINT")).toBe("coord: stopping (Ctrl+C again to quit at once)…");
    expect(stoppingMessage("SIGTERM")).toBe(
      "coord: SIGTERM: stopping (send it again to quit at once)…",
    );
  });
});
