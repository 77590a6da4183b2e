/**
 * What a one-shot run leaves on disk once its process has exited (issue 29, the exit tail: the
 * last response → exit is kept short, and nothing may be lost for it): the session record and
 * its turn, the run log's files, and no lock directory or temp file left behind. The built CLI
 * with a scripted team, in a temp HOME and working directory.
 */
import { mkdir, readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseEventLog } from "../src/events/jsonl.js";
import { makeSandbox, onlyAttemptDir, readLog, runCli } from "./support/cli.js";

const TEAM = `
agents:
  - id: alice
    backend:
      type: scripted
      steps:
        - answer: "4"
        - vote: agent1
        - text: "The answer is 4."
  - id: bob
    backend:
      type: scripted
      steps:
        - answer: "four"
        - vote: agent1
`;

interface SessionsFile {
  version: number;
  sessions: {
    id: string;
    status: string;
    turns: number;
    ended_at: string | null;
    log_dir: string | null;
    pid?: number;
  }[];
}

async function sandbox() {
  const box = await makeSandbox();
  await writeFile(join(box.cwd, "team.yaml"), TEAM);
  return box;
}

/** Every file name under `dir`, recursively, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe("after a one-shot run has exited", () => {
  test("its session, its turn and its log are complete, and no lock or temp file is left", async () => {
    const box = await sandbox();
    let pid: number | undefined;
    const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], {
      ...box,
      onSpawn: (child) => (pid = child.pid),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The answer is 4.\n");

    const coordDir = join(box.home, ".coord");
    const registry = JSON.parse(
      await readFile(join(coordDir, "sessions.json"), "utf8"),
    ) as SessionsFile;
    expect(registry.sessions).toHaveLength(1);
    const [session] = registry.sessions;
    expect(session).toMatchObject({ status: "completed", turns: 1, pid });
    expect(session!.ended_at).not.toBeNull();
    const turn = JSON.parse(
      await readFile(join(coordDir, "sessions", session!.id, "turn_1.json"), "utf8"),
    ) as { answer: string; status: string; log_dir: string };
    expect(turn).toMatchObject({ answer: "The answer is 4.", status: "completed" });

    const attempt = await onlyAttemptDir(box.cwd);
    expect(turn.log_dir).toBe(attempt);
    expect(session!.log_dir).toBe(join(attempt, "..", ".."));
    const { events } = parseEventLog(await readLog(attempt, "events.jsonl"));
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
    expect(await readLog(attempt, "final_answer.md")).toContain("The answer is 4.");
    expect(JSON.parse(await readLog(attempt, "metrics.json"))).toMatchObject({
      end_reason: "completed",
    });
    expect(JSON.parse(await readLog(attempt, "status.json"))).toMatchObject({
      end_reason: "completed",
    });

    const left = [...(await filesUnder(coordDir)), ...(await filesUnder(attempt))];
    expect(left.filter((name) => name.endsWith(".lock") || name.endsWith(".tmp"))).toEqual([]);
  });

  test("a lock left by a coord that died is broken, and the run is recorded all the same", async () => {
    const box = await sandbox();
    const lock = join(box.home, ".coord", "sessions.json.lock");
    await mkdir(lock, { recursive: true });
    // Its holder stopped refreshing it a minute ago (10 s make a lock stale).
    const past = new Date(Date.now() - 60_000);
    await utimes(lock, past, past);

    const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], box);
    expect(result.stderr).not.toContain("is locked by another coord process");
    expect(result.code).toBe(0);
    const registry = JSON.parse(
      await readFile(join(box.home, ".coord", "sessions.json"), "utf8"),
    ) as SessionsFile;
    expect(registry.sessions).toMatchObject([{ status: "completed", turns: 1 }]);
    expect(await readdir(join(box.home, ".coord"))).not.toContain("sessions.json.lock");
  });

  test("runs of several coord processes at once in one HOME are all recorded", async () => {
    const box = await sandbox();
    const runs = await Promise.all(
      Array.from({ length: 4 }, () =>
        runCli(["--config", "team.yaml", "--no-display", "--no-logs", "What is 2+2?"], box),
      ),
    );
    expect(runs.map((run) => run.code)).toEqual([0, 0, 0, 0]);
    const registry = JSON.parse(
      await readFile(join(box.home, ".coord", "sessions.json"), "utf8"),
    ) as SessionsFile;
    // Each process registered, then closed its own session under the lock: none was lost.
    expect(registry.sessions).toHaveLength(4);
    expect(new Set(registry.sessions.map((session) => session.id)).size).toBe(4);
    expect(registry.sessions.map((session) => [session.status, session.turns])).toEqual(
      Array.from({ length: 4 }, () => ["completed", 1]),
    );
  });
});
