/**
 * The built-in file tools (docs/tools.md "File tools"): `read_file` (with a line range),
 * `write_file`, `edit_file` (exact string replacement), `delete_file`, plus the listing and search
 * tools of `./file-search-tools.ts`. Every path goes through the agent's {@link PathPolicy}; a
 * refusal is a tool error the model sees and leaves the files unchanged. Files are read and
 * written with `O_NOFOLLOW`, so a link put in place after the check is not followed, and
 * `O_NONBLOCK`: a FIFO, socket or device is refused, never waited on, and a read costs at most
 * its cap in bytes (../regular-file.ts).
 */
import { constants } from "node:fs";
import { mkdir, open, rm, rmdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import {
  fileKind,
  NotRegularFileError,
  readResolvedFile,
  type RegularFileContents,
} from "../regular-file.js";
import { fileSearchTools } from "./file-search-tools.js";
import { type PathPolicy, ToolError } from "./path-policy.js";
import type { LocalTool } from "./tool.js";
import { capText, optionalBoolean, optionalInteger, requiredString } from "./tool-input.js";

/** Characters of file text given back by one `read_file`. */
export const MAX_READ_CHARS = 100_000;
/** Bytes of a file read by `read_file` (a line range is looked for in these): 10 MiB. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;
/** Largest file `edit_file` changes (bytes): 10 MiB. */
export const MAX_EDIT_BYTES = 10 * 1024 * 1024;

const PATH_DESCRIPTION =
  "A path relative to your workspace (or the first folder you were given), or an absolute path inside a folder you may use.";

/**
 * The file tools of one agent, all judged by `policy`.
 * @param options.writable false when no folder can ever be written: only the reading tools.
 */
export function fileTools(policy: PathPolicy, options: { writable?: boolean } = {}): LocalTool[] {
  const reading = [readFileTool(policy), ...fileSearchTools(policy)];
  if (options.writable === false) return reading;
  return [
    readFileTool(policy),
    writeFileTool(policy),
    editFileTool(policy),
    ...fileSearchTools(policy),
    deleteFileTool(policy),
  ];
}

function readFileTool(policy: PathPolicy): LocalTool {
  const name = "read_file";
  return {
    spec: {
      name,
      description:
        "Read a text file. Optionally only lines start_line to end_line (1-based, inclusive).",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: PATH_DESCRIPTION },
          start_line: { type: "integer", minimum: 1, description: "First line to read." },
          end_line: { type: "integer", minimum: 1, description: "Last line to read." },
        },
        required: ["path"],
        additionalProperties: false,
      },
    },
    async execute(input, context) {
      const path = requiredString(name, input, "path");
      const start = optionalInteger(name, input, "start_line", 1);
      const end = optionalInteger(name, input, "end_line", 1);
      const real = await policy.resolve(path, "read", context.presenting);
      const read = await readForTool(path, real, MAX_READ_BYTES, context.signal);
      const { bytes, truncated, size } = read;
      if (bytes.subarray(0, 8192).includes(0)) {
        return `${policy.display(real)} is a binary file (${size} bytes).`;
      }
      const cut = truncated
        ? `\n… (only the first ${MAX_READ_BYTES} of its ${size} bytes were read)`
        : "";
      const text = bytes.toString("utf8");
      if (start === undefined && end === undefined) return capText(text, MAX_READ_CHARS) + cut;
      const lines = text.split("\n");
      const first = start ?? 1;
      const last = Math.min(end ?? lines.length, lines.length);
      if (first > lines.length) {
        throw new ToolError(
          `${path} has ${lines.length} lines${truncated ? ` in its first ${MAX_READ_BYTES} bytes` : ""}; start_line ${first} is past its end`,
        );
      }
      const body = lines.slice(first - 1, last).join("\n");
      return `(lines ${first}–${last} of ${lines.length})\n${capText(body, MAX_READ_CHARS)}${cut}`;
    },
  };
}

/**
 * Reads at most `maxBytes` of the resolved file `real` for a tool.
 * @param asGiven the path as the model gave it, for messages.
 * @param missing the message when it does not exist.
 * @throws ToolError when it does not exist, is a folder, a FIFO, socket or device, or a link put in
 *   place after the check; the signal's reason when the call is stopped.
 */
async function readForTool(
  asGiven: string,
  real: string,
  maxBytes: number,
  signal: AbortSignal,
  missing = `${asGiven}: no such file`,
): Promise<RegularFileContents> {
  try {
    return await readResolvedFile(real, { maxBytes, signal });
  } catch (error) {
    if (error instanceof NotRegularFileError) {
      throw new ToolError(
        error.kind === "directory"
          ? `${asGiven} is a folder: use list_directory`
          : `${asGiven} is a ${error.kind}, not a regular file; only regular files are read`,
      );
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new ToolError(missing);
    if (signal.aborted) throw error;
    throw new ToolError(`${asGiven}: ${(error as Error).message}`);
  }
}

/**
 * Writes `content` to `real`, creating its folders, never following a link at the file itself and
 * never waiting on (or truncating) a FIFO, socket or device put there.
 */
async function writeText(real: string, content: string): Promise<void> {
  await mkdir(dirname(real), { recursive: true });
  const handle = await open(
    real,
    constants.O_WRONLY | constants.O_CREAT | (constants.O_NONBLOCK ?? 0) | constants.O_NOFOLLOW,
    0o644,
  ).catch((error: NodeJS.ErrnoException) => {
    throw new ToolError(
      error.code === "ELOOP"
        ? "the file is a symbolic link; refused"
        : error.code === "ENXIO"
          ? "the file is a FIFO (named pipe) or socket, not a regular file; refused"
          : error.message,
    );
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new ToolError(`the file is a ${fileKind(info)}, not a regular file; refused`);
    }
    await handle.truncate(0);
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}

function writeFileTool(policy: PathPolicy): LocalTool {
  const name = "write_file";
  return {
    spec: {
      name,
      description:
        "Create or overwrite a text file with the given content (folders are created as needed).",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: PATH_DESCRIPTION },
          content: { type: "string", description: "The whole new content of the file." },
        },
        required: ["path", "content"],
        additionalProperties: false,
      },
    },
    async execute(input, context) {
      const path = requiredString(name, input, "path");
      const content = requiredString(name, input, "content");
      const real = await policy.resolve(path, "write", context.presenting);
      const info = await stat(real).catch(() => undefined);
      if (info?.isDirectory()) throw new ToolError(`${path} is a folder, not a file`);
      await writeText(real, content);
      return `Wrote ${Buffer.byteLength(content)} bytes to ${policy.display(real)}.`;
    },
  };
}

function editFileTool(policy: PathPolicy): LocalTool {
  const name = "edit_file";
  return {
    spec: {
      name,
      description:
        "Replace an exact string in a text file. old_string must occur exactly once unless replace_all is true.",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: PATH_DESCRIPTION },
          old_string: { type: "string", description: "The exact text to replace." },
          new_string: { type: "string", description: "The text to put in its place." },
          replace_all: { type: "boolean", description: "Replace every occurrence." },
        },
        required: ["path", "old_string", "new_string"],
        additionalProperties: false,
      },
    },
    async execute(input, context) {
      const path = requiredString(name, input, "path");
      const oldString = requiredString(name, input, "old_string");
      const newString = requiredString(name, input, "new_string");
      const all = optionalBoolean(name, input, "replace_all");
      if (oldString === "") throw new ToolError(`${name}: old_string may not be empty`);
      const real = await policy.resolve(path, "write", context.presenting);
      const read = await readForTool(
        path,
        real,
        MAX_EDIT_BYTES,
        context.signal,
        `${path}: no such file (use write_file to create it)`,
      );
      if (read.truncated) {
        throw new ToolError(
          `${path} is larger than ${MAX_EDIT_BYTES} bytes: too large for edit_file; nothing changed`,
        );
      }
      const text = read.bytes.toString("utf8");
      const count = text.split(oldString).length - 1;
      if (count === 0) throw new ToolError(`${path}: old_string was not found; nothing changed`);
      if (count > 1 && !all) {
        throw new ToolError(
          `${path}: old_string occurs ${count} times; give more context to make it unique, or set replace_all`,
        );
      }
      const updated = all
        ? text.split(oldString).join(newString)
        : text.replace(oldString, () => newString);
      await writeText(real, updated);
      return `Replaced ${all ? count : 1} occurrence${(all ? count : 1) === 1 ? "" : "s"} in ${policy.display(real)}.`;
    },
  };
}

function deleteFileTool(policy: PathPolicy): LocalTool {
  const name = "delete_file";
  return {
    spec: {
      name,
      description: "Delete a file, or a folder (a folder that is not empty needs recursive: true).",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: PATH_DESCRIPTION },
          recursive: { type: "boolean", description: "Delete a folder and everything in it." },
        },
        required: ["path"],
        additionalProperties: false,
      },
    },
    async execute(input, context) {
      const path = requiredString(name, input, "path");
      const recursive = optionalBoolean(name, input, "recursive");
      const real = await policy.resolve(path, "write", context.presenting);
      if (policy.roots.some((root) => root.real === real)) {
        throw new ToolError(`${path} is one of your folders itself; delete what is inside it`);
      }
      const info = await stat(real).catch(() => undefined);
      if (info === undefined) throw new ToolError(`${path}: no such file or folder`);
      const removal =
        info.isDirectory() && !recursive ? rmdir(real) : rm(real, { recursive: true });
      await removal.catch((error: NodeJS.ErrnoException) => {
        throw new ToolError(
          error.code === "ENOTEMPTY" || error.code === "EEXIST"
            ? `${path} is a folder that is not empty: pass recursive: true to delete it`
            : `${path}: ${error.message}`,
        );
      });
      return `Deleted ${policy.display(real)}.`;
    },
  };
}
