/**
 * The read-only file tools that look at many files (docs/tools.md "File tools"): `list_directory`,
 * `find_files` (glob, through tinyglobby) and `search_files` (a regular expression over file
 * contents). Searches never follow symbolic links and skip the places the agent may not read.
 * `search_files` uses RE2 syntax through `re2js`, which matches in time linear in the text: no
 * pattern (`(a+)+$`) can stall coord. Files are read as ../regular-file.ts: special files are
 * skipped, never opened for a blocking read, and at most {@link MAX_SEARCHED_BYTES} is read.
 */
import { readdir, realpath, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { RE2JS } from "re2js";
import { glob } from "tinyglobby";
import { fileKind, readResolvedFile } from "../regular-file.js";
import { compileGlob } from "./glob-pattern.js";
import { isInside, type PathPolicy, ToolError } from "./path-policy.js";
import type { LocalTool } from "./tool.js";
import { optionalString, requiredString } from "./tool-input.js";

/** Entries listed, files found, and matching lines given back, at most. */
export const MAX_LISTED = 500;
export const MAX_MATCHES = 200;
/** Files larger than this are not searched (bytes). */
export const MAX_SEARCHED_BYTES = 1_000_000;

const FOLDER_DESCRIPTION =
  "The folder: relative to your workspace (or the first folder you were given), or absolute; default that first folder.";
const SEARCH_FOLDER_DESCRIPTION =
  "The folder to search: relative to your workspace (or the first folder you were given), or absolute; default every folder you may read.";

/** `list_directory`, `find_files` and `search_files` for one agent. */
export function fileSearchTools(policy: PathPolicy): LocalTool[] {
  return [listDirectoryTool(policy), findFilesTool(policy), searchFilesTool(policy)];
}

/** Folders inside `folder` the agent may not read, relative to it (glob ignore patterns). */
function hiddenInside(policy: PathPolicy, folder: string): string[] {
  return policy.roots
    .filter((root) => root.access === "none" && isInside(root.real, folder) && root.real !== folder)
    .map((root) => `${relative(folder, root.real)}/**`);
}

async function folderOf(
  policy: PathPolicy,
  tool: string,
  input: unknown,
  presenting: boolean,
): Promise<string> {
  const path = optionalString(tool, input, "path") ?? ".";
  const real = await policy.resolve(path, "read", presenting);
  const info = await stat(real).catch(() => undefined);
  if (info === undefined) throw new ToolError(`${path}: no such folder`);
  if (!info.isDirectory()) throw new ToolError(`${path} is a file: use read_file`);
  return real;
}

/** The folders a search covers: the one given, else every folder the agent may read. */
async function searchFolders(
  policy: PathPolicy,
  tool: string,
  input: unknown,
  presenting: boolean,
): Promise<string[]> {
  if (optionalString(tool, input, "path") !== undefined)
    return [await folderOf(policy, tool, input, presenting)];
  const folders: string[] = [];
  for (const root of policy.roots) {
    if (root.access === "none" || root.access === "protected") continue;
    const info = await stat(root.real).catch(() => undefined);
    if (info?.isDirectory()) folders.push(root.real);
  }
  return folders;
}

/**
 * Files matching `pattern` in each folder (absolute paths, each once, sorted). The folder is walked
 * by tinyglobby with the fixed pattern `**` (from the pattern's literal prefix when that is a real
 * folder, no link); the caller's pattern is matched in linear time by ./glob-pattern.ts.
 */
async function globAll(
  policy: PathPolicy,
  tool: string,
  folders: readonly string[],
  pattern: string,
  onlyFiles: boolean,
): Promise<string[]> {
  const matches = compileGlob(tool, pattern);
  const found = new Set<string>();
  for (const folder of folders) {
    let base = folder;
    let prefix = "";
    if (matches.prefix !== "") {
      const start = join(folder, matches.prefix);
      const real = await realpath(start).catch(() => undefined);
      if (real === undefined) continue;
      // A link in the prefix is not taken: the walk from the folder does not follow it either.
      if (real === start) [base, prefix] = [start, `${matches.prefix}/`];
    }
    const paths = await glob("**", {
      cwd: base,
      dot: true,
      followSymbolicLinks: false,
      expandDirectories: false,
      onlyFiles,
      ignore: hiddenInside(policy, base),
    });
    for (const path of paths) {
      const relativePath = prefix + path;
      if (matches(relativePath.endsWith("/") ? relativePath.slice(0, -1) : relativePath))
        found.add(join(folder, relativePath));
    }
  }
  return [...found].sort();
}

/** Refuses glob patterns that could climb out of the folder searched. */
function checkPattern(tool: string, pattern: string): void {
  if (pattern.startsWith("/") || pattern.split(/[\\/]+/).includes("..")) {
    throw new ToolError(
      `${tool}: the pattern must be relative to the folder searched, without \`..\``,
    );
  }
}

function listDirectoryTool(policy: PathPolicy): LocalTool {
  const name = "list_directory";
  return {
    spec: {
      name,
      description: "List a folder: each entry with its kind and size.",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string", description: FOLDER_DESCRIPTION } },
        additionalProperties: false,
      },
    },
    async execute(input, context) {
      const folder = await folderOf(policy, name, input, context.presenting);
      const hidden = policy.roots.filter((root) => root.access === "none");
      const entries = (await readdir(folder, { withFileTypes: true }))
        .filter((entry) => !hidden.some((root) => root.real === join(folder, entry.name)))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const lines: string[] = [];
      for (const entry of entries.slice(0, MAX_LISTED)) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) lines.push(`${entry.name}/`);
        else if (entry.isSymbolicLink()) lines.push(`${entry.name} (symbolic link)`);
        else {
          const info = await stat(path).catch(() => undefined);
          if (info === undefined) lines.push(entry.name);
          else if (info.isFile()) lines.push(`${entry.name} (${info.size} bytes)`);
          else lines.push(`${entry.name} (${fileKind(info)})`);
        }
      }
      if (entries.length > MAX_LISTED) lines.push(`… and ${entries.length - MAX_LISTED} more`);
      const title = `${policy.display(folder)}:`;
      return lines.length === 0 ? `${title} (empty)` : [title, ...lines].join("\n");
    },
  };
}

function findFilesTool(policy: PathPolicy): LocalTool {
  const name = "find_files";
  return {
    spec: {
      name,
      description:
        'Find files whose path matches a glob pattern (e.g. "**/*.ts", "src/*.md") inside a folder.',
      inputSchema: {
        type: "object",
        properties: {
          pattern: { type: "string", description: "Glob pattern, relative to the folder." },
          path: { type: "string", description: SEARCH_FOLDER_DESCRIPTION },
        },
        required: ["pattern"],
        additionalProperties: false,
      },
    },
    async execute(input, context) {
      const pattern = requiredString(name, input, "pattern");
      checkPattern(name, pattern);
      const folders = await searchFolders(policy, name, input, context.presenting);
      const found = await globAll(policy, name, folders, pattern, false);
      if (found.length === 0)
        return `No files match ${pattern} in ${folders.map(policy.display).join(", ")}`;
      const shown = found.slice(0, MAX_LISTED).map(policy.display);
      if (found.length > MAX_LISTED) shown.push(`… and ${found.length - MAX_LISTED} more`);
      return shown.join("\n");
    },
  };
}

/**
 * Compiles a `search_files` pattern with RE2 (linear-time matching).
 * @throws ToolError when RE2 cannot compile it (a backreference, lookaround, a syntax error).
 */
function compilePattern(tool: string, source: string): RE2JS {
  try {
    return RE2JS.compile(source);
  } catch (error) {
    throw new ToolError(
      `${tool}: the pattern is not a regular expression in RE2 syntax (${(error as Error).message}); search_files uses RE2, which has no backreferences (\\1) or lookaround ((?=…), (?<=…)) and matches in linear time`,
    );
  }
}

function searchFilesTool(policy: PathPolicy): LocalTool {
  const name = "search_files";
  return {
    spec: {
      name,
      description:
        "Search file contents for a regular expression; gives each matching line as path:line: text.",
      inputSchema: {
        type: "object",
        properties: {
          pattern: {
            type: "string",
            description:
              "A regular expression in RE2 syntax (as in Go or ripgrep: no backreferences or lookaround).",
          },
          path: { type: "string", description: SEARCH_FOLDER_DESCRIPTION },
          glob: {
            type: "string",
            description: 'Only files matching this glob pattern (default "**/*").',
          },
        },
        required: ["pattern"],
        additionalProperties: false,
      },
    },
    async execute(input, context) {
      const source = requiredString(name, input, "pattern");
      const regex = compilePattern(name, source);
      const filter = optionalString(name, input, "glob") ?? "**/*";
      checkPattern(name, filter);
      const folders = await searchFolders(policy, name, input, context.presenting);
      const files = await globAll(policy, name, folders, filter, true);
      const matches: string[] = [];
      let more = 0;
      for (const path of files) {
        context.signal.throwIfAborted();
        const info = await stat(path).catch(() => undefined);
        if (info === undefined || !info.isFile() || info.size > MAX_SEARCHED_BYTES) continue;
        // A link found inside the folder is read only if the policy allows its target.
        const real = await policy.resolve(path, "read", context.presenting).catch(() => undefined);
        if (real === undefined) continue;
        // Read as a regular file only, and never more than the limit (the file may have changed).
        const read = await readResolvedFile(real, {
          maxBytes: MAX_SEARCHED_BYTES,
          signal: context.signal,
        }).catch(() => undefined);
        context.signal.throwIfAborted();
        if (read === undefined || read.truncated) continue;
        const bytes = read.bytes;
        if (bytes.subarray(0, 8192).includes(0)) continue;
        for (const [index, line] of bytes.toString("utf8").split("\n").entries()) {
          if (!regex.test(line)) continue;
          if (matches.length < MAX_MATCHES) {
            matches.push(`${policy.display(path)}:${index + 1}: ${line.slice(0, 300)}`);
          } else more++;
        }
      }
      if (matches.length === 0)
        return `No line matches /${source}/ in ${folders.map(policy.display).join(", ")}`;
      if (more > 0) matches.push(`… and ${more} more matching lines`);
      return matches.join("\n");
    },
  };
}
