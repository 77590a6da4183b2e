import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { replay } from "../session/reducer.js";
import { EVENT_SCHEMA_VERSION } from "./events.js";
import { EventLogError, parseEventLog, READABLE_SCHEMA_VERSIONS, serializeEvent } from "./jsonl.js";

const fixturePath = (version: number, file = "events.jsonl") =>
  new URL(`../../test/fixtures/logs/v${version}/${file}`, import.meta.url);
const fixture = (version: number) => readFileSync(fixturePath(version), "utf8");

describe("events.jsonl", () => {
  test("every released schema version's fixture still reads (CONTRIBUTING.md rule 11)", () => {
    expect(READABLE_SCHEMA_VERSIONS).toEqual([1, 2]);
    for (let version = 1; version <= EVENT_SCHEMA_VERSION; version++) {
      const { events, truncated } = parseEventLog(fixture(version));
      expect(truncated).toBe(false);
      expect(events[0]?.type).toBe("run-start");
      expect(events.at(-1)?.type).toBe("run-end");
      // Whatever version was stored, readers get the current one.
      expect(new Set(events.map((event) => event.v))).toEqual(new Set([EVENT_SCHEMA_VERSION]));
    }
  });

  test("the v1 fixture replays to the same state as under the v1 reader", () => {
    // test/fixtures/logs/v1/state.json is replay(v1 fixture) as coord 0.1 (schema v1) computed it.
    const before = JSON.parse(readFileSync(fixturePath(1, "state.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const after = replay(parseEventLog(fixture(1)).events);
    // v2 only added fields (retry counters, warnings), each empty for a v1 log.
    expect(after).toMatchObject(before);
    expect(after.warnings).toEqual([]);
    expect(after.totals.retries).toBe(0);
    expect(after.eventCount).toBe(before.eventCount);
  });

  test("v1 events are upgraded one to one: renamed rounds, block ids on deltas", () => {
    const raw = fixture(1)
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; seq: number });
    const { events } = parseEventLog(fixture(1));
    expect(events.map((event) => event.seq)).toEqual(raw.map((event) => event.seq));
    expect(events.map((event) => event.type)).toEqual(
      raw.map((event) => (event.type === "agent-round-start" ? "round-start" : event.type)),
    );
    expect(events.find((event) => event.type === "final-delta")).toMatchObject({
      blockId: "v1:final",
    });
    // A v1 text delta (as coord 0.1 wrote them) gets its round's block id.
    const v1Delta = {
      v: 1,
      seq: 7,
      time: "2026-01-01T00:00:00.000Z",
      runId: "r",
      type: "text-delta",
      agentId: "a",
      round: 2,
      text: "hi",
    };
    expect(parseEventLog(`${JSON.stringify(v1Delta)}\n`).events[0]).toEqual({
      ...v1Delta,
      v: 2,
      blockId: "v1:a:2:text",
    });
  });

  test("the v2 fixture has its streamed blocks in start/delta/end order", () => {
    const { events } = parseEventLog(fixture(2));
    const open = new Set<string>();
    for (const event of events) {
      const match = /^(text|reasoning|final)-(start|delta|end)$/.exec(event.type);
      if (!match) continue;
      const id = (event as { blockId: string }).blockId;
      if (match[2] === "start") open.add(id);
      else expect(open.has(id)).toBe(true);
      if (match[2] === "end") open.delete(id);
    }
    expect(open.size).toBe(0);
    expect(events.some((event) => event.type === "retry")).toBe(true);
  });

  test("serialize then parse gives the same events, one line each", () => {
    const { events } = parseEventLog(fixture(2));
    const text = events.map(serializeEvent).join("");
    expect(text.split("\n")).toHaveLength(events.length + 1);
    expect(parseEventLog(text).events).toEqual(events);
  });

  test("an unknown schema version is rejected with a message naming it", () => {
    const line = JSON.stringify({ ...JSON.parse(fixture(2).split("\n")[0]!), v: 99 });
    expect(() => parseEventLog(`${line}\n`, "old/events.jsonl")).toThrow(EventLogError);
    expect(() => parseEventLog(`${line}\n`, "old/events.jsonl")).toThrow(
      "old/events.jsonl:1: event schema version 99 is not supported (this coord reads versions 1 and 2); upgrade coord to read this log",
    );
  });

  test("a last line cut off by a crash is reported as truncated; earlier events stand", () => {
    const text = fixture(2);
    const cut = text.slice(0, text.length - 20);
    const { events, truncated } = parseEventLog(cut);
    expect(truncated).toBe(true);
    expect(events).toHaveLength(text.trim().split("\n").length - 1);
  });

  test("a malformed line in the middle is an error with its line number", () => {
    const lines = fixture(2).split("\n");
    lines[2] = "{not json";
    expect(() => parseEventLog(lines.join("\n"), "run/events.jsonl")).toThrow(
      "run/events.jsonl:3: not valid JSON",
    );
  });
});
