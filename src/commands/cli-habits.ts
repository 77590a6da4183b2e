/**
 * Flag checks and error shapes of the habits other LLM command lines taught (docs/scripting.md):
 * `--json-events` refused beside the outputs it cannot share stdout with, and every error as one
 * JSON object on stdout under `--json` (docs/scripting.md "Errors as JSON").
 */
import { ConfigError } from "../errors.js";

/**
 * Refuses `--json-events` beside another output or display of stdout, and without a question.
 * @throws ConfigError (exit 1) naming the clash.
 */
export function checkJsonEvents(
  options: Readonly<Record<string, unknown>>,
  hasQuestion: boolean,
): void {
  if (!options.jsonEvents) return;
  for (const [key, flag] of [
    ["json", "--json"],
    ["automation", "--automation"],
    ["web", "--web"],
  ] as const) {
    if (options[key])
      throw new ConfigError(
        `--json-events and ${flag} cannot be combined: both write stdout; pick one output`,
      );
  }
  if (!hasQuestion)
    throw new ConfigError('--json-events needs a question: coord --json-events "question"');
}

/** The JSON form of an error (docs/scripting.md "Errors as JSON"). */
export interface ErrorJson {
  error: {
    message: string;
    /** `config` (a coord usage or config error), `usage` (a flag commander refused), `internal`. */
    code: string;
    exit_code: number;
    /** For an error in a config file: the file, the key path, its line and column (1-based). */
    file?: string;
    path?: string;
    line?: number;
    column?: number;
  };
}

/**
 * Builds the JSON object of an error.
 * @param details the file position of a config error (ConfigError.details), when known.
 */
export function errorJson(
  message: string,
  code: string,
  exitCode: number,
  details: { file?: string; path?: string; line?: number; column?: number } = {},
): ErrorJson {
  return { error: { message, code, exit_code: exitCode, ...details } };
}

/** True when `argv` (after the program) asks for JSON output before a `--` terminator. */
export function wantsJson(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === "--") return false;
    if (arg === "--json") return true;
  }
  return false;
}

/** The `details` of a {@link ConfigError}, else none. */
export function errorDetails(error: unknown): ConfigError["details"] {
  return error instanceof ConfigError ? error.details : {};
}
