/**
 * Reading files others made: special files are refused without blocking, and a
 * read costs at most its cap whatever `stat` says (sparse files, devices).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, symlink, truncate, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, test } from "vitest";
import { NotRegularFileError, readRegularFile, readResolvedFile } from "./regular-file.js";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "coord-regular-"));
});

/** The error `promise` rejects with. */
async function failure(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: Error) => error,
  );
}

describe("readRegularFile", () => {
  test("reads a regular file whole, or its first maxBytes with truncated set", async () => {
    const path = join(dir, "a.txt");
    await writeFile(path, "hello world");
    expect(await readRegularFile(path, { maxBytes: 100 })).toEqual({
      bytes: Buffer.from("hello world"),
      truncated: false,
      size: 11,
    });
    expect(await readRegularFile(path, { maxBytes: 11 })).toMatchObject({ truncated: false });
    const cut = await readRegularFile(path, { maxBytes: 5 });
    expect(cut.bytes.toString()).toBe("hello");
    expect(cut.truncated).toBe(true);
  });

  test("a FIFO without a writer is refused at once, naming its kind (no hang)", async () => {
    const fifo = join(dir, "ff");
    execFileSync("mkfifo", [fifo]);
    const error = await failure(readRegularFile(fifo, { maxBytes: 100 }));
    expect(error).toBeInstanceOf(NotRegularFileError);
    expect(error.message).toBe(`${fifo} is a FIFO (named pipe), not a regular file; refused`);
  });

  test("/dev/zero, directly or through a link, is refused as a character device", async () => {
    const link = join(dir, "zero");
    await symlink("/dev/zero", link);
    for (const path of ["/dev/zero", link]) {
      const error = await failure(readRegularFile(path, { maxBytes: 1024 }));
      expect(error.message).toContain("is a character device, not a regular file");
    }
    // A resolved path never follows a link: the link itself is refused.
    expect((await failure(readResolvedFile(link, { maxBytes: 1024 }))).message).toBe(
      `${link} is a symbolic link, not a regular file; refused`,
    );
  });

  test("a directory and a socket are refused", async () => {
    expect((await failure(readRegularFile(dir, { maxBytes: 10 }))).message).toContain(
      "is a directory, not a regular file",
    );
    const socketPath = join(dir, "sock");
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    try {
      expect((await failure(readRegularFile(socketPath, { maxBytes: 10 }))).message).toContain(
        "is a socket, not a regular file",
      );
    } finally {
      server.close();
    }
  });

  test("a 1 GB sparse file costs at most the cap, counted as read", async () => {
    const path = join(dir, "sparse");
    await writeFile(path, "start\n");
    await truncate(path, 2 ** 30);
    const read = await readRegularFile(path, { maxBytes: 1024 * 1024 });
    expect(read.bytes.length).toBe(1024 * 1024);
    expect(read.truncated).toBe(true);
    expect(read.size).toBe(2 ** 30);
    expect(read.bytes.subarray(0, 6).toString()).toBe("start\n");
  });

  test("an aborted signal stops the read", async () => {
    const path = join(dir, "a.txt");
    await writeFile(path, "hello");
    const controller = new AbortController();
    controller.abort(new Error("stopped"));
    expect(
      (await failure(readRegularFile(path, { maxBytes: 10, signal: controller.signal }))).message,
    ).toBe("stopped");
  });
});
