/**
 * Maps a key path to a line and column of the YAML source, so messages can say
 * `file:line:col` (CONTRIBUTING.md rule 7).
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter } from "yaml";
import type { KeyPath } from "./key-path.js";

/** A 1-based position in the source text. */
export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * Finds where `path` is written in `doc`.
 *
 * @param path Key path in the document as written (not after MassGen normalization).
 * @param options.at `key`: the position of the last key (for unknown keys); `value` (default): the
 *   position of its value.
 * @returns The position of the path; when the path is not in the document (a missing key, or a
 *   key that came from a merge key), the position of the deepest ancestor that is, falling back to
 *   1:1.
 */
export function locateKeyPath(
  doc: Document,
  lineCounter: LineCounter,
  path: KeyPath,
  options: { at?: "key" | "value" } = {},
): SourcePosition {
  let node: unknown = doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (const [index, segment] of path.entries()) {
    if (isAlias(node)) node = node.resolve(doc);
    const isLast = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find(
        (item) => isScalar(item.key) && String(item.key.value) === String(segment),
      );
      if (pair === undefined) break;
      const keyStart = rangeStart(pair.key) ?? offset;
      node = pair.value;
      offset = isLast && options.at !== "key" ? (rangeStart(node) ?? keyStart) : keyStart;
    } else if (isSeq(node) && typeof segment === "number") {
      const item: unknown = node.items[segment];
      const start = rangeStart(item);
      if (start === undefined) break;
      node = item;
      offset = start;
    } else {
      break;
    }
  }
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

function rangeStart(node: unknown): number | undefined {
  if (typeof node !== "object" || node === null || !("range" in node)) return undefined;
  const range = (node as { range?: readonly number[] | null }).range;
  return range?.[0];
}
