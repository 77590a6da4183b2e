/**
 * Files a request may name (`model: "path:FILE"`, `"local/FILE.gguf"`), confined to the server's
 * working directory (docs/server.md "Security"): only regular files whose real
 * path (symbolic links resolved) lies under the real working directory, opened without blocking
 * (a FIFO never hangs a request), at most {@link MAX_ROUTED_CONFIG_BYTES} when read, and read
 * with a time limit, and never inside a folder a run writes (run logs, workspaces).
 * Errors name the request's own text, never the file's contents.
 */
import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { basename, isAbsolute, relative, resolve, sep } from "node:path";
import { fileKind, readAtMost } from "../regular-file.js";
import { ApiError, invalidRequest } from "./api-error.js";
import { insideRunOutput } from "./team-policy.js";

/** Largest config file a request may name (bytes): 1 MiB. */
export const MAX_ROUTED_CONFIG_BYTES = 1024 * 1024;

/** Longest wait for a named file to be read (ms). */
export const ROUTED_READ_TIMEOUT_MS = 5000;

/** Options of {@link confinedFile}. */
export interface ConfinedFileOptions {
  /** The server's working directory. */
  cwd: string;
  /** The request's `model` as sent, for messages. */
  model: string;
  /** Read the file (at most {@link MAX_ROUTED_CONFIG_BYTES}); otherwise only check it. */
  read: boolean;
  /** Time limit of the read (ms); default {@link ROUTED_READ_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** How messages name `cwd`; default "the server's working directory". */
  rootName?: string;
  /**
   * Folders a run writes ({@link runOutputRoots}): a file in one of them, or under an
   * `agent_outputs` or `.coord` folder below `cwd`, is refused (nothing a run wrote is loaded).
   */
  forbidden?: readonly string[];
}

/**
 * Checks (and reads) a file a request names.
 * @param name the file, relative to the working directory (or absolute, but then still under it).
 * @returns its real absolute path and, with `read`, its text.
 * @throws ApiError 400 `model_not_found` when it does not exist; 400 `model_not_allowed` when it
 *   resolves outside the working directory (`cwd`) or inside a folder runs write (`forbidden`), is
 *   not a regular file (a directory, FIFO, device), or is over the size limit; 400 `model_unreadable` when it cannot be read in time.
 */
export async function confinedFile(
  name: string,
  options: ConfinedFileOptions,
): Promise<{ path: string; text?: string }> {
  const what = `model ${JSON.stringify(options.model)}`;
  const rootName = options.rootName ?? "the server's working directory";
  const notAllowed = (why: string) =>
    invalidRequest(
      `${what}: ${why}; a request may only name regular files under ${rootName}, outside the folders runs write (or run coord serve --config FILE)`,
      "model",
      "model_not_allowed",
    );
  if (name.includes("\0") || name.length > 4096) throw notAllowed("not a usable file name");
  let root: string;
  let path: string;
  try {
    root = await realpath(options.cwd);
    path = await realpath(resolve(options.cwd, name));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw invalidRequest(`${what}: no such file under ${rootName}`, "model", "model_not_found");
    }
    throw notAllowed(`the file cannot be opened (${code ?? "error"})`);
  }
  const inside = relative(root, path);
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw notAllowed(`it is outside ${rootName}`);
  }
  const output =
    options.forbidden &&
    (insideRunOutput(path, options.forbidden, root) ??
      insideRunOutput(resolve(options.cwd, name), options.forbidden, resolve(options.cwd)));
  if (output) {
    throw notAllowed(
      `it is inside ${basename(output)}/, a folder coord's runs write (run logs, workspaces), and nothing a run wrote is ever loaded as a config`,
    );
  }
  // O_NONBLOCK: opening a FIFO without a writer returns at once instead of blocking a thread.
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw notAllowed(
      `the file cannot be opened (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw notAllowed(`it is a ${fileKind(stats)}, not a regular file`);
    if (!options.read) return { path };
    if (stats.size > MAX_ROUTED_CONFIG_BYTES) {
      throw notAllowed(`it is larger than ${MAX_ROUTED_CONFIG_BYTES} bytes`);
    }
    let bytes: Buffer;
    try {
      // Counted as read, not trusted from stat: a file that grows stops at the limit.
      bytes = await readAtMost(
        handle,
        MAX_ROUTED_CONFIG_BYTES + 1,
        AbortSignal.timeout(options.timeoutMs ?? ROUTED_READ_TIMEOUT_MS),
      );
    } catch {
      throw invalidRequest(
        `${what}: the file could not be read in time`,
        "model",
        "model_unreadable",
      );
    }
    if (bytes.length > MAX_ROUTED_CONFIG_BYTES) {
      throw notAllowed(`it is larger than ${MAX_ROUTED_CONFIG_BYTES} bytes`);
    }
    return { path, text: bytes.toString("utf8") };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw notAllowed("the file cannot be read");
  } finally {
    await handle.close();
  }
}
