/**
 * Logfire (https://logfire.pydantic.dev), the tracing backend MassGen users know, reached over
 * plain OTLP/HTTP: `POST <base URL>/v1/traces` with the project's write token as the
 * `Authorization` header. Where the token comes from, in order (as Logfire's own SDK does):
 *
 * 1. `LOGFIRE_TOKEN` (a project write token, `pylf_v1_<region>_…`);
 * 2. the project credentials file `<LOGFIRE_CREDENTIALS_DIR or .logfire>/logfire_credentials.json`
 *    in the working directory, which Logfire's CLI writes after `logfire auth` (the login, whose
 *    user token in `~/.logfire/default.toml` cannot write spans) with `logfire projects use
 *    <project>` or `logfire projects new`: `{"token", "project_name", "project_url",
 *    "logfire_api_url"}`.
 *
 * The base URL is the token's region (`pylf_v1_us_…` → `https://logfire-us.pydantic.dev`,
 * `pylf_v1_eu_…` → `https://logfire-eu.pydantic.dev`; tokens from before regions → US), unless
 * `LOGFIRE_BASE_URL` (Logfire's own override, used by the tests for a local receiver) says
 * otherwise. The credentials file's `logfire_api_url` is not used: a file in a checked-out
 * project must not choose where a token from the environment is sent.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ConfigError } from "../errors.js";

/** Logfire's regions and their base URLs. */
export const LOGFIRE_REGIONS: Readonly<Record<string, string>> = {
  us: "https://logfire-us.pydantic.dev",
  eu: "https://logfire-eu.pydantic.dev",
};

/** `pylf_v<version>_<region>_<secret>`, Logfire's write token format. */
const TOKEN_PATTERN = /^pylf_v[0-9]+_(?<region>[a-z]+)_[A-Za-z0-9]+$/;

/** The credentials file's name inside the credentials directory. */
export const LOGFIRE_CREDENTIALS_FILE = "logfire_credentials.json";

/** A Logfire write token and where it was found. */
export interface LogfireToken {
  token: string;
  /** `LOGFIRE_TOKEN`, or the credentials file's path. */
  source: string;
  /** The project's URL from the credentials file, when given (for messages). */
  projectUrl?: string;
}

/**
 * The base URL for a token: its region's, US for tokens without one or an unknown region (as
 * Logfire's SDK does).
 */
export function logfireBaseUrl(token: string): string {
  const region = TOKEN_PATTERN.exec(token)?.groups?.region ?? "us";
  return LOGFIRE_REGIONS[region] ?? LOGFIRE_REGIONS.us!;
}

/**
 * Finds the write token: `LOGFIRE_TOKEN`, else the credentials file.
 * @param env the environment (with `~/.config/coord/.env` merged in).
 * @param cwd the working directory the credentials directory is relative to.
 * @returns undefined when there is neither.
 * @throws ConfigError when `LOGFIRE_TOKEN` holds several tokens, or the credentials file exists
 *   but is not JSON with a `token` string (names the file and the command that rewrites it).
 */
export async function findLogfireToken(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<LogfireToken | undefined> {
  const fromEnv = (env.LOGFIRE_TOKEN ?? "").trim();
  if (fromEnv !== "") {
    if (fromEnv.includes(",")) {
      throw new ConfigError(
        "LOGFIRE_TOKEN holds several tokens (comma-separated): coord sends to one project, set one token",
      );
    }
    return { token: fromEnv, source: "LOGFIRE_TOKEN" };
  }
  const path = logfireCredentialsPath(env, cwd);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`, { file: path });
  }
  const fix = "run `logfire projects use <project>` here again, or set LOGFIRE_TOKEN";
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`${path} is not valid JSON: ${fix}`, { file: path });
  }
  const record = (data ?? {}) as Record<string, unknown>;
  if (typeof record.token !== "string" || record.token.trim() === "") {
    throw new ConfigError(`${path} has no "token": ${fix}`, { file: path });
  }
  const projectUrl = record.project_url ?? record.dashboard_url;
  return {
    token: record.token.trim(),
    source: path,
    ...(typeof projectUrl === "string" ? { projectUrl } : {}),
  };
}

/** `<LOGFIRE_CREDENTIALS_DIR or .logfire>/logfire_credentials.json`, resolved against `cwd`. */
export function logfireCredentialsPath(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  return join(resolve(cwd, env.LOGFIRE_CREDENTIALS_DIR || ".logfire"), LOGFIRE_CREDENTIALS_FILE);
}

/** True when Logfire's login (`logfire auth`) left its user tokens in `~/.logfire/default.toml`. */
export function logfireLoggedIn(home: string): boolean {
  return existsSync(join(home, ".logfire", "default.toml"));
}
