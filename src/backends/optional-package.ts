/**
 * Optional packages: the `claude_code` backend's `@anthropic-ai/claude-agent-sdk`
 * (with Claude Code's native binary, 378 MB on Linux x64) and the `local` backend's
 * `node-llama-cpp` are optional peer dependencies, so a default install of coord carries neither.
 * A config that needs one fails at backend creation with a one-line {@link ConfigError} naming
 * the package to install, and the package is imported only when an agent first runs.
 */
import { createRequire } from "node:module";
import { ConfigError } from "../errors.js";

/** The optional package each backend type needs. */
export const OPTIONAL_PACKAGES = {
  claude_code: "@anthropic-ai/claude-agent-sdk",
  local: "node-llama-cpp",
} as const;
export type OptionalBackend = keyof typeof OPTIONAL_PACKAGES;

/** Resolves a package name to a file (Node's `require.resolve` from coord's own folder). */
export type PackageResolver = (name: string) => string;

const defaultResolver: PackageResolver = (name) => createRequire(import.meta.url).resolve(name);

/** The one-line error for a backend whose optional package is not installed. */
export function missingPackageError(backend: OptionalBackend): ConfigError {
  const name = OPTIONAL_PACKAGES[backend];
  return new ConfigError(
    `the ${backend} backend needs the optional package ${name}, which is not installed: ` +
      `run \`npm install ${name}\` next to coord (\`npm install -g ${name}\` for a global coord)`,
    { path: "backend.type" },
  );
}

/** True when `error` says that the package `name` itself could not be found (not one of its files). */
export function isMissingPackage(error: unknown, name: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (code !== "ERR_MODULE_NOT_FOUND" && code !== "MODULE_NOT_FOUND") return false;
  return error.message.includes(`'${name}'`) || error.message.includes(`"${name}"`);
}

/**
 * Checks, without loading it, that the backend's optional package can be found from coord's
 * folder (a package present but exporting no CommonJS entry still counts as installed).
 * @throws ConfigError ({@link missingPackageError}) when it cannot.
 */
export function requireOptionalPackage(
  backend: OptionalBackend,
  resolve: PackageResolver = defaultResolver,
): void {
  try {
    resolve(OPTIONAL_PACKAGES[backend]);
  } catch (error) {
    if (isMissingPackage(error, OPTIONAL_PACKAGES[backend])) throw missingPackageError(backend);
  }
}

/**
 * Imports the backend's optional package through `importer` (a literal `import("…")`, so bundlers
 * and type checks see it).
 * @returns the module.
 * @throws ConfigError ({@link missingPackageError}) when the package is not installed; any other
 *   import failure as it is.
 */
export async function importOptionalPackage<T>(
  backend: OptionalBackend,
  importer: () => Promise<T>,
): Promise<T> {
  try {
    return await importer();
  } catch (error) {
    if (isMissingPackage(error, OPTIONAL_PACKAGES[backend])) throw missingPackageError(backend);
    throw error;
  }
}
