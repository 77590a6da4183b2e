/**
 * Dotted key paths as users read them in messages: `agents[1].backend.model` (CONTRIBUTING.md
 * rule 7).
 */

/** A path into a config value: object keys and array indices, outermost first. */
export type KeyPath = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z_][\w-]*$/;

/**
 * Formats a key path: `["agents", 1, "backend", "model"]` → `agents[1].backend.model`. Keys that
 * are not plain identifiers are quoted (`extra["a.b"]`); the empty path is `(top level)`.
 */
export function formatKeyPath(path: KeyPath): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) text += text === "" ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text === "" ? "(top level)" : text;
}
