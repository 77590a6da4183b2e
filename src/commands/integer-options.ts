/**
 * Number option parsers for commander (`--plan-steps`, `--port`, `--limit`, `--replay-speed`, …).
 * Only commander (and the tiny clock module, for the timer limit) is loaded here, so the root
 * program can use them without slowing `coord --help`.
 */
import { InvalidArgumentError } from "commander";
import { MAX_TIMER_SECONDS } from "../clock.js";

/**
 * An integer option: digits only (an optional leading `+` or `-`), so `1e1`, `0x10`, `1.0` and
 * ` 7` are refused rather than read as 10, 16, 1 and 7.
 */
function integerOption(flag: string, min: number, max: number, requirement: string) {
  return (value: string): number => {
    const number = /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(number) || number < min || number > max)
      throw new InvalidArgumentError(
        `${flag} must be ${requirement}, not ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`,
      );
    return number;
  };
}

/** Parses an integer > 0; otherwise `<flag> must be an integer > 0`. */
export function positiveInteger(flag: string): (value: string) => number {
  return integerOption(flag, 1, Number.MAX_SAFE_INTEGER, "an integer > 0");
}

/** Parses an integer ≥ `min`; otherwise `<flag> must be an integer >= <min>`. */
export function integerAtLeast(flag: string, min: number): (value: string) => number {
  return integerOption(flag, min, Number.MAX_SAFE_INTEGER, `an integer >= ${min}`);
}

/** Parses a TCP port, 0–65535 (0: a free one). */
export function portNumber(flag: string): (value: string) => number {
  return integerOption(flag, 0, 65535, "a port number from 0 to 65535");
}

/**
 * Parses a duration in whole seconds from `min` up to Node's timer limit (2147483 s, about 24.8
 * days; a longer timer would fire at once).
 */
export function durationSeconds(flag: string, min: number): (value: string) => number {
  return integerOption(
    flag,
    min,
    MAX_TIMER_SECONDS,
    `a whole number of seconds from ${min} to ${MAX_TIMER_SECONDS} (Node's timer limit, about 24.8 days)`,
  );
}

/**
 * Parses a finite number > 0 (`0.5`, `2`); otherwise `<flag> must be a number > 0 (<note>)`.
 * @param note what the number means, for the message; default `1 is real time` (`--speed`).
 */
export function positiveNumber(flag: string, note = "1 is real time"): (value: string) => number {
  return (value: string): number => {
    const number = Number(value);
    if (value.trim() === "" || !Number.isFinite(number) || number <= 0)
      throw new InvalidArgumentError(`${flag} must be a number > 0 (${note})`);
    return number;
  };
}
