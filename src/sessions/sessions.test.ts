import { mkdtemp, readFile, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import {
  createSessionStore,
  historyFromTurns,
  sessionIdFor,
  SessionsFileError,
  type SessionRecord,
  type TurnRecord,
} from "./sessions.js";
import { isProcessAlive } from "./stale-sessions.js";

const NOON = new Date(2025, 0, 2, 12, 30, 5).getTime(); // local time

async function store(now = () => NOON) {
  const home = await mkdtemp(join(tmpdir(), "coord-sessions-"));
  return { home, store: createSessionStore({ home, now }) };
}

const INIT = {
  kind: "single" as const,
  models: ["openai/gpt-4o"],
  config_path: "/p/team.yaml",
  log_dir: null,
  cwd: "/p",
};

function turn(number: number, answer: string | null): TurnRecord {
  return {
    turn: number,
    question: `q${number}`,
    answer,
    winner: answer === null ? null : "alice",
    status: answer === null ? "interrupted" : "completed",
    started_at: "2025-01-02T12:00:00.000Z",
    ended_at: "2025-01-02T12:00:05.000Z",
    log_dir: null,
    answers: [],
    votes: [],
  };
}

describe("sessions registry", () => {
  test("ids are session_<YYYYMMDD>_<HHMMSS> in local time, with _2 for the same second", async () => {
    expect(sessionIdFor(new Date(NOON))).toBe("session_20250102_123005");
    const { store: sessions } = await store();
    const first = await sessions.create(INIT);
    const second = await sessions.create(INIT);
    expect(first.id).toBe("session_20250102_123005");
    expect(second.id).toBe("session_20250102_123005_2");
    expect(first).toMatchObject({
      status: "active",
      ended_at: null,
      turns: 0,
      models: ["openai/gpt-4o"],
    });
  });

  test("sessions.json holds a versioned list; updates merge; list is newest first", async () => {
    let now = NOON;
    const { home, store: sessions } = await store(() => now);
    const older = await sessions.create(INIT);
    now += 60_000;
    const newer = await sessions.create({ ...INIT, kind: "interactive" });
    await sessions.update(older.id, { status: "completed", ended_at: "2025-01-02T12:31:00.000Z" });
    const file = JSON.parse(await readFile(join(home, ".coord", "sessions.json"), "utf8")) as {
      version: number;
      sessions: unknown[];
    };
    expect(file.version).toBe(1);
    expect(file.sessions).toHaveLength(2);
    expect((await sessions.list()).map((session) => session.id)).toEqual([newer.id, older.id]);
    expect(await sessions.get(older.id)).toMatchObject({ status: "completed" });
    expect(await sessions.get("session_nope")).toBeUndefined();
  });

  test("concurrent updates from several stores are not lost", async () => {
    const { home, store: first } = await store();
    const created = await Promise.all(Array.from({ length: 8 }, () => first.create(INIT)));
    const others = Array.from({ length: 4 }, () => createSessionStore({ home, now: () => NOON }));
    await Promise.all(
      created.map((session, index) =>
        others[index % others.length]!.update(session.id, { turns: index + 1 }),
      ),
    );
    const listed = await first.list();
    expect(listed).toHaveLength(8);
    expect(listed.map((session) => session.turns).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);
  });

  test("turns are stored per session and make the history (unanswered turns left out)", async () => {
    const { home, store: sessions } = await store();
    const session = await sessions.create(INIT);
    await sessions.saveTurn(session.id, turn(1, "four"));
    await sessions.saveTurn(session.id, turn(2, null));
    await sessions.saveTurn(session.id, turn(3, "eight"));
    expect((await sessions.get(session.id))!.turns).toBe(3);
    const turns = await sessions.turns(session.id);
    expect(turns.map((record) => record.turn)).toEqual([1, 2, 3]);
    expect(historyFromTurns(turns)).toEqual([
      { role: "user", content: "q1" },
      { role: "assistant", content: "four" },
      { role: "user", content: "q3" },
      { role: "assistant", content: "eight" },
    ]);
    const onDisk = JSON.parse(
      await readFile(join(home, ".coord", "sessions", session.id, "turn_1.json"), "utf8"),
    ) as TurnRecord;
    expect(onDisk).toMatchObject({ question: "q1", answer: "four", winner: "alice" });
    expect(await sessions.turns("session_unknown")).toEqual([]);
    await sessions.remove(session.id);
    expect(await sessions.list()).toEqual([]);
    expect(await sessions.turns(session.id)).toEqual([]);
  });

  test("an unreadable or unknown-version registry is a clear error naming the file", async () => {
    const { home, store: sessions } = await store();
    await mkdir(join(home, ".coord"), { recursive: true });
    await writeFile(join(home, ".coord", "sessions.json"), "{not json");
    await expect(sessions.list()).rejects.toThrow(SessionsFileError);
    await expect(sessions.list()).rejects.toThrow(/sessions\.json is not valid JSON/);
    await writeFile(join(home, ".coord", "sessions.json"), '{"version": 9, "sessions": []}');
    await expect(sessions.list()).rejects.toThrow(/unknown format version 9/);
  });

  test("no registry yet: an empty list", async () => {
    const { store: sessions } = await store();
    expect(await sessions.list()).toEqual([]);
  });
});

describe("sessions whose process is gone", () => {
  const errno = (code: string) => Object.assign(new Error(code), { code });

  test("isProcessAlive: ESRCH is gone; EPERM and success are alive; odd pids are never probed", () => {
    const probed: number[] = [];
    const kill = (result: "ok" | "ESRCH" | "EPERM") => (pid: number) => {
      probed.push(pid);
      if (result !== "ok") throw errno(result);
    };
    expect(isProcessAlive(123, kill("ok"))).toBe(true);
    expect(isProcessAlive(124, kill("ESRCH"))).toBe(false);
    expect(isProcessAlive(125, kill("EPERM"))).toBe(true);
    expect(probed).toEqual([123, 124, 125]);
    for (const pid of [0, -1, 1.5, Number.NaN])
      expect(isProcessAlive(pid, kill("ESRCH"))).toBe(true);
    expect(probed).toHaveLength(3);
    expect(isProcessAlive(process.pid)).toBe(true);
  });

  async function registry(home: string): Promise<SessionRecord[]> {
    const text = await readFile(join(home, ".coord", "sessions.json"), "utf8");
    return (JSON.parse(text) as { sessions: SessionRecord[] }).sessions;
  }

  test("an active session of a dead process lists as interrupted; the next change writes it so", async () => {
    const dead = new Set<number>();
    const home = await mkdtemp(join(tmpdir(), "coord-sessions-"));
    const open = (pid: number) =>
      createSessionStore({ home, now: () => NOON, pid, isAlive: (target) => !dead.has(target) });
    const first = await open(111).create(INIT);
    expect(first).toMatchObject({ status: "active", pid: 111 });
    const reader = open(222);
    expect(await reader.get(first.id)).toMatchObject({ status: "active", pid: 111 });

    dead.add(111);
    expect(await reader.get(first.id)).toMatchObject({ status: "interrupted", ended_at: null });
    expect((await reader.list()).map((session) => session.status)).toEqual(["interrupted"]);
    // Reading does not write: the file still says active until the registry changes.
    expect((await registry(home))[0]).toMatchObject({ status: "active", pid: 111 });

    const second = await reader.create(INIT);
    expect(await registry(home)).toEqual([
      expect.objectContaining({ id: first.id, status: "interrupted", ended_at: null, pid: 111 }),
      expect.objectContaining({ id: second.id, status: "active", pid: 222 }),
    ]);
  });

  test("finished sessions and records without a pid (older coord) are left as they are", async () => {
    const home = await mkdtemp(join(tmpdir(), "coord-sessions-"));
    const old: Omit<SessionRecord, "pid"> = {
      ...INIT,
      id: "session_20240101_000000",
      started_at: "2024-01-01T00:00:00.000Z",
      ended_at: null,
      status: "active",
      turns: 1,
    };
    const done = { ...old, id: "session_20240101_000001", status: "completed", pid: 111 };
    await mkdir(join(home, ".coord"), { recursive: true });
    await writeFile(
      join(home, ".coord", "sessions.json"),
      JSON.stringify({ version: 1, sessions: [old, done] }),
    );
    const sessions = createSessionStore({ home, now: () => NOON, isAlive: () => false });
    expect(await sessions.get(old.id)).toMatchObject({ status: "active" });
    expect(await sessions.get(done.id)).toMatchObject({ status: "completed" });
    await sessions.update(done.id, { turns: 2 });
    expect(await registry(home)).toEqual([
      expect.objectContaining({ id: old.id, status: "active" }),
      expect.objectContaining({ id: done.id, status: "completed", turns: 2 }),
    ]);
  });

  test("reopen (--session-id) makes the session active again under the new process", async () => {
    const home = await mkdtemp(join(tmpdir(), "coord-sessions-"));
    const created = await createSessionStore({ home, now: () => NOON, pid: 111 }).create(INIT);
    const later = createSessionStore({ home, now: () => NOON, pid: 333, isAlive: () => true });
    await later.update(created.id, { status: "completed", ended_at: "2025-01-02T12:31:00.000Z" });
    expect(await later.reopen(created.id)).toMatchObject({
      status: "active",
      ended_at: null,
      pid: 333,
    });
    expect((await registry(home))[0]).toMatchObject({ status: "active", pid: 333 });
    await expect(later.reopen("session_nope")).rejects.toThrow(/session_nope is not in/);
  });
});
