/**
 * Applies the colour choice (`./color-env.ts`) to this process when imported: cli.ts imports it
 * first, so every display module loaded after it (chalk, picocolors) sees the choice.
 */
import { applyColorChoice } from "./color-env.js";

/** The command-line arguments after the program, without `--no-color`. */
export const startupArgv: readonly string[] = applyColorChoice(
  process.argv.slice(2),
  process.env,
).argv;
