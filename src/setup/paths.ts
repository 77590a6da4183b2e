/**
 * Paths as the wizard shows and reads them: `~/…` for files under the home directory.
 */
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** `path` as `~/…` when it is inside `home`, else unchanged. */
export function tildePath(path: string, home: string): string {
  const inside = relative(home, path);
  if (inside === "") return "~";
  if (inside.startsWith("..") || isAbsolute(inside)) return path;
  return `~${sep}${inside}`;
}

/** A typed path made absolute: `~/x` under `home`, a relative one against `cwd`. */
export function resolveTypedPath(typed: string, options: { cwd: string; home: string }): string {
  const trimmed = typed.trim();
  if (trimmed === "~") return options.home;
  if (trimmed.startsWith("~/")) return join(options.home, trimmed.slice(2));
  return resolve(options.cwd, trimmed);
}
