/**
 * API keys from `~/.config/coord/.env` merged under the environment (spec section 5
 * "Authentication": keys come from the environment and that file; the environment wins).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseEnv } from "node:util";
import { ConfigError } from "../errors.js";
import { registerEnvSecrets } from "../redact.js";

/** The `.env` file coord reads (and the setup wizard writes): `~/.config/coord/.env`. */
export function envFilePath(home: string): string {
  return join(home, ".config", "coord", ".env");
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
  const path = envFilePath(options.home);
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
