/**
 * Names are not paths (docs/security.md "What coord promises in every mode"): a config value that
 * becomes one segment of a file path (an agent id, a workspace name, a session id) must be a safe
 * name, and every path built from one is checked to stay inside its folder ({@link childPath}), so
 * an agent id such as `../../../../tmp/victim` can neither pass `--validate` nor reach a file
 * outside the run.
 */
import { isAbsolute, join, relative, resolve, sep } from "node:path";

/** A safe name: a letter or digit, then up to 63 letters, digits, `.`, `_` or `-`. */
export const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What a safe name is, for messages. */
export const SAFE_NAME_RULE =
  "a name of 1-64 letters, digits, '.', '_' or '-' that starts with a letter or digit";

/** True when `name` is a safe single path segment ({@link SAFE_NAME}; never `.` or `..`). */
export function isSafeName(name: string): boolean {
  return SAFE_NAME.test(name) && name !== "." && name !== "..";
}

/** Thrown by {@link childPath} when a segment would leave its parent folder. */
export class UnsafePathError extends Error {
  constructor(
    readonly parent: string,
    readonly segments: readonly string[],
  ) {
    super(
      `refused path ${JSON.stringify(segments.join("/"))}: it leaves ${parent} (names must be ${SAFE_NAME_RULE})`,
    );
    this.name = "UnsafePathError";
  }
}

/**
 * `parent/segment/…`, checked to stay strictly inside `parent` (defense in depth behind the
 * config's name checks). Each segment must be non-empty, not absolute, not `.` or `..` and hold
 * no path separator; the joined path must resolve under `parent`.
 *
 * @param parent The folder (absolute or relative to the working directory).
 * @param segments One or more names, e.g. an agent id then `snapshots`.
 * @returns `join(parent, ...segments)` (relative when `parent` is).
 * @throws UnsafePathError when a segment is unsafe or the result leaves `parent`.
 */
export function childPath(parent: string, ...segments: string[]): string {
  for (const segment of segments) {
    if (
      segment === "" ||
      segment === "." ||
      segment === ".." ||
      segment.includes("/") ||
      segment.includes("\\") ||
      segment.includes("\0") ||
      isAbsolute(segment)
    ) {
      throw new UnsafePathError(parent, segments);
    }
  }
  const base = resolve(parent);
  const inside = relative(base, resolve(base, ...segments));
  if (inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
    throw new UnsafePathError(parent, segments);
  }
  return join(parent, ...segments);
}
