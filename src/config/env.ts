/**
 * API keys from `~/.config/coord/.env` merged under the environment (spec section 5
 * "Authentication": keys come from the environment and that file; the environment wins), and
 * written there by the setup wizard (spec section 1 "First-time setup wizard").
 */
import { mkdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parseEnv } from "node:util";
import { ConfigError } from "../errors.js";
import { registerEnvSecrets } from "../redact.js";
import { userConfigDir } from "./discovery.js";

/**
 * The `.env` file coord reads (and the setup wizard writes): `~/.config/coord/.env`, or
 * `$XDG_CONFIG_HOME/coord/.env` when that variable is set ({@link userConfigDir}).
 * @param env the environment to read `XDG_CONFIG_HOME` from (default: process.env).
 */
export function envFilePath(
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return join(userConfigDir(home, env), ".env");
}

/**
 * Reads `~/.config/coord/.env` (dotenv syntax, parsed by `util.parseEnv`) and merges it under
 * `env`: a variable set in `env` (even to an empty string) wins over the file. Neither input is
 * modified; the caller decides whether to copy the result into `process.env`.
 *
 * @param options.home The home directory (tests pass a temp dir).
 * @param options.env The real environment, usually `process.env`.
 * The values of secret-named variables (`*_API_KEY`, `*_TOKEN`, …) are registered with the
 * process's redactor (`src/redact.ts`), so no output path can print them.
 *
 * @returns The merged variables (unset ones left out). A missing file is not an error.
 * @throws ConfigError when the file exists but cannot be read.
 */
export async function loadEnvFiles(options: {
  home: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<Record<string, string>> {
  const path = envFilePath(options.home, options.env);
  let fromFile: Record<string, string | undefined> = {};
  try {
    fromFile = parseEnv(await readFile(path, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new ConfigError(`${path}: cannot read the .env file: ${(error as Error).message}`, {
        file: path,
      });
    }
  }
  const merged: Record<string, string> = {};
  for (const source of [fromFile, options.env]) {
    for (const [name, value] of Object.entries(source)) {
      if (value !== undefined) merged[name] = value;
    }
  }
  registerEnvSecrets(merged);
  return merged;
}

/** A variable name the `.env` file can hold. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An assignment line: `NAME=…` or `export NAME=…`, capturing the name. */
const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=/;

/**
 * `.env` text with `entries` set: the first line assigning each name is replaced, later ones are
 * dropped (so the file holds one value per name), names not there yet are appended; comments,
 * blank lines and other variables are kept as they were. Values are written bare when they are
 * plain (keys, URLs), else quoted, so that `util.parseEnv` reads back exactly `entries`.
 *
 * @throws ConfigError for a name that is not a variable name, or a value with a newline or with
 *   both kinds of quote (which the format cannot hold).
 */
export function mergeEnvText(existing: string, entries: Readonly<Record<string, string>>): string {
  const pending = new Map(
    Object.entries(entries).map(([name, value]) => [name, `${name}=${envValue(name, value)}`]),
  );
  for (const name of pending.keys()) {
    if (!VARIABLE_NAME.test(name)) throw new ConfigError(`${name}: not a variable name`);
  }
  const written = new Set<string>();
  const lines: string[] = [];
  const existingLines = existing === "" ? [] : existing.replace(/\r?\n$/, "").split(/\r?\n/);
  for (const line of existingLines) {
    const name = ASSIGNMENT.exec(line)?.[1];
    const replacement = name === undefined ? undefined : pending.get(name);
    if (name === undefined || replacement === undefined) {
      lines.push(line);
    } else if (!written.has(name)) {
      written.add(name);
      lines.push(replacement);
    }
  }
  for (const [name, line] of pending) if (!written.has(name)) lines.push(line);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

function envValue(name: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new ConfigError(`${name}: a value in .env cannot span lines`);
  if (/^[\w\-.:/+=~@,%]*$/.test(value)) return value;
  if (!value.includes("'")) return `'${value}'`;
  if (!value.includes('"')) return `"${value}"`;
  throw new ConfigError(`${name}: a value in .env cannot hold both ' and "`);
}

/**
 * Sets `entries` in `~/.config/coord/.env` (see {@link mergeEnvText}): the folder is created
 * (mode 0700) when missing, and the file is replaced atomically with mode 0600, so an interrupted
 * write leaves the old file and other users cannot read the keys.
 *
 * @returns the file's path.
 * @throws ConfigError when the file cannot be read or written (naming it), or for a bad entry.
 */
export async function writeEnvFile(options: {
  home: string;
  entries: Readonly<Record<string, string>>;
}): Promise<string> {
  const path = envFilePath(options.home);
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const existing = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return "";
      throw error;
    });
    // Imported here: a run reads `.env` files but never writes one, so the package (and its
    // signal-exit) stays off the way to a run's first model request.
    const { default: writeFileAtomic } = await import("write-file-atomic");
    await writeFileAtomic(path, mergeEnvText(existing, options.entries), { mode: 0o600 });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${path}: cannot write the .env file: ${(error as Error).message}`, {
      file: path,
    });
  }
  return path;
}
