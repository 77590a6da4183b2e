/**
 * Turns a zod issue into "expected …, received …" text for config messages (CONTRIBUTING.md
 * rule 7).
 */
import type { z } from "zod";
import { MAX_TIMER_MS, MAX_TIMER_SECONDS } from "../clock.js";
import { editDistance } from "../edit-distance.js";
import type { KeyPath } from "./key-path.js";

/**
 * Describes one validation issue, e.g. `expected string, received number`,
 * `expected one of "lenient" | "balanced" | "strict", received "loose"`,
 * `received "balanced ": did you mean "balanced"? (expected one of …)` (a near miss first; with
 * more than six values, `(one of 23 values, listed in docs/config.md)` instead of the list),
 * `expected a number <= 2, received 3`, `expected object, but the key is missing`.
 *
 * @param root The value that was validated; the received value is looked up at `issue.path`.
 */
export function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  const received = valueAt(root, issue.path);
  const receivedText =
    received === undefined ? "but the key is missing" : `received ${describeValue(received)}`;
  switch (issue.code) {
    case "invalid_type":
      if (typeof received === "number" && !Number.isFinite(received)) {
        return `expected a finite number, received ${Number.isNaN(received) ? "NaN (.nan)" : `${received} (a number too large to represent, such as 1e309)`}`;
      }
      return received === undefined
        ? `expected ${typeName(issue.expected)}, but the key is missing`
        : `expected ${typeName(issue.expected)}, received ${describeType(received)}`;
    case "invalid_value": {
      const listed = issue.values.map((item) => JSON.stringify(item)).join(" | ");
      const near = typeof received === "string" ? nearMiss(received, issue.values) : undefined;
      if (near === undefined) {
        return `expected ${issue.values.length === 1 ? "" : "one of "}${listed}, ${receivedText}`;
      }
      // The near miss first; a long list (the 23 backend types) is left to the docs.
      const rest =
        issue.values.length <= MAX_LISTED_VALUES
          ? `expected one of ${listed}`
          : `one of ${issue.values.length} values, listed in docs/config.md`;
      return `${receivedText}: did you mean ${JSON.stringify(near)}? (${rest})`;
    }
    case "too_small":
      return `expected ${bound(issue.origin, issue.inclusive ? ">=" : ">", issue.minimum)}, ${receivedText}`;
    case "too_big": {
      const timer =
        issue.origin === "number" &&
        (Number(issue.maximum) === MAX_TIMER_SECONDS || Number(issue.maximum) === MAX_TIMER_MS)
          ? " (Node's timer limit, about 24.8 days)"
          : "";
      return `expected ${bound(issue.origin, issue.inclusive ? "<=" : "<", issue.maximum)}${timer}, ${receivedText}`;
    }
    case "invalid_union": {
      const expected = [
        ...new Set(
          issue.errors.flatMap((branch) =>
            branch.flatMap((inner) =>
              inner.code === "invalid_type" && inner.path.length === 0
                ? [typeName(inner.expected)]
                : [],
            ),
          ),
        ),
      ];
      return expected.length > 0
        ? `expected ${expected.join(" or ")}, ${received === undefined ? receivedText : `received ${describeType(received)}`}`
        : `${issue.message}, ${receivedText}`;
    }
    case "invalid_format":
      // A pattern's own message says what is expected (`expected a name of …`).
      return issue.format === "regex" && issue.message.startsWith("expected ")
        ? `${issue.message}, ${receivedText}`
        : issue.message;
    default:
      return issue.message;
  }
}

/** Enum values listed in full beside a near miss; longer lists are left to docs/config.md. */
const MAX_LISTED_VALUES = 6;

/**
 * The accepted string value closest to `received`: a different case, or a typo (at most a third
 * of its letters off, swaps of neighbours counting once), if any.
 */
export function nearMiss(received: string, values: readonly unknown[]): string | undefined {
  let best: { value: string; distance: number } | undefined;
  for (const value of values) {
    if (typeof value !== "string") continue;
    const distance = editDistance(received.toLowerCase(), value.toLowerCase());
    const allowed = Math.max(1, Math.floor(value.length / 3));
    if (distance <= allowed && (best === undefined || distance < best.distance)) {
      best = { value, distance };
    }
  }
  return best?.value;
}

function bound(origin: string, operator: string, limit: number | bigint): string {
  if (origin === "array") return `a list with ${operator} ${limit} item(s)`;
  if (origin === "string") return `a string with ${operator} ${limit} character(s)`;
  return `a number ${operator} ${limit}`;
}

function typeName(expected: string): string {
  return expected === "int" ? "integer" : expected;
}

/** The type of a YAML value as users know it: string, number, boolean, null, array, object. */
function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** A short rendering of a received value: `"loose"`, `3`, `array`. */
function describeValue(value: unknown): string {
  if (typeof value === "string") {
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  }
  if (typeof value === "number" || typeof value === "boolean" || value === null)
    return String(value);
  return describeType(value);
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** Converts a zod issue path (which may hold symbols) to a key path. */
export function issueKeyPath(issue: z.core.$ZodIssue): KeyPath {
  return issue.path.map((segment) => (typeof segment === "number" ? segment : String(segment)));
}
