import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "./atomic-write.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "coord-atomic-write-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("applies writes to one path in call order and leaves no temp file", async () => {
    const path = join(dir, "status.json");
    await Promise.all(
      Array.from({ length: 40 }, (_, index) => writeFileAtomic(path, JSON.stringify({ index }))),
    );
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ index: 39 });
    expect(readdirSync(dir)).toEqual(["status.json"]);
  });

  it("never shows a reader half a file", async () => {
    const path = join(dir, "status.json");
    const big = (index: number) => JSON.stringify({ index, pad: "x".repeat(200_000) });
    await writeFileAtomic(path, big(0));
    const writes = Promise.all(
      Array.from({ length: 20 }, (_, index) => writeFileAtomic(path, big(index + 1))),
    );
    let reads = 0;
    let done = false;
    void writes.then(() => (done = true));
    while (!done) {
      const text = await readFile(path, "utf8");
      expect(() => JSON.parse(text) as unknown).not.toThrow();
      reads++;
    }
    await writes;
    expect(reads).toBeGreaterThan(0);
    expect((JSON.parse(readFileSync(path, "utf8")) as { index: number }).index).toBe(20);
  });

  it("rejects when the rename fails and removes its temp file", async () => {
    const path = join(dir, "taken");
    mkdirSync(join(path, "inside"), { recursive: true }); // a non-empty directory: rename fails
    await expect(writeFileAtomic(path, "text")).rejects.toThrow(/taken/);
    expect(readdirSync(dir)).toEqual(["taken"]);
  });

  it("keeps the permission bits of the file it replaces", async () => {
    const path = join(dir, "sessions.json");
    writeFileSync(path, "{}\n", { mode: 0o600 });
    chmodSync(path, 0o600);
    await writeFileAtomic(path, '{"sessions":[]}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).toBe('{"sessions":[]}\n');
  });

  it("with keepMode: false, looks up no permission bits: the new file gets the default ones", async () => {
    const path = join(dir, "status.json");
    writeFileSync(path, "{}\n", { mode: 0o600 });
    chmodSync(path, 0o600);
    await writeFileAtomic(path, '{"phase":"done"}\n', { keepMode: false });
    const fresh = join(dir, "fresh.json"); // a new file's bits: 0o666 less the umask
    writeFileSync(fresh, "");
    expect(statSync(path).mode & 0o777).toBe(statSync(fresh).mode & 0o777);
    expect(statSync(path).mode & 0o777).not.toBe(0o600);
    expect(readFileSync(path, "utf8")).toBe('{"phase":"done"}\n');
  });

  it("replaces a symbolic link at the path instead of writing through it", async () => {
    const target = join(dir, "elsewhere.txt");
    writeFileSync(target, "keep me\n");
    const path = join(dir, "status.json");
    symlinkSync(target, path);
    await writeFileAtomic(path, "new\n");
    expect(readFileSync(target, "utf8")).toBe("keep me\n");
    expect(readFileSync(path, "utf8")).toBe("new\n");
    expect(existsSync(path)).toBe(true);
  });
});
