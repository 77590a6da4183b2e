/**
 * The sessions archive: sessions.json stays at most REGISTRY_CAP records however long
 * the history is, and listing, `get` and continuing a session still see every session.
 */
import { appendFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REGISTRY_CAP } from "./sessions-archive.js";
import { createSessionStore, type SessionRecord } from "./sessions.js";

const NOW = Date.UTC(2026, 0, 2, 12, 0, 0);

/** `count` finished sessions, one per minute before NOW, oldest first. */
function history(count: number): SessionRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const started = new Date(NOW - (count - index) * 60_000).toISOString();
    return {
      id: `session_old_${String(index).padStart(4, "0")}`,
      started_at: started,
      ended_at: started,
      status: "completed",
      kind: "single",
      models: ["openai/gpt-4o"],
      config_path: null,
      log_dir: null,
      turns: 1,
      cwd: "/p",
    };
  });
}

async function homeWith(records: SessionRecord[]) {
  const home = await mkdtemp(join(tmpdir(), "coord-archive-"));
  await mkdir(join(home, ".coord"));
  await writeFile(
    join(home, ".coord", "sessions.json"),
    JSON.stringify({ version: 1, sessions: records }),
  );
  const store = createSessionStore({ home, now: () => NOW, isAlive: () => true });
  const registry = async () =>
    (
      JSON.parse(await readFile(join(home, ".coord", "sessions.json"), "utf8")) as {
        sessions: SessionRecord[];
      }
    ).sessions;
  const archive = join(home, ".coord", "sessions-archive.jsonl");
  return { home, store, registry, archive };
}

describe("sessions archive", () => {
  test("a new session moves the oldest finished ones out; the list stays complete", async () => {
    const old = history(REGISTRY_CAP + 50);
    const { store, registry, archive } = await homeWith(old);
    const created = await store.create({
      kind: "single",
      models: ["m"],
      config_path: null,
      log_dir: null,
      cwd: "/p",
    });
    const kept = await registry();
    expect(kept).toHaveLength(REGISTRY_CAP);
    expect(kept.map((record) => record.id)).toContain(created.id);
    // The 51 oldest went to the archive, in order.
    const archived = (await readFile(archive, "utf8")).split("\n").filter(Boolean);
    expect(archived.map((line) => (JSON.parse(line) as SessionRecord).id)).toEqual(
      old.slice(0, 51).map((record) => record.id),
    );
    const listed = await store.list();
    expect(listed).toHaveLength(REGISTRY_CAP + 51);
    expect(listed[0]!.id).toBe(created.id);
    expect(listed.at(-1)!.id).toBe(old[0]!.id);
    expect(await store.get(old[0]!.id)).toMatchObject({ status: "completed", turns: 1 });
  });

  test("continuing an archived session brings it back into sessions.json", async () => {
    const old = history(REGISTRY_CAP + 1);
    const { store, registry } = await homeWith(old);
    await store.update(old[5]!.id, { turns: 1 }); // any change archives the overflow
    expect((await registry()).map((record) => record.id)).not.toContain(old[0]!.id);
    const reopened = await store.reopen(old[0]!.id);
    expect(reopened).toMatchObject({ id: old[0]!.id, status: "active", ended_at: null });
    const registryIds = (await registry()).map((record) => record.id);
    expect(registryIds).toContain(old[0]!.id);
    // Listed once, with its registry status.
    const listed = (await store.list()).filter((record) => record.id === old[0]!.id);
    expect(listed).toEqual([expect.objectContaining({ status: "active" })]);
  });

  test("a line torn by a crash is skipped and the next records still read", async () => {
    const old = history(REGISTRY_CAP + 1);
    const { store, archive } = await homeWith(old);
    await appendFile(archive, '{"id":"session_torn","started_'); // a crash mid-append
    await store.update(old[5]!.id, { turns: 2 });
    const listed = await store.list();
    expect(listed.map((record) => record.id)).toContain(old[0]!.id);
    expect(listed.map((record) => record.id)).not.toContain("session_torn");
    expect(listed).toHaveLength(REGISTRY_CAP + 1);
  });

  test("active sessions are never archived", async () => {
    const old = history(REGISTRY_CAP + 3).map((record, index) =>
      index < 3 ? { ...record, status: "active" as const, ended_at: null, pid: 1 } : record,
    );
    const { store, registry } = await homeWith(old);
    await store.update(old[10]!.id, { turns: 2 });
    const ids = (await registry()).map((record) => record.id);
    for (const record of old.slice(0, 3)) expect(ids).toContain(record.id);
    expect(ids).toHaveLength(REGISTRY_CAP);
  });
});
