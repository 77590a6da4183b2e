/**
 * `response_format` `json_object` / `json_schema` honoured: every agent is told
 * (in the system message the request adds to the run) to answer with one JSON object — matching
 * the schema when there is one — and the team's final answer is checked before it is sent: the
 * JSON is taken from the answer (the whole text, a fenced ```json block, or the outermost `{…}`),
 * parsed, and validated against the schema (zod's `z.fromJSONSchema`). The response's `content`
 * is that JSON text; an answer that is not valid is a 502 naming what is wrong, never prose.
 */
import { ApiError } from "./api-error.js";
import type { ResponseFormat } from "./request-options.js";

/** The instruction added to every agent's system message for `format`. */
export function formatInstruction(format: ResponseFormat): string {
  const base =
    "Output format (required by the caller): your answer must be exactly one JSON object and nothing else — no prose before or after it, no code fence.";
  if (format.type === "json_object") return base;
  return `${base} The object must be valid against this JSON Schema (named ${JSON.stringify(format.name)}):\n${JSON.stringify(format.schema, null, 2)}`;
}

/** The JSON text in an answer: the whole answer, a fenced block, or the outermost braces. */
function candidates(answer: string): string[] {
  const trimmed = answer.trim();
  const found = [trimmed];
  const fence = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(trimmed);
  if (fence) found.push(fence[1]!.trim());
  const start = trimmed.indexOf("{");
  const end = trimmed.lastIndexOf("}");
  if (start >= 0 && end > start) found.push(trimmed.slice(start, end + 1));
  return found;
}

/**
 * The final answer as the JSON text `format` asks for.
 * @param logs ` (run log: DIR)` or empty, appended to the error message.
 * @throws ApiError 502 `invalid_structured_output` when the answer holds no JSON object, or (for
 *   `json_schema`) its object does not match the schema (the message gives the first problems).
 */
export function structuredAnswer(answer: string, format: ResponseFormat, logs: string): string {
  let object: { text: string; value: unknown } | undefined;
  for (const text of candidates(answer)) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        object = { text, value };
        break;
      }
    } catch {
      // Not JSON: try the next candidate.
    }
  }
  const what =
    format.type === "json_object"
      ? "response_format json_object"
      : `response_format json_schema ${JSON.stringify(format.name)}`;
  if (object === undefined) {
    throw new ApiError(
      502,
      `the team's final answer is not a JSON object, as ${what} requires${logs}`,
      { code: "invalid_structured_output" },
    );
  }
  if (format.type === "json_schema") {
    const checked = format.validator.safeParse(object.value);
    if (!checked.success) {
      const problems = checked.error.issues
        .slice(0, 3)
        .map(
          (issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(root)"}: ${issue.message}`,
        )
        .join("; ");
      throw new ApiError(
        502,
        `the team's final answer does not match ${what}: ${problems}${logs}`,
        { code: "invalid_structured_output" },
      );
    }
  }
  return object.text;
}
