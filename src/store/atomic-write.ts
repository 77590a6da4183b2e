/**
 * Atomic file replacement (ARCHITECTURE.md "Files on disk"): readers that look while the run goes
 * on (status.json) see either the old file or the new one, never half of one.
 */
import writeFileAtomicLib from "write-file-atomic";

/**
 * Writes `data` to `path` atomically with `write-file-atomic`: to a temp file beside it
 * (`<path>.<number>`, removed if anything fails or the process exits), then renamed over `path`.
 * Calls for the same path in one process are applied in call order.
 *
 * No fsync: these files (status.json, metrics.json, answers) are rewritten often while a run
 * goes on, and a reader only needs the rename's all-or-nothing; a power cut may lose the last
 * version.
 *
 * @param path the file to create or replace; its directory must exist.
 * @param data UTF-8 text or bytes.
 * @throws the file system error (it names the path) when the write or rename fails.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await writeFileAtomicLib(
    path,
    typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength),
    { fsync: false },
  );
}
