import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { EVENT_SCHEMA_VERSION } from "./events.js";
import { EventLogError, parseEventLog, serializeEvent } from "./jsonl.js";

const fixture = (version: number) =>
  readFileSync(
    new URL(`../../test/fixtures/logs/v${version}/events.jsonl`, import.meta.url),
    "utf8",
  );

describe("events.jsonl", () => {
  test("every released schema version's fixture still reads (STYLE.md rule 11)", () => {
    for (let version = 1; version <= EVENT_SCHEMA_VERSION; version++) {
      const { events, truncated } = parseEventLog(fixture(version));
      expect(truncated).toBe(false);
      expect(events[0]?.type).toBe("run-start");
      expect(events.at(-1)?.type).toBe("run-end");
    }
  });

  test("serialize then parse gives the same events, one line each", () => {
    const { events } = parseEventLog(fixture(1));
    const text = events.map(serializeEvent).join("");
    expect(text.split("\n")).toHaveLength(events.length + 1);
    expect(parseEventLog(text).events).toEqual(events);
  });

  test("an unknown schema version is rejected with a message naming it", () => {
    const line = JSON.stringify({ ...JSON.parse(fixture(1).split("\n")[0]!), v: 99 });
    expect(() => parseEventLog(`${line}\n`, "old/events.jsonl")).toThrow(EventLogError);
    expect(() => parseEventLog(`${line}\n`, "old/events.jsonl")).toThrow(
      "old/events.jsonl:1: event schema version 99 is not supported (this coord reads version 1); upgrade coord to read this log",
    );
  });

  test("a last line cut off by a crash is reported as truncated; earlier events stand", () => {
    const text = fixture(1);
    const cut = text.slice(0, text.length - 20);
    const { events, truncated } = parseEventLog(cut);
    expect(truncated).toBe(true);
    expect(events).toHaveLength(text.trim().split("\n").length - 1);
  });

  test("a malformed line in the middle is an error with its line number", () => {
    const lines = fixture(1).split("\n");
    lines[2] = "{not json";
    expect(() => parseEventLog(lines.join("\n"), "run/events.jsonl")).toThrow(
      "run/events.jsonl:3: not valid JSON",
    );
  });
});
