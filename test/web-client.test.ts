/**
 * The page's pure modules, in Node: the run store (one reducer; repeats dropped, gaps reported)
 * the Markdown renderer's sanitizing (model output is untrusted), and the share page's reading
 * of a gist's coord_manifest.json (anyone's JSON).
 */
import { describe, expect, test } from "vitest";
import type { CoordEvent } from "../src/events/events.js";
import { parseEventLog } from "../src/events/jsonl.js";
import { replay } from "../src/session/reducer.js";
import { renderMarkdown } from "../src/ui/web/markdown.js";
import { createRunStore } from "../src/ui/web/run-store.js";
import {
  MANIFEST_FILE,
  parseShareManifest,
  ShareFormatError,
} from "../src/session/share-manifest.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./support/cli.js";

const EVENTS: CoordEvent[] = parseEventLog(
  readFileSync(join(REPO_ROOT, "test", "fixtures", "logs", "v2", "events.jsonl"), "utf8"),
).events;

describe("run store", () => {
  test("reduces events in seq order to the same state as a replay of the log", () => {
    const store = createRunStore();
    let notified = 0;
    store.subscribe(() => notified++);
    for (const event of EVENTS) expect(store.add("s/1", event)).toBe("added");
    expect(store.get("s/1")!.state).toEqual(replay(EVENTS));
    expect(store.lastSeq("s/1")).toBe(EVENTS.length);
    expect(notified).toBe(EVENTS.length);
  });

  test("a repeated event is dropped and a gap is reported, leaving the state unchanged", () => {
    const store = createRunStore();
    for (const event of EVENTS.slice(0, 5)) store.add("s/1", event);
    const before = store.get("s/1");
    expect(store.add("s/1", EVENTS[3]!)).toBe("repeat");
    expect(store.add("s/1", EVENTS[7]!)).toBe("gap");
    expect(store.get("s/1")).toBe(before);
    expect(store.add("s/1", EVENTS[5]!)).toBe("added");
    expect(store.lastSeq("s/2")).toBe(0);
  });
});

describe("renderMarkdown", () => {
  test("renders Markdown", () => {
    expect(renderMarkdown("# Title\n\n**bold** and `code`")).toBe(
      "<h1>Title</h1>\n<p><strong>bold</strong> and <code>code</code></p>\n",
    );
  });

  test("raw HTML is shown as text", () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)"> hi');
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  test("links keep http(s), mailto and anchors only, and open in a new tab", () => {
    expect(renderMarkdown("[site](https://example.com)")).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a>',
    );
    for (const bad of [
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,x",
      "vbscript:x",
    ]) {
      const html = renderMarkdown(`[click](${bad})`);
      expect(html).not.toContain("href");
      expect(html).toContain("click");
    }
    expect(renderMarkdown('[x](https://a.b "t\\"itle")')).toContain('title="t&quot;itle"');
  });

  test("images are links, never loaded", () => {
    const html = renderMarkdown("![chart](https://tracker.example/pixel.png)");
    expect(html).not.toContain("<img");
    expect(html).toContain('<a href="https://tracker.example/pixel.png"');
    expect(renderMarkdown("![x](javascript:alert(1))")).not.toContain("href");
  });
});

describe("share manifest", () => {
  const gist = JSON.parse(
    readFileSync(join(REPO_ROOT, "test", "fixtures", "share", "gist.json"), "utf8"),
  ) as { files: Record<string, { content: string }> };
  const text = gist.files[MANIFEST_FILE]!.content;

  test("reads what coord export wrote: turns, attempts, run files, workspace files, skipped", () => {
    const manifest = parseShareManifest(text);
    expect(manifest.log_name).toBe("log_20261121_095547_multi_turn");
    expect(
      manifest.turns.map((turn) => [
        turn.turn,
        turn.attempts.map((attempt) => [attempt.attempt, attempt.status, attempt.winner]),
      ]),
    ).toEqual([
      [1, [[1, "completed", "ana"]]],
      [
        2,
        [
          [1, "timeout", null],
          [2, "completed", "ben"],
        ],
      ],
    ]);
    expect(manifest.turns[1]!.attempts[0]!.files).toEqual({
      events: "turn_2__attempt_1__events.jsonl",
      status: "turn_2__attempt_1__status.json",
      metrics: "turn_2__attempt_1__metrics.json",
      final_answer: null,
      execution_metadata: "turn_2__attempt_1__execution_metadata.yaml",
    });
    expect(
      manifest.files.filter((file) => file.kind === "workspace").map((file) => file.path),
    ).toEqual([
      "turn_1/attempt_1/ana/snapshots/agent1.1/schema.md",
      "turn_1/attempt_1/ana/snapshots/agent1.final/schema.md",
    ]);
    expect(manifest.skipped).toEqual([
      {
        path: "turn_1/attempt_1/ana/snapshots/agent1.final/diagram.png",
        bytes: 11,
        reason: "binary",
      },
    ]);
  });

  test("refuses what it cannot read, saying what is wrong", () => {
    const data = JSON.parse(text) as Record<string, unknown>;
    const refusal = (value: unknown) => {
      try {
        parseShareManifest(typeof value === "string" ? value : JSON.stringify(value));
      } catch (error) {
        expect(error).toBeInstanceOf(ShareFormatError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal("{")).toBe("coord_manifest.json is not valid JSON");
    expect(refusal({ ...data, format: "other" })).toBe(
      "coord_manifest.json does not describe a coord share",
    );
    expect(refusal({ ...data, version: 2 })).toBe(
      "coord_manifest.json has version 2; this page reads version 1: open the share with a newer coord's page",
    );
    const turns = data.turns as Array<Record<string, unknown>>;
    expect(
      refusal({ ...data, turns: [{ ...turns[0], attempts: [{ attempt: 1, files: {} }] }] }),
    ).toBe("coord_manifest.json: turns[0].attempts[0].status is missing or malformed");
    expect(refusal({ ...data, turns: "all" })).toBe(
      "coord_manifest.json: turns is missing or malformed",
    );
  });
});
