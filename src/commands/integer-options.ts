/**
 * Number option parsers for commander (`--plan-steps`, `--port`, `--limit`, `--replay-speed`). Only
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

/** Parses a finite number > 0 (`0.5`, `2`); otherwise `<flag> must be a number > 0`. */
export function positiveNumber(flag: string): (value: string) => number {
  return (value: string): number => {
    const number = Number(value);
    if (value.trim() === "" || !Number.isFinite(number) || number <= 0)
      throw new InvalidArgumentError(`${flag} must be a number > 0 (1 is real time)`);
    return number;
  };
}
