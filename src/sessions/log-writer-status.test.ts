import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { logWriterStatus } from "./log-writer-status.js";
import { createSessionStore } from "./sessions.js";

const INIT = {
  kind: "single" as const,
  models: ["scripted/scripted"],
  config_path: null,
  cwd: "/p",
};

describe("logWriterStatus", () => {
  test("writing while the session's process lives; gone once it is dead or the session ended", async () => {
    const home = await mkdtemp(join(tmpdir(), "coord-writer-"));
    const dead = new Set<number>();
    const open = (pid: number) =>
      createSessionStore({ home, pid, isAlive: (target) => !dead.has(target) });
    const logDir = join(home, "agent_outputs", "log_20260101_120000");
    const running = await open(111).create({ ...INIT, log_dir: logDir });
    await open(111).create({ ...INIT, log_dir: join(home, "elsewhere") });
    const viewer = open(999);

    // Another spelling of the same directory names it too.
    expect(await logWriterStatus(viewer, `${logDir}/../log_20260101_120000/`)).toBe("writing");
    dead.add(111);
    expect(await logWriterStatus(viewer, logDir)).toBe("gone");

    dead.clear();
    await open(111).update(running.id, { status: "completed" });
    expect(await logWriterStatus(viewer, logDir)).toBe("gone");
    expect(await logWriterStatus(viewer, join(home, "elsewhere"))).toBe("writing");
  });

  test("unknown when no session names the log, and when the registry cannot be read", async () => {
    const home = await mkdtemp(join(tmpdir(), "coord-writer-"));
    const store = createSessionStore({ home });
    expect(await logWriterStatus(store, "/ci/agent_outputs/log_20260101_120000")).toBe("unknown");
    await store.create({ ...INIT, log_dir: null });
    expect(await logWriterStatus(store, "/ci/agent_outputs/log_20260101_120000")).toBe("unknown");

    await mkdir(join(home, ".coord"), { recursive: true });
    await writeFile(join(home, ".coord", "sessions.json"), "{ not json");
    expect(await logWriterStatus(store, "/ci/agent_outputs/log_20260101_120000")).toBe("unknown");
  });
});
