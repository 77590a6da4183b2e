/**
 * Atomic file replacement (docs/architecture.md "Files on disk"): readers that look while the run
 * goes on (status.json) see either the old file or the new one, never half of one.
 *
 * Its own few lines rather than the `write-file-atomic` package on this path: that
 * package resolves the target's real path in JavaScript (an lstat per path component), stats,
 * chowns the temp file and registers an exit handler on every write, which made the
 * log files of a run a visible share of `coord serve`'s CPU. Here a write is: write the temp
 * file, rename it over the target.
 */
import { rename, stat, unlink, unlinkSync, writeFile } from "node:fs";
import { promisify } from "node:util";
import { resolve } from "node:path";

const writeFileAsync = promisify(writeFile);
const renameAsync = promisify(rename);
const statAsync = promisify(stat);
const unlinkAsync = promisify(unlink);

/** Writes waiting or running per absolute path: each path's writes run in call order. */
const queues = new Map<string, Promise<void>>();
/** Temp files being written, removed if the process exits first. */
const pending = new Set<string>();
let counter = 0;
let exitHook = false;

function removePendingOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const tmp of pending) {
      try {
        unlinkSync(tmp);
      } catch {
        // already renamed or removed
      }
    }
  });
}

/**
 * One write. The callback API of `node:fs`, not `fs.promises`: that one makes a FileHandle
 * object per open, a visible extra cost next to the write itself.
 */
async function writeOnce(
  path: string,
  data: string | Uint8Array,
  keepMode: boolean,
): Promise<void> {
  const tmp = `${path}.${process.pid}.${++counter}.tmp`;
  pending.add(tmp);
  try {
    // The file it replaces keeps its permission bits (e.g. a registry the user made 0o600).
    const mode = keepMode
      ? await statAsync(path).then(
          (stats) => stats.mode & 0o7777,
          () => undefined,
        )
      : undefined;
    await writeFileAsync(tmp, data, { flag: "wx", ...(mode !== undefined ? { mode } : {}) });
    await renameAsync(tmp, path);
  } catch (error) {
    await unlinkAsync(tmp).catch(() => undefined);
    throw error;
  } finally {
    pending.delete(tmp);
  }
}

/**
 * Writes `data` to `path` atomically: to a temp file beside it (`<path>.<pid>.<n>.tmp`, created
 * exclusively, removed if anything fails or the process exits), then renamed over `path`. Calls
 * for the same path in one process are applied in call order. A symbolic link at `path` is
 * replaced by the file, not followed. A replaced file keeps its permission bits (less the umask);
 * a new one gets 0o666 less the umask.
 *
 * No fsync: these files (status.json, metrics.json, answers) are rewritten often while a run
 * goes on, and a reader only needs the rename's all-or-nothing; a power cut may lose the last
 * version.
 *
 * @param path the file to create or replace; its directory must exist.
 * @param data UTF-8 text or bytes.
 * @param options.keepMode false: do not look up the replaced file's permission bits (one `stat`
 *   fewer) — for files only their writer ever made, e.g. a run log's in its own new directory;
 *   they get 0o666 less the umask. Default true.
 * @throws the file system error (it names the path) when the write or rename fails.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { keepMode?: boolean } = {},
): Promise<void> {
  removePendingOnExit();
  const key = resolve(path);
  const keepMode = options.keepMode ?? true;
  const job = (queues.get(key) ?? Promise.resolve()).then(() => writeOnce(key, data, keepMode));
  const settled = job.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  try {
    await job;
  } finally {
    if (queues.get(key) === settled) queues.delete(key);
  }
}
