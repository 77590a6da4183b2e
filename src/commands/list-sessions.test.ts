import { describe, expect, test } from "vitest";
import type { SessionRecord } from "../sessions/index.js";
import { formatSessionTable, MAX_SESSIONS_SHOWN } from "./list-sessions.js";

function session(index: number, models: string[]): SessionRecord {
  return {
    id: `session_${String(index).padStart(3, "0")}`,
    started_at: new Date(Date.UTC(2026, 10, 1, 12, index)).toISOString(),
    ended_at: null,
    status: "completed",
    kind: "single",
    models,
    config_path: null,
    log_dir: null,
    turns: 1,
    cwd: "/tmp",
  };
}

describe("--list-sessions table", () => {
  test("a model used by several agents is named once with its count", () => {
    const table = formatSessionTable([
      session(1, [
        "openai/gpt-4o-mini",
        "openai/gpt-4o-mini",
        "claude/claude-haiku-4-5",
        "openai/gpt-4o-mini",
      ]),
    ]);
    expect(table.split("\n")[1]).toMatch(/openai\/gpt-4o-mini ×3, claude\/claude-haiku-4-5$/);
  });

  test("the newest sessions are shown, the older ones counted", () => {
    const sessions = Array.from({ length: 57 }, (_, index) => session(57 - index, ["scripted/s"]));
    const lines = formatSessionTable(sessions).split("\n");
    expect(lines).toHaveLength(1 + MAX_SESSIONS_SHOWN + 1);
    expect(lines[1]).toMatch(/^session_057 /);
    expect(lines.at(-1)).toBe(
      `… and ${57 - MAX_SESSIONS_SHOWN} older sessions (coord --list-sessions --json lists every one)`,
    );
  });
});
