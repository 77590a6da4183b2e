/**
 * The environment of `execute_command` (docs/tools.md "Commands"), built from an allow-list: a
 * command sees the locale, the terminal type, the user's name, `PATH`, its own `HOME` and
 * `TMPDIR`, and the variables the config names in `command_env`; nothing else of coord's
 * environment (no provider keys, no `GH_PAT`, no `DATABASE_URL`, nothing from
 * `~/.config/coord/.env`).
 */

/** Variables passed through by name. */
const ALLOWED_NAMES = new Set([
  "PATH",
  "LANG",
  "LANGUAGE",
  "TERM",
  "TZ",
  "USER",
  "LOGNAME",
  "SHELL",
  "COLORTERM",
  "NO_COLOR",
]);

/** Locale variables (`LC_ALL`, `LC_CTYPE`, …). */
const LOCALE_NAME = /^LC_[A-Z_]+$/;

/** The `PATH` when coord's environment has none. */
const DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin";

/** Options of {@link commandEnvironment}. */
export interface CommandEnvironmentOptions {
  /** `HOME` inside the command (the sandbox's private home, or the real one without sandbox). */
  home: string | undefined;
  /** `TMPDIR` inside the command; unset when undefined. */
  tmpdir?: string | undefined;
  /** `command_env`: more variable names to pass through (their values from `env`). */
  passEnv?: readonly string[];
}

/**
 * The environment a command gets: the allow-listed variables of `env` (PATH, LANG, LANGUAGE,
 * LC_*, TERM, TZ, USER, LOGNAME, SHELL, COLORTERM, NO_COLOR) and those named in
 * `options.passEnv`, with `HOME` and `TMPDIR` set from `options`. Unset variables are left out.
 */
export function commandEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  options: CommandEnvironmentOptions,
): Record<string, string> {
  const extra = new Set(options.passEnv ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (ALLOWED_NAMES.has(name) || LOCALE_NAME.test(name) || extra.has(name)) out[name] = value;
  }
  out.PATH ??= DEFAULT_PATH;
  if (options.home !== undefined) out.HOME = options.home;
  if (options.tmpdir !== undefined) out.TMPDIR = options.tmpdir;
  return out;
}
