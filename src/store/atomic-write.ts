/**
 * Atomic file replacement (ARCHITECTURE.md "Files on disk"): readers that look while the run goes
 * on (status.json) see either the old file or the new one, never half of one.
 */
import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Writes `data` to `path` atomically: to a temp file in the same directory (same file system),
 * then renamed over `path`. The temp file is removed if anything fails.
 *
 * Concurrent calls for the same path do not corrupt it, but the last rename wins: serialize the
 * calls when their order matters.
 *
 * @param path the file to create or replace; its directory must exist.
 * @param data UTF-8 text or bytes.
 * @throws the file system error (it names the path) when the write or rename fails.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temp = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
