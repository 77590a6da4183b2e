import { describe, expect, test } from "vitest";
import { createProgress, progressBar, progressLine, type ProgressSnapshot } from "./progress.js";

const snapshot = (overrides: Partial<ProgressSnapshot> = {}): ProgressSnapshot => ({
  phase: "team and agents",
  doneRuns: 10,
  totalRuns: 40,
  doneWeight: 20,
  totalWeight: 100,
  elapsedMs: 8_000,
  scores: [
    { label: "team", correct: 3, n: 4 },
    { label: "sim-1", correct: 0, n: 0 },
  ],
  ...overrides,
});

function stream(tty: boolean, columns = 200) {
  const writes: string[] = [];
  return {
    writes,
    stream: { isTTY: tty, columns, write: (text: string) => writes.push(text) > 0 },
  };
}

describe("progressLine", () => {
  test("runs done, elapsed, an ETA from the calls left, running accuracies with items", () => {
    // 20 of 100 expected calls took 8 s: 80 more take 32 s.
    expect(progressLine(snapshot())).toBe(
      "[eval] team and agents: 10/40 runs (25%) · 8.0 s elapsed · ETA 32.0 s · team 3/4 (75%)",
    );
    expect(progressLine(snapshot({ doneWeight: 0, doneRuns: 0 }))).toContain("ETA …");
    expect(progressLine(snapshot({ doneRuns: 40, doneWeight: 100 }))).not.toContain("ETA");
  });

  test("the calls and tokens spent so far, runs in flight included", () => {
    expect(progressLine(snapshot({ spent: { calls: 1234, tokens: 2_500_000 } }))).toContain(
      " · 8.0 s elapsed · 1,234 calls, 2,500,000 tokens · ETA",
    );
  });

  test("on a terminal, a bar of the runs done", () => {
    expect(progressBar(0.25)).toBe(`${"█".repeat(5)}${"░".repeat(15)}`);
    expect(progressBar(0)).toBe("░".repeat(20));
    expect(progressBar(1.5)).toBe("█".repeat(20));
    expect(progressLine(snapshot(), { bar: true })).toContain(
      `team and agents: ${progressBar(0.25)} 10/40 runs`,
    );
  });
});

describe("createProgress", () => {
  test("a terminal redraws one line in place, cut to its width, and ends it with a newline", () => {
    const { writes, stream: out } = stream(true, 60);
    const progress = createProgress(out);
    progress.update(snapshot());
    progress.update(snapshot({ doneRuns: 11 }));
    progress.end(snapshot({ doneRuns: 40, doneWeight: 100 }));
    expect(writes).toHaveLength(3);
    for (const write of writes) {
      expect(write.startsWith("\r\x1b[2K")).toBe(true);
      expect(write.replace("\r\x1b[2K", "").trimEnd().length).toBeLessThanOrEqual(59);
    }
    expect(writes[0]).toContain("█");
    expect(writes.slice(0, 2).every((write) => !write.endsWith("\n"))).toBe(true);
    expect(writes[2]!.endsWith("\n")).toBe(true);
  });

  test("a pipe gets a plain line per 5 % of the phase, no bar, and none repeated at the end", () => {
    const { writes, stream: out } = stream(false);
    const progress = createProgress(out);
    for (let done = 0; done <= 60; done++)
      progress.update(snapshot({ doneRuns: done, totalRuns: 60, elapsedMs: done * 100 }));
    expect(writes).toHaveLength(21); // 0 %, 5 %, …, 100 %
    expect(writes[3]).toContain(" 9/60 runs (15%)");
    expect(writes.every((write) => write.endsWith("\n") && !write.includes("█"))).toBe(true);
    progress.end(snapshot({ doneRuns: 60, totalRuns: 60 }));
    expect(writes).toHaveLength(21); // the 100 % line was the last one
  });

  test("a slow phase gets a line every 30 s, and one where it stopped", () => {
    const { writes, stream: out } = stream(false);
    const progress = createProgress(out);
    progress.update(snapshot({ doneRuns: 0, totalRuns: 1000, elapsedMs: 0 }));
    progress.update(snapshot({ doneRuns: 1, totalRuns: 1000, elapsedMs: 10_000 }));
    progress.update(snapshot({ doneRuns: 2, totalRuns: 1000, elapsedMs: 31_000 }));
    progress.update(snapshot({ doneRuns: 3, totalRuns: 1000, elapsedMs: 32_000 }));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain(" 2/1000 runs");
    progress.end(snapshot({ doneRuns: 3, totalRuns: 1000, elapsedMs: 33_000 }));
    expect(writes).toHaveLength(3);
    expect(writes[2]).toContain(" 3/1000 runs");
  });
});
