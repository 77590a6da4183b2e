/**
 * A tool call's JSON argument text as the {@link ToolCall} fields `input`, `repaired` and
 * `inputError` (docs/real-models.md): models send cut-off JSON (a reply stopped at the output cap),
 * a missing brace or quote, single quotes, a code fence. `jsonrepair` (a well-kept library)
 * mends what can be mended; the rest is reported as malformed JSON rather than guessed at.
 */
import { jsonrepair } from "jsonrepair";
import type { ToolCall } from "./backend.js";

/** The parsed arguments of one tool call. */
export type ToolInput = Pick<ToolCall, "input" | "repaired" | "inputError">;

/** Longest part of the raw text quoted in an `inputError` (characters). */
const QUOTE_CHARS = 80;

/**
 * Parses a tool call's argument text:
 *
 * - empty or blank: `{input: {}}` (a call with no arguments);
 * - valid JSON: `{input: value}`;
 * - malformed JSON that `jsonrepair` turns into an object: `{input: object, repaired: true}`;
 * - anything else (plain text, two objects, repaired into a non-object): `{input: text,
 *   inputError}` with the reason and the start of the text.
 */
export function parseToolInput(text: string): ToolInput {
  if (text.trim() === "") return { input: {} };
  try {
    return { input: JSON.parse(text) as unknown };
  } catch {
    // Not JSON as it stands: try to mend it below.
  }
  let reason: string;
  try {
    const repaired: unknown = JSON.parse(jsonrepair(text));
    if (isRecord(repaired)) return { input: repaired, repaired: true };
    reason = `the arguments are not a JSON object (read as ${describe(repaired)})`;
  } catch (error) {
    reason = `the arguments are not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  const quote = text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
  return { input: text, inputError: `${reason}: ${JSON.stringify(quote)}` };
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
