/**
 * Which paths an agent may read and write (docs/tools.md "Permissions"): its workspace (read and
 * write), the other agents' snapshot copies (read), context paths (read; `write` ones writable
 * only by the agent presenting the final answer), protected paths (never writable), and places no
 * agent may look (the other agents' live workspaces).
 *
 * Every path is resolved through realpath before it is judged: `..` is refused outright, absolute
 * paths must land inside an allowed root, and a symbolic link that leads out of the roots is
 * refused. The deepest root holding a path decides its access, so a workspace inside a read-only
 * context path is still writable and a protected folder inside a writable one is not.
 */
import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, normalize, relative, sep } from "node:path";

/** How an agent may use a root. */
export type RootAccess =
  /** Nothing: not even read (another agent's live workspace). */
  | "none"
  | "read"
  | "write"
  /** Read; write only while presenting the final answer (a `write` context path). */
  | "present-write"
  /** Read; never written (a protected path). */
  | "protected";

/** A folder (or file) with its access, as given to {@link createPathPolicy}. */
export interface RootSpec {
  path: string;
  access: RootAccess;
  /** How the model is told about it: "your workspace", "context path". */
  label: string;
}

/** A root with its real path. */
export interface PathRoot extends RootSpec {
  /** The realpath of `path` (or, for a protected path that does not exist, its place). */
  real: string;
}

/** A refusal or failure whose message is given back to the model as the tool's error. */
export class ToolError extends Error {
  override name = "ToolError";
}

/** What an agent may reach on disk. */
export interface PathPolicy {
  /** Where relative paths start (the workspace, else the first context path). */
  readonly base: string;
  readonly roots: readonly PathRoot[];
  /**
   * Resolves a path the model gave, for reading or writing.
   * @param presenting true while the agent presents the final answer.
   * @returns the real absolute path (for a file still to be created: its real folder + its name).
   * @throws ToolError naming what is wrong: `..`, outside the roots, a symbolic link out, read-only,
   *   protected, or a `write` context path outside the final presentation.
   */
  resolve(path: string, mode: "read" | "write", presenting: boolean): Promise<string>;
  /** How to show a resolved path to the model: relative to {@link base} when inside it. */
  display: (real: string) => string;
}

/**
 * Creates the policy. Every root except protected ones must exist.
 * @param base where relative paths start; must be one of the roots.
 */
export async function createPathPolicy(options: {
  base: string;
  roots: readonly RootSpec[];
}): Promise<PathPolicy> {
  const roots: PathRoot[] = [];
  for (const root of options.roots) {
    roots.push({ ...root, real: await realOrPlace(root.path) });
  }
  const base = await realpath(options.base);
  const allowed = roots.filter((root) => root.access !== "none" && root.access !== "protected");
  const hasWorkspace = roots.some((root) => root.access === "write");
  const allowedList = () => allowed.map((root) => `${root.real} (${root.label})`).join(", ");

  const deepest = (path: string): PathRoot | undefined => {
    let best: PathRoot | undefined;
    for (const root of roots) {
      if (isInside(path, root.real) && (best === undefined || root.real.length > best.real.length))
        best = root;
    }
    return best;
  };

  return {
    base,
    roots,
    display: (real) => (isInside(real, base) ? relative(base, real) || "." : real),
    async resolve(path, mode, presenting) {
      if (typeof path !== "string" || path.trim() === "") {
        throw new ToolError("Give a path: a file or folder inside the folders you may use.");
      }
      if (path.includes("\0")) throw new ToolError("A path may not contain a NUL character.");
      if (path.split(/[\\/]+/).includes("..")) {
        throw new ToolError(
          `${path}: \`..\` is not allowed in paths; name the file inside one of: ${allowedList()}`,
        );
      }
      const lexical = isAbsolute(path) ? normalize(path) : join(base, path);
      const real = await realOrMissing(lexical, path);
      const root = deepest(real);
      if (root === undefined || root.access === "none") {
        const viaLink = deepest(lexical) !== undefined && lexical !== real;
        throw new ToolError(
          viaLink
            ? `${path}: a symbolic link that leads outside the folders you may use (to ${real}); refused`
            : `${path}: outside the folders you may use: ${allowedList()}`,
        );
      }
      if (mode === "read") return real;
      switch (root.access) {
        case "write":
          return real;
        case "present-write":
          if (presenting) return real;
          throw new ToolError(
            `${path}: only the agent presenting the final answer may write to ${root.real} (${root.label}); ${hasWorkspace ? "draft your changes in your workspace" : "describe your changes in your answer"}`,
          );
        case "protected":
          throw new ToolError(`${path}: ${root.real} is protected: it is never writable`);
        case "read":
          throw new ToolError(`${path}: ${root.real} (${root.label}) is read-only`);
      }
    },
  };
}

/** True when `path` is `root` or inside it (both absolute and normalized). */
export function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The realpath of `path`, or, when it does not exist, its realpath'd folder joined with its name. */
async function realOrPlace(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realOrPlace(parent), basename(path));
  }
}

/**
 * The realpath of `lexical`; for a path that does not exist yet, the realpath of its nearest
 * existing folder with the missing names appended (none of which exists, so none is a link).
 * @throws ToolError for a dangling symbolic link (writing through it would create its target).
 */
async function realOrMissing(lexical: string, asGiven: string): Promise<string> {
  try {
    return await realpath(lexical);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      throw new ToolError(`${asGiven}: ${(error as Error).message}`);
    const exists = await lstat(lexical).then(
      () => true,
      () => false,
    );
    if (exists) {
      throw new ToolError(`${asGiven}: a symbolic link to nothing (or out of reach); refused`);
    }
    const parent = dirname(lexical);
    if (parent === lexical) return lexical;
    return join(await realOrMissing(parent, asGiven), basename(lexical));
  }
}
