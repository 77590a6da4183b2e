/**
 * Reading a file someone else made (an agent, a request, a run's workspace) without letting it
 * hang or flood coord (docs/tools.md "Special and large files"): the file is
 * opened with `O_NONBLOCK` (a FIFO without a writer does not block a thread), checked with
 * `fstat` on the open handle (anything but a regular file — FIFO, socket, device, directory — is
 * refused with a {@link NotRegularFileError} naming its kind), and read in chunks up to a cap
 * counted in bytes actually read, never trusting `stat.size`: a 1 GB sparse file or a file that
 * grows while read costs at most the cap.
 *
 * A root module, so that tools/, server/, logs/ and commands/ can all use it.
 */
import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, open, stat } from "node:fs/promises";

/** Bytes asked of the file system per read. */
const CHUNK_BYTES = 64 * 1024;

/** What a file is, in words, for messages. */
export type FileKind =
  | "regular file"
  | "directory"
  | "FIFO (named pipe)"
  | "socket"
  | "character device"
  | "block device"
  | "symbolic link"
  | "special file";

/** The kind of file `stats` describes. */
export function fileKind(stats: Stats): FileKind {
  if (stats.isFile()) return "regular file";
  if (stats.isDirectory()) return "directory";
  if (stats.isFIFO()) return "FIFO (named pipe)";
  if (stats.isSocket()) return "socket";
  if (stats.isCharacterDevice()) return "character device";
  if (stats.isBlockDevice()) return "block device";
  if (stats.isSymbolicLink()) return "symbolic link";
  return "special file";
}

/** A path that is not a regular file (or, with `noFollow`, is a symbolic link): refused. */
export class NotRegularFileError extends Error {
  override name = "NotRegularFileError";
  constructor(
    readonly path: string,
    readonly kind: FileKind,
  ) {
    super(`${path} is a ${kind}, not a regular file; refused`);
  }
}

/** Options of {@link openRegularFile}. */
export interface OpenRegularOptions {
  /**
   * The path is already resolved and confined (realpath): a symbolic link at it is refused
   * (`O_NOFOLLOW`), so a link swapped in after the check is never followed.
   */
  noFollow?: boolean;
}

/** Options of {@link readRegularFile}. */
export interface ReadRegularOptions extends OpenRegularOptions {
  /** The most bytes read (counted as read, not from `stat`). */
  maxBytes: number;
  /** Stops the read between chunks (the error is the signal's reason). */
  signal?: AbortSignal;
}

/** What {@link readRegularFile} read. */
export interface RegularFileContents {
  /** The file's first bytes: at most `maxBytes`. */
  bytes: Buffer;
  /** True when the file holds more than `maxBytes` bytes (only `maxBytes` were kept). */
  truncated: boolean;
  /** Its size as `fstat` reported it (bytes): for messages only, never for sizing the read. */
  size: number;
}

// Not defined on every platform (Windows): 0 is "no such flag".
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Opens a regular file for reading without blocking.
 * @returns the open handle (the caller closes it) and its `fstat`.
 * @throws NotRegularFileError when it is a directory, FIFO, socket or device (checked before and
 *   after opening), or a symbolic link with `noFollow`; the file system's error otherwise
 *   (`ENOENT`, `EACCES`, …).
 */
export async function openRegularFile(
  path: string,
  options: OpenRegularOptions = {},
): Promise<{ handle: FileHandle; stats: Stats }> {
  // Refused before it is opened: opening a device can itself have effects.
  const before = await (options.noFollow ? lstat(path) : stat(path));
  if (!before.isFile()) throw new NotRegularFileError(path, fileKind(before));
  const flags = constants.O_RDONLY | O_NONBLOCK | (options.noFollow ? O_NOFOLLOW : 0);
  const handle = await open(path, flags).catch((error: NodeJS.ErrnoException) => {
    throw error.code === "ELOOP" ? new NotRegularFileError(path, "symbolic link") : error;
  });
  try {
    // The handle is what is read: a file swapped for a FIFO after the first check is caught here.
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(path, fileKind(stats));
    return { handle, stats };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Reads at most `maxBytes` of a regular file, opened as {@link openRegularFile}.
 * @throws NotRegularFileError as {@link openRegularFile}; the signal's reason when aborted; the file
 *   system's error otherwise.
 */
export async function readRegularFile(
  path: string,
  options: ReadRegularOptions,
): Promise<RegularFileContents> {
  const { handle, stats } = await openRegularFile(path, options);
  try {
    const bytes = await readAtMost(handle, options.maxBytes + 1, options.signal);
    const truncated = bytes.length > options.maxBytes;
    return {
      bytes: truncated ? bytes.subarray(0, options.maxBytes) : bytes,
      truncated,
      size: stats.size,
    };
  } finally {
    await handle.close();
  }
}

/**
 * {@link readRegularFile} for a path already resolved and confined (a realpath checked against its
 * roots): a symbolic link put at it after the check is refused, not followed.
 */
export function readResolvedFile(
  realPath: string,
  options: Omit<ReadRegularOptions, "noFollow">,
): Promise<RegularFileContents> {
  return readRegularFile(realPath, { ...options, noFollow: true });
}

/**
 * Reads from the handle's current position until end of file or `limit` bytes, in chunks.
 * @returns the bytes read (at most `limit`).
 */
export async function readAtMost(
  handle: FileHandle,
  limit: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    signal?.throwIfAborted();
    const want = Math.min(CHUNK_BYTES, limit - total);
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, null);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    total += bytesRead;
  }
  return Buffer.concat(chunks, total);
}
