import { mkdir, mkdtemp, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { FileLockError, withFileLock } from "./file-lock.js";

async function tempFile() {
  const dir = await mkdtemp(join(tmpdir(), "coord-lock-"));
  return join(dir, "sessions.json");
}

describe("withFileLock", () => {
  test("tasks on the same file never overlap, and the lock directory is gone afterwards", async () => {
    const path = await tempFile();
    let inside = 0;
    let most = 0;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        withFileLock(path, async () => {
          inside++;
          most = Math.max(most, inside);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inside--;
          return index;
        }),
      ),
    );
    expect(results.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(most).toBe(1);
    await expect(stat(`${path}.lock`)).rejects.toMatchObject({ code: "ENOENT" });
  });

  test("a lock held by someone else is an error naming the file; a stale one is broken", async () => {
    const path = await tempFile();
    await mkdir(`${path}.lock`);
    const run = withFileLock(path, async () => "ran", { retries: 0 });
    await expect(run).rejects.toThrow(FileLockError);
    await expect(run).rejects.toThrow(`${path} is locked by another coord process`);
    // The holder died a minute ago (its lock was never refreshed).
    const past = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, past, past);
    expect(await withFileLock(path, async () => "ran", { retries: 0 })).toBe("ran");
  });

  test("an error of the task is passed on and the lock released", async () => {
    const path = await tempFile();
    await expect(
      withFileLock(path, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await withFileLock(path, async () => 1, { retries: 0 })).toBe(1);
  });

  test("a lock whose directory cannot be made is an error naming the file", async () => {
    const path = join(await tempFile(), "missing", "sessions.json");
    await expect(withFileLock(path, async () => 1, { retries: 0 })).rejects.toThrow(
      `cannot lock ${path}`,
    );
  });
});
