/**
 * Built-in example configs, addressed as `@examples/NAME` (spec section 2 "Configuration file":
 * the `.yaml` extension may be omitted). They live in the package's `examples/` folder.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../errors.js";

/** The prefix that names a built-in example. */
export const EXAMPLES_PREFIX = "@examples/";

let cachedPackageRoot: string | undefined;

/**
 * The folder holding coord's package.json: found by walking up from this file, so it works from
 * `src/config/` (tests) and from `dist/src/config/` (the built CLI, installed or not).
 *
 * @throws Error when no package.json named `coord` is found above this file (a broken install).
 */
export function packageRoot(): string {
  if (cachedPackageRoot !== undefined) return cachedPackageRoot;
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(folder, "package.json");
    if (existsSync(manifest) && readPackageName(manifest) === "coord") {
      cachedPackageRoot = folder;
      return folder;
    }
    const parent = dirname(folder);
    if (parent === folder)
      throw new Error("coord's package.json not found above " + import.meta.url);
    folder = parent;
  }
}

/** The absolute path of the built-in examples folder. */
export function examplesDir(): string {
  return join(packageRoot(), "examples");
}

/** The names of the built-in examples (file names without `.yaml`), sorted. */
export function listExamples(): string[] {
  return readdirSync(examplesDir())
    .filter((name) => name.endsWith(".yaml"))
    .map((name) => name.slice(0, -".yaml".length))
    .sort();
}

/**
 * Resolves a `--config` argument to an absolute file path. `@examples/NAME` and
 * `@examples/NAME.yaml` name a built-in example; anything else is a path relative to `cwd`.
 * Whether an ordinary path exists is checked when the file is loaded.
 *
 * @throws ConfigError when `@examples/NAME` names no built-in example (the message lists them).
 */
export function resolveConfigPath(arg: string, cwd: string): string {
  if (!arg.startsWith(EXAMPLES_PREFIX)) return resolve(cwd, arg);
  const name = arg.slice(EXAMPLES_PREFIX.length).replace(/\.yaml$/, "");
  const available = listExamples();
  if (!available.includes(name)) {
    throw new ConfigError(
      `unknown example ${JSON.stringify(arg)}: built-in examples are ${available
        .map((example) => EXAMPLES_PREFIX + example)
        .join(", ")}`,
      { file: arg },
    );
  }
  return join(examplesDir(), `${name}.yaml`);
}

function readPackageName(manifest: string): unknown {
  try {
    return (JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown }).name;
  } catch {
    return undefined;
  }
}
