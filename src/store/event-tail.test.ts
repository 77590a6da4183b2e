import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Clock } from "../clock.js";
import { parseEventLog, type CoordEvent } from "../events/index.js";
import { openEventLog } from "./event-tail.js";

const FIXTURE = new URL("../../test/fixtures/logs/v2/events.jsonl", import.meta.url);

async function fixture(): Promise<{ text: string; lines: string[]; events: CoordEvent[] }> {
  const text = await readFile(FIXTURE, "utf8");
  return {
    text,
    lines: text.split("\n").filter((line) => line !== ""),
    events: parseEventLog(text).events,
  };
}

async function tempFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "coord-tail-")), "events.jsonl");
}

describe("openEventLog", () => {
  test("a finished log: every event at once, ended, nothing to follow", async () => {
    const { text, events } = await fixture();
    const path = await tempFile();
    await writeFile(path, text);
    const log = await openEventLog(path);
    expect(log.initial).toEqual(events);
    expect(log.ended).toBe(true);
    const followed: CoordEvent[] = [];
    for await (const event of log.follow()) followed.push(event);
    expect(followed).toEqual([]);
  });

  test("a growing log with a half-written line: the rest arrives as it is appended, until run-end", async () => {
    const { lines, events } = await fixture();
    const path = await tempFile();
    const cut = Math.floor(lines[3]!.length / 2);
    await writeFile(path, `${lines.slice(0, 3).join("\n")}\n${lines[3]!.slice(0, cut)}`);
    const log = await openEventLog(path, { pollMs: 5 });
    expect(log.initial).toEqual(events.slice(0, 3));
    expect(log.ended).toBe(false);

    const followed: CoordEvent[] = [];
    const iterator = log.follow();
    const next = async () => {
      const result = await iterator.next();
      if (!result.done) followed.push(result.value);
      return result;
    };
    // The rest of line 4 in two writes, then everything else a line at a time.
    const fourth = next();
    await appendFile(path, lines[3]!.slice(cut, cut + 5));
    await appendFile(path, `${lines[3]!.slice(cut + 5)}\n`);
    expect((await fourth).value).toEqual(events[3]);
    for (let index = 4; index < lines.length; index++) {
      await appendFile(path, `${lines[index]}\n`);
      const result = await next();
      expect(result.value).toEqual(events[index]);
    }
    expect(followed.at(-1)?.type).toBe("run-end");
    expect((await iterator.next()).done).toBe(true);
    expect([...log.initial, ...followed]).toEqual(events);
  });

  test("a file not written yet is waited for", async () => {
    const { lines, events } = await fixture();
    const path = await tempFile();
    const log = await openEventLog(path, { pollMs: 5 });
    expect(log.initial).toEqual([]);
    const iterator = log.follow();
    const first = iterator.next();
    await writeFile(path, `${lines[0]}\n`);
    expect((await first).value).toEqual(events[0]);
  });

  test("aborting ends the follow without an error", async () => {
    const { lines } = await fixture();
    const path = await tempFile();
    await writeFile(path, `${lines[0]}\n`);
    const controller = new AbortController();
    const log = await openEventLog(path, { pollMs: 5, signal: controller.signal });
    const iterator = log.follow();
    const pending = iterator.next();
    controller.abort();
    expect((await pending).done).toBe(true);
  });

  test("a writer that is gone (killed, no run-end): what it wrote last, then the follow ends", async () => {
    const { lines, events } = await fixture();
    const path = await tempFile();
    await writeFile(path, `${lines[0]}\n`);
    // Time moves only by the follower's own polls, so the checks' times are exact.
    let now = 0;
    const clock: Clock = {
      now: () => now,
      sleep: (ms) =>
        new Promise((resolve) => {
          now += ms;
          setImmediate(resolve);
        }),
    };
    const checks: number[] = [];
    const log = await openEventLog(path, {
      clock,
      pollMs: 100,
      writerCheckMs: 1000,
      async writerGone() {
        checks.push(clock.now());
        if (checks.length < 3) return false;
        // The writer's last line lands just before it is found gone: it is still read.
        await appendFile(path, `${lines[2]}\n`);
        return true;
      },
    });
    const iterator = log.follow();
    await appendFile(path, `${lines[1]}\n`);
    expect((await iterator.next()).value).toEqual(events[1]);
    expect((await iterator.next()).value).toEqual(events[2]);
    expect(log.writerGone).toBe(false);
    expect((await iterator.next()).done).toBe(true);
    expect(log.writerGone).toBe(true);
    // Polled every 100 ms, but asked whether the writer is gone only once a second.
    expect(checks).toEqual([1000, 2000, 3000]);
  });

  test("a failing writer check counts as the writer still there", async () => {
    const { lines } = await fixture();
    const path = await tempFile();
    await writeFile(path, `${lines[0]}\n`);
    const controller = new AbortController();
    let checks = 0;
    const log = await openEventLog(path, {
      pollMs: 1,
      writerCheckMs: 0,
      signal: controller.signal,
      writerGone: () => {
        checks++;
        if (checks === 3) controller.abort();
        return Promise.reject(new Error("sessions.json unreadable"));
      },
    });
    const followed: CoordEvent[] = [];
    for await (const event of log.follow()) followed.push(event);
    expect(followed).toEqual([]);
    expect(checks).toBeGreaterThanOrEqual(3);
    expect(log.writerGone).toBe(false);
  });

  test("a complete line that is not an event names the file and line", async () => {
    const { lines } = await fixture();
    const path = await tempFile();
    await writeFile(path, `${lines[0]}\n{"v":2,"nonsense":true}\n`);
    await expect(openEventLog(path)).rejects.toThrow(`${path}:2: invalid event`);
  });
});
