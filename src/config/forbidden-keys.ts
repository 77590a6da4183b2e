/**
 * Keys a config may not use because JavaScript gives them a meaning on every object
 * (`__proto__`, `constructor`, `prototype`): a `__proto__:` under `backend:`
 * once reached the loader's lookups as the object's prototype ("reads is not a function", exit 2).
 * They are refused in the YAML document, before it becomes JavaScript objects, with the key's
 * position (CONTRIBUTING.md rule 7).
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Document } from "yaml";
import type { KeyPath } from "./key-path.js";

/** Map keys refused anywhere in a config. */
export const FORBIDDEN_KEYS: readonly string[] = ["__proto__", "constructor", "prototype"];

/** A forbidden key found in a document: where (its key path, the key last) and why. */
export interface ForbiddenKey {
  path: KeyPath;
  text: string;
}

/**
 * Finds the first map key of `doc` that is one of {@link FORBIDDEN_KEYS}, at any depth
 * (anchored nodes are searched where they are written; aliases are not followed).
 * @returns The key's path and the message, or undefined when there is none.
 */
export function findForbiddenKey(doc: Document): ForbiddenKey | undefined {
  return search(doc.contents, []);
}

function search(node: unknown, path: KeyPath): ForbiddenKey | undefined {
  if (isAlias(node) || node === null || node === undefined) return undefined;
  if (isMap(node)) {
    for (const item of node.items) {
      if (!isPair(item)) continue;
      const key = isScalar(item.key) ? String(item.key.value) : undefined;
      if (key !== undefined && FORBIDDEN_KEYS.includes(key)) {
        return {
          path: [...path, key],
          text: `key ${key} is not allowed (JavaScript reserves it on every object); rename or remove it`,
        };
      }
      const found =
        search(item.key, path) ?? search(item.value, key === undefined ? path : [...path, key]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isSeq(node)) {
    for (const [index, item] of node.items.entries()) {
      const found = search(item, [...path, index]);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
