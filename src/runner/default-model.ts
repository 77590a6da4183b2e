/**
 * The GGUF model `--backend local` runs when no `--model` is given: the tiny
 * stories260K model shipped in the package's `models/` folder (models/README.md gives its source
 * and MIT license). It writes children's stories, not answers: it makes the first command work
 * on a fresh machine, offline and without a key.
 */
import { join } from "node:path";
import { packageRoot } from "../config/index.js";

/** File name of the shipped model inside `models/`. */
export const DEFAULT_LOCAL_MODEL_NAME = "stories260K.gguf";

/**
 * The absolute path of the shipped model: `<package root>/models/stories260K.gguf`, found from
 * the source tree (tests) and from the built or installed CLI alike.
 *
 * @throws Error when coord's package.json cannot be found above this file (a broken install).
 */
export function defaultLocalModelPath(): string {
  return join(packageRoot(), "models", DEFAULT_LOCAL_MODEL_NAME);
}
