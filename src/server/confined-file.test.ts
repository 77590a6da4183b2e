/**
 * Files a request names (`model: "path:FILE"`): special files are refused by kind without a
 * blocking open, and a sparse file whose size is over the limit is never read (the bytes the test
 * process reads are counted in /proc/self/io, not timed).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, realpath, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { ApiError } from "./api-error.js";
import { confinedFile, MAX_ROUTED_CONFIG_BYTES } from "./confined-file.js";

/**
 * Bytes this process has read through read(2) and its kin so far (`rchar` of /proc/self/io, all
 * threads, page cache or not; Linux). Vitest runs each test file in its own forked process.
 */
function bytesReadByProcess(): number {
  const rchar = /^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))?.[1];
  if (rchar === undefined) throw new Error("no rchar in /proc/self/io");
  return Number(rchar);
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe("confinedFile", () => {
  test("a FIFO is refused at once, naming its kind; a regular file is read", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coord-confined-"));
    execFileSync("mkfifo", [join(cwd, "team.yaml")]);
    await writeFile(join(cwd, "ok.yaml"), "agents: []\n");
    const error = await refusal(
      confinedFile("team.yaml", { cwd, model: "path:team.yaml", read: true }),
    );
    expect(error.code).toBe("model_not_allowed");
    expect(error.message).toContain("it is a FIFO (named pipe), not a regular file");
    expect(await confinedFile("ok.yaml", { cwd, model: "path:ok.yaml", read: true })).toEqual({
      path: join(await realpath(cwd), "ok.yaml"),
      text: "agents: []\n",
    });
  });

  test("a 1 GB sparse file is refused by its size, not read", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coord-confined-"));
    await writeFile(join(cwd, "big.yaml"), "agents: []\n");
    await truncate(join(cwd, "big.yaml"), 2 ** 30);
    const before = bytesReadByProcess();
    const error = await refusal(
      confinedFile("big.yaml", { cwd, model: "path:big.yaml", read: true }),
    );
    const read = bytesReadByProcess() - before;
    expect(error.message).toContain(`it is larger than ${MAX_ROUTED_CONFIG_BYTES} bytes`);
    // Refused from fstat: not the 1 GB, nor even the MAX_ROUTED_CONFIG_BYTES + 1 of a capped read
    // (what is counted besides is this process's own small reads: /proc/self/io, test IPC).
    expect(read).toBeLessThan(MAX_ROUTED_CONFIG_BYTES / 4);
  });
});
