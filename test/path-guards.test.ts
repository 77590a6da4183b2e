/**
 * Defense in depth behind the config's name checks: the code that builds paths
 * from an agent id or a session id refuses one that would leave its folder, before touching the
 * file system. Each case aims at a victim folder with a file in it; the file stays.
 */
import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { UnsafePathError } from "../src/safe-name.js";
import { createSessionStore } from "../src/sessions/index.js";
import { createRunWorkspaces } from "../src/tools/workspaces.js";

/** A temp root with `victim/keep.txt` and an empty `work/`. */
async function setup(): Promise<{ root: string; work: string; victim: string }> {
  const root = await mkdtemp(join(tmpdir(), "coord-path-guard-"));
  const victim = join(root, "victim");
  const work = join(root, "work");
  await mkdir(victim);
  await mkdir(work);
  await writeFile(join(victim, "keep.txt"), "precious\n");
  return { root, work, victim };
}

async function expectUntouched(victim: string): Promise<void> {
  expect(await readdir(victim)).toEqual(["keep.txt"]);
  expect(await readFile(join(victim, "keep.txt"), "utf8")).toBe("precious\n");
}

describe("paths built from ids stay inside their folder", () => {
  test("run workspaces: an agent id with ../ is refused before any folder is made for it", async () => {
    const { work, victim } = await setup();
    // <work>/.coord/workspaces/<run>/.views/../../../../../victim is <root>/victim.
    await expect(
      createRunWorkspaces({
        cwd: work,
        runName: "run_1",
        agents: [{ id: "../../../../../victim", anonId: "agent1", workspaceName: "ws" }],
        notify: () => undefined,
      }),
    ).rejects.toThrow(UnsafePathError);
    await expectUntouched(victim);
  });

  test("run workspaces: a workspace name that is a dot name is refused", async () => {
    const { work } = await setup();
    await expect(
      createRunWorkspaces({
        cwd: work,
        runName: "run_1",
        agents: [{ id: "a", anonId: "agent1", workspaceName: ".." }],
        notify: () => undefined,
      }),
    ).rejects.toThrow(UnsafePathError);
  });

  test("the session store: a session id with ../ neither writes, reads nor removes outside sessions/", async () => {
    const { root, victim } = await setup();
    const home = join(root, "home");
    const store = createSessionStore({ home });
    // <home>/.coord/sessions/../../../victim is <root>/victim.
    const id = "../../../victim";
    await expect(store.turns(id)).rejects.toThrow(UnsafePathError);
    await expect(store.remove(id)).rejects.toThrow(UnsafePathError);
    await expect(
      store.saveTurn(id, { turn: 1 } as Parameters<typeof store.saveTurn>[1]),
    ).rejects.toThrow(UnsafePathError);
    await expectUntouched(victim);
  });
});
