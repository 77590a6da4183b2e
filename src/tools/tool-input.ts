/**
 * Reading a tool's arguments: the model's JSON is not trusted, so each field is checked and a
 * wrong one is a {@link ToolError} the model can correct.
 */
import { ToolError } from "./path-policy.js";

function field(input: unknown, key: string): unknown {
  return input !== null && typeof input === "object"
    ? (input as Record<string, unknown>)[key]
    : undefined;
}

/** A required string argument. */
export function requiredString(tool: string, input: unknown, key: string): string {
  const value = field(input, key);
  if (typeof value !== "string") throw new ToolError(`${tool} needs "${key}" (a string).`);
  return value;
}

/** An optional string argument (undefined when absent or null). */
export function optionalString(tool: string, input: unknown, key: string): string | undefined {
  const value = field(input, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new ToolError(`${tool}: "${key}" must be a string.`);
  return value;
}

/** An optional whole number ≥ `min`. */
export function optionalInteger(
  tool: string,
  input: unknown,
  key: string,
  min: number,
): number | undefined {
  const value = field(input, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new ToolError(`${tool}: "${key}" must be a whole number ≥ ${min}.`);
  }
  return value;
}

/** An optional boolean (default false). */
export function optionalBoolean(tool: string, input: unknown, key: string): boolean {
  const value = field(input, key);
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new ToolError(`${tool}: "${key}" must be true or false.`);
  return value;
}

/** `text` cut to `max` characters, with a note saying how much was left out. */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… (${text.length - max} more characters cut)`;
}
