/**
 * Whole-number option parsers for commander (`--plan-steps`, `--port`, `--limit`, …). Only
 * commander is loaded here, so the root program can use them without slowing `coord --help`.
 */
import { InvalidArgumentError } from "commander";

function integerOption(flag: string, min: number, requirement: string) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min)
      throw new InvalidArgumentError(`${flag} must be ${requirement}`);
    return number;
  };
}

/** Parses an integer > 0; otherwise `<flag> must be an integer > 0`. */
export function positiveInteger(flag: string): (value: string) => number {
  return integerOption(flag, 1, "an integer > 0");
}

/** Parses an integer ≥ `min`; otherwise `<flag> must be an integer >= <min>`. */
export function integerAtLeast(flag: string, min: number): (value: string) => number {
  return integerOption(flag, min, `an integer >= ${min}`);
}
