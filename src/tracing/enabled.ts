/**
 * Whether a command traces its runs (spec sections 4.1 `--tracing` and 5.2): the flag, or the
 * environment variable `COORD_TRACING_ENABLED`. Kept apart from the OpenTelemetry modules, which
 * are only loaded once tracing is on.
 */
import { ConfigError } from "../errors.js";

/** The environment variable that turns tracing on without the flag. */
export const TRACING_ENV = "COORD_TRACING_ENABLED";

const TRUE = ["true", "1", "yes", "on"];
const FALSE = ["false", "0", "no", "off", ""];

/**
 * What turned tracing on: `"--tracing"`, `"COORD_TRACING_ENABLED"`, or undefined when it is off.
 * The flag wins; `COORD_TRACING_ENABLED` takes `true`/`1`/`yes`/`on` or `false`/`0`/`no`/`off`
 * (any case; empty or unset is off).
 * @param flag `--tracing` (true when given).
 * @param env the environment (with `~/.config/coord/.env` merged in).
 * @throws ConfigError when `COORD_TRACING_ENABLED` holds anything else.
 */
export function tracingEnabledBy(
  flag: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
): "--tracing" | typeof TRACING_ENV | undefined {
  if (flag === true) return "--tracing";
  const raw = env[TRACING_ENV];
  const value = (raw ?? "").trim().toLowerCase();
  if (TRUE.includes(value)) return TRACING_ENV;
  if (FALSE.includes(value)) return undefined;
  throw new ConfigError(
    `${TRACING_ENV}=${JSON.stringify(raw)}: use true or false (or unset it); docs/tracing.md`,
  );
}
