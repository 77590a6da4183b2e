/**
 * One problem the cross-key checks find (`./check-config.ts`, `./check-tool-config.ts`), in its
 * own file so the two checks share it without importing each other.
 */
import type { KeyPath } from "./key-path.js";

/** One problem: where (path in the validated config) and what ("expected …, received …"). */
export interface ConfigProblem {
  path: KeyPath;
  text: string;
}
