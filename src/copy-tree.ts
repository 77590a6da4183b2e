/**
 * Copying a folder an agent made — its workspace into snapshots and the others' views
 * (docs/tools.md "Workspaces"), a plan's result — safe against what an agent can put there (issue
 * 30 item 4), in place of `fs.cp` (which throws on a FIFO and fills in a sparse file): folders are
 * recreated, symbolic links copied as they are (never followed), regular files copied through a
 * non-blocking handle with their holes kept (a run of zeros is not written, so a sparse file stays
 * sparse), and everything else — FIFOs, sockets, devices — skipped. A file over
 * {@link SNAPSHOT_LIMITS}.maxFileBytes, or past the snapshot's byte budget, is skipped too; every
 * skip is reported so the caller can warn. A root module, so that tools/ and store/ can use it.
 */
import type { Dirent } from "node:fs";
import { type FileHandle, mkdir, open, readdir, readlink, rm, symlink } from "node:fs/promises";
import { join, relative } from "node:path";
import { NotRegularFileError, openRegularFile } from "./regular-file.js";

/** Limits of one copy (bytes). */
export const SNAPSHOT_LIMITS = {
  /** A file larger than this (its size, or bytes read) is skipped: 100 MiB. */
  maxFileBytes: 100 * 1024 * 1024,
  /** Bytes read by one copy at most; files past it are skipped: 1 GiB. */
  maxTotalBytes: 1024 * 1024 * 1024,
};

/** Bytes read and written per step; a step of zeros becomes a hole. */
const CHUNK_BYTES = 64 * 1024;
const ZEROS = Buffer.alloc(CHUNK_BYTES);

/** A file left out of a copy, and why. */
export interface SkippedEntry {
  /** Relative to the copied folder, `/`-separated. */
  path: string;
  /** E.g. "a FIFO (named pipe)", "larger than 104857600 bytes". */
  reason: string;
}

/** Options of {@link copyTree}. */
export interface CopyTreeOptions {
  maxFileBytes?: number;
  maxTotalBytes?: number;
}

/**
 * Copies the folder `source` to `dest` (created; its parent must exist or is created).
 * @returns what was skipped (empty when everything was copied).
 * @throws the file system's error when `source` cannot be listed or `dest` cannot be created.
 */
export async function copyTree(
  source: string,
  dest: string,
  options: CopyTreeOptions = {},
): Promise<SkippedEntry[]> {
  const maxFile = options.maxFileBytes ?? SNAPSHOT_LIMITS.maxFileBytes;
  const maxTotal = options.maxTotalBytes ?? SNAPSHOT_LIMITS.maxTotalBytes;
  let budget = maxTotal;
  const skipped: SkippedEntry[] = [];
  const skip = (path: string, reason: string) =>
    skipped.push({ path: relative(source, path).split("\\").join("/"), reason });

  const copyEntry = async (entry: Dirent, from: string, to: string): Promise<void> => {
    if (entry.isDirectory()) return copyFolder(from, to);
    if (entry.isSymbolicLink()) return symlink(await readlink(from), to);
    // FIFOs, sockets and devices: openRegularFile names the kind without reading.
    let opened;
    try {
      opened = await openRegularFile(from, { noFollow: true });
    } catch (error) {
      const why =
        error instanceof NotRegularFileError
          ? `a ${error.kind}`
          : `unreadable: ${(error as Error).message}`;
      return void skip(from, why);
    }
    const { handle, stats } = opened;
    try {
      if (stats.size > maxFile) return void skip(from, `larger than ${maxFile} bytes`);
      if (stats.size > budget) return void skip(from, `past the copy's limit of ${maxTotal} bytes`);
      const limit = Math.min(maxFile, budget);
      const read = await copyFile(handle, to, stats.mode & 0o777, limit);
      budget = Math.max(0, budget - read);
      if (read > limit) {
        await rm(to, { force: true });
        skip(from, `grew past ${limit} bytes while copied`);
      }
    } finally {
      await handle.close();
    }
  };

  const copyFolder = async (from: string, to: string): Promise<void> => {
    await mkdir(to, { recursive: true });
    const entries = await readdir(from, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(from, entry.name);
      try {
        await copyEntry(entry, path, join(to, entry.name));
      } catch (error) {
        skip(path, `not copied: ${(error as Error).message}`);
      }
    }
  };

  await copyFolder(source, dest);
  return skipped;
}

/**
 * Copies an open regular file to `to` (created, never through a link), keeping holes.
 * @param limit stop after this many bytes read plus one.
 * @returns the bytes read (more than `limit` means the copy was cut).
 */
async function copyFile(
  handle: FileHandle,
  to: string,
  mode: number,
  limit: number,
): Promise<number> {
  const out = await open(to, "wx", mode);
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let total = 0;
    while (total <= limit) {
      const want = Math.min(CHUNK_BYTES, limit + 1 - total);
      const { bytesRead } = await handle.read(buffer, 0, want, null);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (!chunk.equals(ZEROS.subarray(0, bytesRead))) await out.write(chunk, 0, bytesRead, total);
      total += bytesRead;
    }
    // Trailing zeros were not written: the length makes them a hole at the end.
    await out.truncate(total);
    return total;
  } finally {
    await out.close();
  }
}

/** One line naming what a copy skipped, for a notice (at most five paths named). */
export function describeSkipped(skipped: readonly SkippedEntry[]): string {
  const named = skipped.slice(0, 5).map((entry) => `${entry.path} (${entry.reason})`);
  const more = skipped.length > 5 ? `, and ${skipped.length - 5} more` : "";
  return `${skipped.length} file${skipped.length === 1 ? "" : "s"} not copied: ${named.join(", ")}${more}`;
}
