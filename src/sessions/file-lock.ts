/**
 * A cross-process lock on one file: a lock directory `<path>.lock`, made with `mkdir` (atomic:
 * exactly one process creates it). The same directory earlier coord versions made with the
 * `proper-lockfile` package, by the same rules, so old and new processes still exclude each
 * other: the holder refreshes the directory's modification time while it holds the lock, and
 * others break a lock whose time is older than `STALE_MS` (its holder died).
 *
 * Its own few lines rather than that package (issue 29, start-up): the package loads
 * `graceful-fs` (which patches `fs.close` for the whole process), `signal-exit` and `retry`
 * before a run's first model request, and spends two more file system calls per lock probing
 * the time precision. Here taking a free lock is one `mkdir` and releasing it one `rmdir`, both
 * synchronous (a directory entry, well under a millisecond on a local disk): a run takes the lock
 * three times, twice on its way to the first model request and once after its last response,
 * and each asynchronous call would wait for a thread of libuv's pool and then for the main
 * thread again (on a loaded machine, each of those waits costs milliseconds). Only a lock held by
 * another process is waited for asynchronously.
 */
import { mkdirSync, rmdirSync } from "node:fs";
import { mkdir, rmdir, stat, utimes } from "node:fs/promises";

/** How long a lock may go without a refresh before others break it (ms). */
export const STALE_MS = 10_000;

/** How often a held lock's time is refreshed (ms): twice within {@link STALE_MS}. */
const REFRESH_MS = STALE_MS / 2;

/** Waits while another process holds the lock: about 20 s in all, longer than `STALE_MS`. */
const RETRIES = { retries: 100, factor: 1.5, minTimeout: 10, maxTimeout: 200 };

/** Thrown when the lock cannot be taken, or was lost while held; names the file. */
export class FileLockError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FileLockError";
  }
}

/** Lock directories this process holds: removed if it exits while holding them. */
const held = new Set<string>();
let exitHook = false;

function releaseHeldOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once("exit", () => {
    for (const dir of held) {
      try {
        rmdirSync(dir);
      } catch {
        // already gone
      }
    }
  });
}

const code = (error: unknown) => (error as NodeJS.ErrnoException).code;

/**
 * One attempt to take the lock directory: true when this process made it. A directory older
 * than {@link STALE_MS} is removed and made again (at most once per attempt). The `first`
 * attempt makes the directory synchronously (see the module comment).
 * @throws the file system error when the directory cannot be made (e.g. no parent directory).
 */
async function tryAcquire(dir: string, now: () => number, first: boolean): Promise<boolean> {
  for (let breakStale = true; ; breakStale = false) {
    try {
      if (first) mkdirSync(dir);
      else await mkdir(dir);
      return true;
    } catch (error) {
      if (code(error) !== "EEXIST") throw error;
    }
    if (!breakStale) return false;
    let modified: number;
    try {
      modified = (await stat(dir)).mtimeMs;
    } catch (error) {
      if (code(error) === "ENOENT") continue; // released meanwhile: try once more
      throw error;
    }
    if (modified >= now() - STALE_MS) return false;
    await rmdir(dir).catch((error: unknown) => {
      if (code(error) !== "ENOENT") throw error;
    });
  }
}

/**
 * Keeps a held lock fresh: every `refreshMs` (default {@link REFRESH_MS}) its time is set to now, unless the directory
 * is gone or carries a newer time than ours (another process broke it and took it): then
 * `onLost` is told. The timer does not keep the process alive.
 * @returns stops the refreshing.
 */
function keepFresh(
  dir: string,
  timing: { now: () => number; refreshMs: number },
  onLost: (error: Error) => void,
): () => void {
  const { now, refreshMs } = timing;
  let lastRefresh = now();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(() => void refresh(), refreshMs);
    timer.unref();
  };
  const refresh = async () => {
    try {
      // Ours was set at `lastRefresh` at the latest; a lock another process made after breaking
      // ours is at least STALE_MS younger.
      if ((await stat(dir)).mtimeMs > lastRefresh + STALE_MS / 2) {
        throw new Error(`${dir} was taken over by another process`);
      }
      const time = new Date(now());
      await utimes(dir, time, time);
      lastRefresh = time.getTime();
      if (!stopped) schedule();
    } catch (error) {
      if (stopped) return;
      held.delete(dir);
      onLost(code(error) === "ENOENT" ? new Error(`${dir} was removed`) : (error as Error));
    }
  };
  schedule();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/**
 * Runs `task` while holding the lock on `path` (which need not exist; its directory must).
 * @param options.retries how often to try again while another process holds the lock (waits
 *   grow from 10 to 200 ms); default 100, about 20 s.
 * @param options.now epoch ms, for the stale check and the refreshes; default `Date.now`.
 * @param options.refreshMs how often the held lock's time is refreshed (ms); default 5 000.
 * @returns what `task` returns.
 * @throws FileLockError when another process holds the lock for longer than the wait, when the
 *   lock directory cannot be made, or when the lock was broken by another process while `task`
 *   ran (its write may then be lost); errors of `task` as they are.
 */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  options: { retries?: number; now?: () => number; refreshMs?: number } = {},
): Promise<T> {
  const dir = `${path}.lock`;
  const now = options.now ?? Date.now;
  const retries = options.retries ?? RETRIES.retries;
  try {
    for (let attempt = 0; !(await tryAcquire(dir, now, attempt === 0)); attempt++) {
      if (attempt >= retries) {
        throw new FileLockError(
          `${path} is locked by another coord process (${dir}): try again; if no coord is running, delete that lock`,
        );
      }
      const wait = Math.min(RETRIES.maxTimeout, RETRIES.minTimeout * RETRIES.factor ** attempt);
      await new Promise((resolve) => setTimeout(resolve, Math.round(wait)));
    }
  } catch (error) {
    if (error instanceof FileLockError) throw error;
    throw new FileLockError(`cannot lock ${path}: ${(error as Error).message}`, { cause: error });
  }
  held.add(dir);
  releaseHeldOnExit();
  let lost: Error | undefined;
  const refreshMs = options.refreshMs ?? REFRESH_MS;
  const stop = keepFresh(dir, { now, refreshMs }, (error) => (lost = error));
  try {
    const result = await task();
    if (lost) {
      throw new FileLockError(`lost the lock on ${path} while writing it: ${lost.message}`, {
        cause: lost,
      });
    }
    return result;
  } finally {
    stop();
    // A lost lock belongs to someone else now (or to no one): leave it.
    if (!lost && held.delete(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        // already gone (removed by hand): nothing to release
      }
    }
  }
}
