/**
 * The workspace browser's file access (docs/web.md "Workspace browser"): directory listings and
 * previews (text, Markdown, images) confined to the roots a run offers. Every path is resolved
 * with realpath and must stay inside the root's realpath, so `..`, absolute paths and symlinks
 * pointing out are refused (403); nothing outside a root is ever read. Files are read as
 * ../../regular-file.ts: a FIFO, socket or device is refused (400) without blocking, and a read
 * never goes past its cap, whatever `stat` says.
 */
import { readdir, realpath, stat } from "node:fs/promises";
import { extname, isAbsolute, join, relative, sep } from "node:path";
import type { Stats } from "node:fs";
import { fileKind, NotRegularFileError, readResolvedFile } from "../../regular-file.js";
import { type FileEntry, type FileView, WebHostError } from "./web-host.js";

export type { FileEntry, FileView, PreviewKind } from "./web-host.js";

/** Largest file shown as text, bytes. */
export const TEXT_PREVIEW_BYTES = 256 * 1024;
/** Largest image served, bytes. */
export const IMAGE_BYTES = 10 * 1024 * 1024;

/** Image types previewed, by extension. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
};

const MARKDOWN = new Set([".md", ".markdown"]);

/**
 * The real path of `path` (relative to the root, `/`-separated) when it is the root or inside it.
 * @throws WebHostError 403 when it resolves outside the root, 404 when it does not exist.
 */
export async function resolveInside(root: string, path: string): Promise<string> {
  if (path.includes("\0") || isAbsolute(path)) throw outside(path);
  const realRoot = await realpath(root).catch(() => {
    throw new WebHostError(404, `${root} does not exist (yet)`);
  });
  // Refused before the file system is asked, so nothing says what exists outside.
  if (!inside(realRoot, join(realRoot, path))) throw outside(path);
  const target = await realpath(join(realRoot, path)).catch(() => {
    throw new WebHostError(404, `${path} not found`);
  });
  if (!inside(realRoot, target)) throw outside(path);
  return target;
}

function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function outside(path: string): WebHostError {
  return new WebHostError(403, `${path}: outside the workspace`);
}

/**
 * Lists a directory (directories first, then files, by name) or previews a file.
 * @throws WebHostError 403 / 404 as {@link resolveInside}; 400 for a FIFO, socket or device.
 */
export async function viewPath(root: string, path: string): Promise<FileView> {
  const target = await resolveInside(root, path);
  const info = await stat(target);
  if (info.isDirectory()) {
    const entries: FileEntry[] = [];
    for (const entry of await readdir(target, { withFileTypes: true })) {
      // Symlinks are listed by what they point to; ones pointing out are refused when opened.
      const entryInfo = await stat(join(target, entry.name)).catch(() => undefined);
      if (!entryInfo) continue;
      entries.push({
        name: entry.name,
        kind: entryInfo.isDirectory() ? "dir" : "file",
        size: entryInfo.isDirectory() ? 0 : entryInfo.size,
      });
    }
    entries.sort((a, b) =>
      a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === "dir" ? -1 : 1,
    );
    return { kind: "dir", path, entries };
  }
  if (!info.isFile()) throw notRegular(path, info);
  const extension = extname(target).toLowerCase();
  if (IMAGE_TYPES[extension] !== undefined) {
    return {
      kind: "file",
      path,
      size: info.size,
      preview: info.size > IMAGE_BYTES ? "too-large" : "image",
    };
  }
  if (info.size > TEXT_PREVIEW_BYTES)
    return { kind: "file", path, size: info.size, preview: "too-large" };
  const { bytes, truncated } = await readBytes(path, target, TEXT_PREVIEW_BYTES);
  if (truncated) return { kind: "file", path, size: info.size, preview: "too-large" };
  if (bytes.includes(0)) return { kind: "file", path, size: info.size, preview: "binary" };
  return {
    kind: "file",
    path,
    size: info.size,
    preview: MARKDOWN.has(extension) ? "markdown" : "text",
    text: bytes.toString("utf8"),
  };
}

/**
 * An image's bytes and media type, for `<img src>`.
 * @throws WebHostError 403 / 404 as {@link resolveInside}; 400 when it is not a previewable image.
 */
export async function readImage(
  root: string,
  path: string,
): Promise<{ bytes: Buffer; type: string }> {
  const target = await resolveInside(root, path);
  const type = IMAGE_TYPES[extname(target).toLowerCase()];
  const info = await stat(target);
  if (type === undefined || !info.isFile() || info.size > IMAGE_BYTES) {
    throw new WebHostError(400, `${path}: not an image the browser previews`);
  }
  const { bytes, truncated } = await readBytes(path, target, IMAGE_BYTES);
  if (truncated) throw new WebHostError(400, `${path}: not an image the browser previews`);
  return { bytes, type };
}

function notRegular(path: string, info: Stats): WebHostError {
  return new WebHostError(400, `${path} is a ${fileKind(info)}: only regular files are previewed`);
}

/**
 * At most `maxBytes` of the regular file `target` (a realpath inside the root).
 * @throws WebHostError 400 when it is no longer a regular file (swapped since the check).
 */
async function readBytes(
  path: string,
  target: string,
  maxBytes: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  try {
    return await readResolvedFile(target, { maxBytes });
  } catch (error) {
    if (error instanceof NotRegularFileError) {
      throw new WebHostError(400, `${path} is a ${error.kind}: only regular files are previewed`);
    }
    throw error;
  }
}
