/**
 * Colour on or off for every display, decided once at start-up before any display module loads
 * (docs/scripting.md "Colour"): `--no-color` (anywhere before `--`, for every sub-command) and a
 * non-empty `NO_COLOR` (https://no-color.org) turn colour off; `FORCE_COLOR` (chalk's and Node's
 * convention) wins over `NO_COLOR` but not over `--no-color`.
 *
 * The displays colour through chalk (Ink) and picocolors (@clack/prompts), which read the
 * environment when they load: colour off sets `FORCE_COLOR=0` (chalk) and `NO_COLOR=1`
 * (picocolors). Child processes inherit the choice.
 */

/**
 * Applies the colour choice to `env` and returns `argv` without `--no-color` (commander never
 * sees it, so every sub-command accepts it).
 * @param argv the arguments after the program (`process.argv.slice(2)`).
 * @returns `{argv, color}`: color false when colour is off.
 */
export function applyColorChoice(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): { argv: string[]; color: boolean } {
  const end = argv.indexOf("--");
  const options = end < 0 ? argv : argv.slice(0, end);
  const flag = options.includes("--no-color");
  const kept = flag
    ? [...options.filter((arg) => arg !== "--no-color"), ...(end < 0 ? [] : argv.slice(end))]
    : [...argv];
  const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0";
  const off = flag || (env.NO_COLOR !== undefined && env.NO_COLOR !== "" && !forced);
  if (off) {
    env.FORCE_COLOR = "0";
    env.NO_COLOR = "1";
  }
  return { argv: kept, color: !off };
}
