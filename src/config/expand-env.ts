/**
 * `${VAR}` and `${VAR:-default}` expansion in config string values (the issue's "`${VAR}` expands
 * from the environment").
 */
import type { KeyPath } from "./key-path.js";

/** Environment variables: name → value (`undefined` = unset). */
export type EnvRecord = Readonly<Record<string, string | undefined>>;

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Returns a copy of `value` with every string expanded: `${VAR}` is the variable's value,
 * `${VAR:-default}` the value or, when the variable is unset or empty, `default`; `$${` is a
 * literal `${`. Keys are not expanded; numbers, booleans and null are kept.
 *
 * @param onMissing Called for `${VAR}` without a default when VAR is unset, with the key path of
 *   the string (in `value`) and the variable name: it throws, or returns the text to put in its
 *   place (the loader collects every missing variable before failing).
 * @param keep Subtrees left as written (expanded later, e.g. an MCP server's env when it starts).
 */
export function expandEnv(
  value: unknown,
  env: EnvRecord,
  onMissing: (path: KeyPath, variable: string) => string,
  path: KeyPath = [],
  keep: (path: KeyPath) => boolean = () => false,
): unknown {
  if (path.length > 0 && keep(path)) return value;
  if (typeof value === "string") {
    return value.replace(REFERENCE, (_match, name: string | undefined, fallback?: string) => {
      if (name === undefined) return "${";
      const current = env[name];
      if (fallback !== undefined)
        return current === undefined || current === "" ? fallback : current;
      return current ?? onMissing(path, name);
    });
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) =>
      expandEnv(item, env, onMissing, [...path, index], keep),
    );
  }
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        expandEnv(item, env, onMissing, [...path, key], keep),
      ]),
    );
  }
  return value;
}

/** True for `{…}` objects (what YAML mappings become), false for arrays, null and class instances. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * True for the path of an agent's `backend.mcp_servers` (`agents[i].backend.mcp_servers` or the
 * single `agent.backend.mcp_servers`): its `${VAR}`s expand when each server starts, so a missing
 * variable fails that server, not the whole config (docs/tools.md).
 */
export function isMcpServersPath(path: KeyPath): boolean {
  const rest = path[0] === "agents" ? path.slice(2) : path[0] === "agent" ? path.slice(1) : [];
  return rest.length === 2 && rest[0] === "backend" && rest[1] === "mcp_servers";
}
