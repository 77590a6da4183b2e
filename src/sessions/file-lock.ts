/**
 * A cross-process lock on one file, with `proper-lockfile`: a lock directory `<path>.lock` (the
 * same one earlier coord versions made, so old and new processes still exclude each other),
 * kept fresh while held and broken by others once it is older than `STALE_MS` (its holder died).
 *
 * The package is imported on first use, not with this module: it loads `graceful-fs`,
 * `signal-exit` and `retry`, which a command that never records a session does not need. A free
 * lock is taken with the package's synchronous `lockSync` (no round trip through libuv's thread
 * pool for each of the three locks a run takes, which costs milliseconds on a loaded machine);
 * only a lock held by another process is waited for, with the package's asynchronous retries.
 */
import type { lock, lockSync } from "proper-lockfile";

interface Lockfile {
  lock: typeof lock;
  lockSync: typeof lockSync;
}

/** How long a lock may go without a refresh before others break it (ms). */
const STALE_MS = 10_000;

/** Waits while another process holds the lock: about 20 s in all, longer than `STALE_MS`. */
const RETRIES = { retries: 100, factor: 1.5, minTimeout: 10, maxTimeout: 200 };

/** Thrown when the lock cannot be taken, or was lost while held; names the file. */
export class FileLockError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FileLockError";
  }
}

let loading: Promise<Lockfile> | undefined;

/** `proper-lockfile`, loaded once on first use. */
function lockfile(): Promise<Lockfile> {
  // A CommonJS package: its functions are the default export's.
  loading ??= import("proper-lockfile").then((module): Lockfile => module.default);
  return loading;
}

/**
 * Runs `task` while holding the lock on `path` (which need not exist; its directory must).
 * @param options.retries how often to try again while another process holds the lock (waits
 *   grow from 10 to 200 ms); default 100, about 20 s.
 * @returns what `task` returns.
 * @throws FileLockError when another process holds the lock for longer than the wait, when the
 *   lock directory cannot be made, or when the lock was broken by another process while `task`
 *   ran (its write may then be lost); errors of `task` as they are.
 */
export async function withFileLock<T>(
  path: string,
  task: () => Promise<T>,
  options: { retries?: number } = {},
): Promise<T> {
  const { lock, lockSync } = await lockfile();
  let lost: Error | undefined;
  const lockOptions = {
    realpath: false,
    stale: STALE_MS,
    // The default throws from a timer, which would crash the process.
    onCompromised: (error: Error) => (lost = error),
  };
  let release: () => unknown;
  try {
    try {
      release = lockSync(path, lockOptions);
    } catch (error) {
      const retries = options.retries ?? RETRIES.retries;
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED" || retries === 0) throw error;
      release = await lock(path, { ...lockOptions, retries: { ...RETRIES, retries } });
    }
  } catch (error) {
    throw new FileLockError(
      (error as NodeJS.ErrnoException).code === "ELOCKED"
        ? `${path} is locked by another coord process (${path}.lock): try again; if no coord is running, delete that lock`
        : `cannot lock ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  try {
    const result = await task();
    if (lost) {
      throw new FileLockError(`lost the lock on ${path} while writing it: ${lost.message}`, {
        cause: lost,
      });
    }
    return result;
  } finally {
    // A lost lock is already released (ERELEASED): nothing to undo.
    try {
      await release();
    } catch {
      // released already
    }
  }
}
