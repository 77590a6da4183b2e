import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { LogWriterStatus } from "../sessions/index.js";
import { pickEntries } from "./viewer-pick.js";

const RUNS = new URL("../../test/fixtures/logs/runs/", import.meta.url).pathname;
const CRASHED = "log_20261121_095554_crashed";

async function root(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "coord-pick-"));
  await cp(RUNS, dir, { recursive: true });
  return dir;
}

describe("the --pick list", () => {
  test("newest first: time, status, winner, turns, question", async () => {
    const dir = await root();
    const entries = await pickEntries(dir);
    expect(entries[0]).toEqual({
      path: join(dir, CRASHED),
      label: "2026-11-21 09:55:54 · incomplete · winner solo_a · Write a haiku about rain.",
    });
    expect(entries.map((entry) => entry.label)).toContain(
      "2026-11-21 09:55:47 · completed · winner ben · 2 turns · Which database should our team app use?",
    );
  });

  test.each([
    ["writing", "running"],
    ["gone", "incomplete (process gone)"],
    ["unknown", "incomplete"],
  ] as Array<[LogWriterStatus, string]>)(
    "an incomplete run whose writer is %s reads %j; finished runs are not asked about",
    async (writer, status) => {
      const dir = await root();
      const asked: string[] = [];
      const entries = await pickEntries(dir, 20, (logDir) => {
        asked.push(logDir);
        return Promise.resolve(writer);
      });
      expect(asked).toEqual([join(dir, CRASHED)]);
      expect(entries[0]!.label).toBe(
        `2026-11-21 09:55:54 · ${status} · winner solo_a · Write a haiku about rain.`,
      );
    },
  );
});
