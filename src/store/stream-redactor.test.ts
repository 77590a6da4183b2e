/**
 * A secret streamed in pieces is redacted whole: the stream redactor
 * keeps events in order with their seq and count, re-chunks only delta texts within a block, and
 * leaves no piece of a key in any written delta.
 */
import { describe, expect, test } from "vitest";
import type { CoordEvent, EventBody } from "../events/index.js";
import { REDACTED, registerSecret } from "../redact.js";
import { createStreamRedactor, safeCut } from "./stream-redactor.js";
import { eventsOf } from "../../test/support/events.js";

/** A key of no usual shape: only the registry knows it. */
const KEY = "QZ7wLp93kXv2TnB8rJ4mYc6H";
registerSecret(KEY);

function stream(bodies: EventBody[]): CoordEvent[] {
  return eventsOf(bodies, { start: Date.UTC(2025, 2, 1), stepMs: 1, runId: "r" });
}

const text = (blockId: string, piece: string, agentId = "a"): EventBody => ({
  type: "text-delta",
  agentId,
  round: 1,
  blockId,
  text: piece,
});
const start = (blockId: string, agentId = "a"): EventBody => ({
  type: "text-start",
  agentId,
  round: 1,
  blockId,
});
const end = (blockId: string, agentId = "a"): EventBody => ({
  type: "text-end",
  agentId,
  round: 1,
  blockId,
});

/** Runs events through a redactor; returns what it let out, in order. */
function run(events: CoordEvent[], flush = true): CoordEvent[] {
  const redactor = createStreamRedactor();
  const out = events.flatMap((event) => redactor.push(event));
  return flush ? [...out, ...redactor.flush()] : out;
}

function blockText(events: CoordEvent[], blockId: string): string {
  return events
    .filter((event) => event.type === "text-delta" && event.blockId === blockId)
    .map((event) => (event as { text: string }).text)
    .join("");
}

describe("stream redactor", () => {
  test("a known key split across three deltas is redacted whole; order, seq and count stay", () => {
    const thirds = [KEY.slice(0, 8), KEY.slice(8, 16), KEY.slice(16)];
    const events = stream([
      start("b1"),
      text("b1", `The key is ${thirds[0]}`),
      text("b1", thirds[1]!),
      text("b1", `${thirds[2]} and that is all.`),
      end("b1"),
      { type: "warning", source: "x", message: "after" },
    ]);
    const out = run(events, false);
    expect(out.map((event) => [event.seq, event.type])).toEqual(
      events.map((event) => [event.seq, event.type]),
    );
    expect(blockText(out, "b1")).toBe(`The key is ${REDACTED} and that is all.`);
    const written = JSON.stringify(out);
    for (const third of thirds) expect(written).not.toContain(third);
  });

  test("a key-shaped string (sk-…) and a Bearer token split at any point are redacted whole", () => {
    const secrets = ["sk-proj-AbCdEf0123456789xyz", "Bearer tok3nV4lue0123456789"];
    for (const secret of secrets) {
      const sentence = `use ${secret} now`;
      for (let first = 1; first < sentence.length - 1; first++) {
        for (const second of [first + 1, Math.min(sentence.length - 1, first + 5)]) {
          const pieces = [
            sentence.slice(0, first),
            sentence.slice(first, second),
            sentence.slice(second),
          ];
          const out = run(
            stream([start("b"), ...pieces.map((piece) => text("b", piece)), end("b")]),
          );
          const whole = blockText(out, "b");
          expect(whole, JSON.stringify(pieces)).toMatch(/^use .*<redacted> now$/);
          expect(whole).not.toContain(secret.slice(-12));
        }
      }
    }
  });

  test("interleaved blocks of two agents: later events wait behind a held delta, none is lost", () => {
    const events = stream([
      start("a1"),
      start("b1", "b"),
      text("a1", "alpha one "),
      text("b1", "beta one ", "b"),
      text("a1", "alpha two"),
      text("b1", "beta two", "b"),
      end("a1"),
      end("b1", "b"),
    ]);
    const out = run(events, false);
    expect(out.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(blockText(out, "a1")).toBe("alpha one alpha two");
    expect(blockText(out, "b1")).toBe("beta one beta two");
  });

  test("a block that never ends is released by flush(); held events are not written early", () => {
    const redactor = createStreamRedactor();
    const events = stream([start("b"), text("b", "partial sk-abc"), text("b", "defghijklmnop")]);
    expect(events.flatMap((event) => redactor.push(event)).map((event) => event.seq)).toEqual([
      1, 2,
    ]);
    const rest = redactor.flush();
    expect(rest.map((event) => event.seq)).toEqual([3]);
    expect((rest[0] as { text: string }).text).toBe(`partial ${REDACTED}`);
  });

  test("safeCut keeps back the longest known secret's length and whole key-like runs", () => {
    expect(safeCut("")).toBe(0);
    const words = "word ".repeat(20);
    expect(safeCut(words)).toBeLessThanOrEqual(words.length - KEY.length);
    // A run of key-like characters longer than any known secret is held whole: it may go on.
    expect(safeCut(`${words}${"x".repeat(40)}`)).toBe(words.length);
    expect(safeCut(`${words}Bearer `)).toBeLessThanOrEqual(words.length);
  });
});
