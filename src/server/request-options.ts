/**
 * The chat-completions fields besides `model`, `messages` and `stream` (no field
 * is accepted and silently ignored). What coord cannot serve is a 400 naming the parameter and
 * saying what it serves: `tools`, `functions`, a `tool_choice` / `function_call` other than
 * `none` / `auto`, `n` above 1, `logprobs: true`, `top_logprobs`, a `response_format` other than
 * `text`, `json_object` or `json_schema`. What it serves is read here: `response_format` (the
 * answer as JSON, `./structured-output.ts`) and the generation parameters `temperature`,
 * `max_tokens` / `max_completion_tokens` and `stop`, which reach every agent whose backend takes
 * them (`./generation-override.ts`). Other fields (`user`, `metadata`, `seed`, …) are accepted and
 * do not change the run (docs/server.md lists which).
 */
import { z } from "zod";
import { invalidRequest } from "./api-error.js";

/** `response_format`: the final answer is one JSON object, matching `schema` when given. */
export type ResponseFormat =
  | { type: "json_object" }
  | { type: "json_schema"; name: string; schema: Record<string, unknown>; validator: z.ZodType };

/** Generation parameters of the request, for every agent whose backend takes them. */
export interface GenerationRequest {
  /** 0 … 2. */
  temperature?: number;
  /** Output cap per model call, tokens (`max_tokens` or `max_completion_tokens`). */
  max_tokens?: number;
  /** Stop sequence(s). */
  stop?: string | string[];
}

/** What the request's optional fields ask of the run. */
export interface RequestOptions {
  responseFormat: ResponseFormat | undefined;
  generation: GenerationRequest;
  /**
   * The request field each generation key came from, where it is not the key itself
   * (`max_tokens` from `max_completion_tokens`), so errors name what the client sent.
   */
  generationFields: Partial<Record<keyof GenerationRequest, string>>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const present = (value: unknown) => value !== undefined && value !== null;

/** What coord serves instead of tool calls, for the messages of refused fields. */
const SERVES =
  "coord serve answers with its team's final answer as the assistant's text (one choice, no tool calls, no log probabilities)";

/**
 * Reads the optional fields of a chat request body.
 * @throws ApiError 400 `unsupported_parameter` (with `param`) for a field coord cannot serve;
 *   400 `invalid_type` / `invalid_value` for a served field of the wrong shape; 400
 *   `invalid_json_schema` when `response_format.json_schema.schema` cannot be checked.
 */
export function readRequestOptions(body: Record<string, unknown>): RequestOptions {
  const unsupported = (param: string, what: string) =>
    invalidRequest(`${param}: ${what} is not supported; ${SERVES}`, param, "unsupported_parameter");
  const hasTools = Array.isArray(body.tools) ? body.tools.length > 0 : present(body.tools);
  if (hasTools) throw unsupported("tools", "tool calling");
  const hasFunctions = Array.isArray(body.functions)
    ? body.functions.length > 0
    : present(body.functions);
  if (hasFunctions) throw unsupported("functions", "function calling");
  for (const param of ["tool_choice", "function_call"] as const) {
    const choice = body[param];
    if (present(choice) && choice !== "none" && choice !== "auto")
      throw unsupported(param, `${param} ${JSON.stringify(choice)}`);
  }
  if (present(body.n)) {
    if (typeof body.n !== "number" || !Number.isInteger(body.n) || body.n < 1)
      throw invalidRequest("n must be a positive integer", "n", "invalid_type");
    if (body.n > 1) throw unsupported("n", `n = ${body.n} (several choices)`);
  }
  if (present(body.logprobs) && body.logprobs !== false) throw unsupported("logprobs", "logprobs");
  if (present(body.top_logprobs)) throw unsupported("top_logprobs", "top_logprobs");
  return {
    responseFormat: readResponseFormat(body.response_format),
    ...readGeneration(body),
  };
}

function readResponseFormat(format: unknown): ResponseFormat | undefined {
  if (!present(format)) return undefined;
  const param = "response_format";
  if (!isRecord(format) || typeof format.type !== "string")
    throw invalidRequest(`${param} must be an object with a type`, param, "invalid_type");
  if (format.type === "text") return undefined;
  if (format.type === "json_object") return { type: "json_object" };
  if (format.type !== "json_schema") {
    throw invalidRequest(
      `${param}.type ${JSON.stringify(format.type)} is not supported: coord serves text, json_object and json_schema`,
      `${param}.type`,
      "unsupported_parameter",
    );
  }
  const spec = format.json_schema;
  if (!isRecord(spec) || !isRecord(spec.schema)) {
    throw invalidRequest(
      `${param}.json_schema must be an object with a schema (a JSON Schema object)`,
      `${param}.json_schema`,
      "invalid_type",
    );
  }
  let validator: z.ZodType;
  try {
    validator = z.fromJSONSchema(spec.schema);
  } catch (error) {
    const why = error instanceof Error ? `: ${error.message}` : "";
    throw invalidRequest(
      `${param}.json_schema.schema cannot be checked${why}`,
      `${param}.json_schema.schema`,
      "invalid_json_schema",
    );
  }
  const name = typeof spec.name === "string" && spec.name !== "" ? spec.name : "response";
  return { type: "json_schema", name, schema: spec.schema, validator };
}

function readGeneration(
  body: Record<string, unknown>,
): Pick<RequestOptions, "generation" | "generationFields"> {
  const generation: GenerationRequest = {};
  const generationFields: RequestOptions["generationFields"] = {};
  if (present(body.temperature)) {
    const value = body.temperature;
    if (typeof value !== "number" || !(value >= 0 && value <= 2))
      throw invalidRequest(
        "temperature must be a number from 0 to 2",
        "temperature",
        "invalid_value",
      );
    generation.temperature = value;
  }
  // Both are checked; max_completion_tokens (OpenAI's newer name) wins when both are sent.
  for (const param of ["max_completion_tokens", "max_tokens"] as const) {
    const value = body[param];
    if (!present(value)) continue;
    if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
      throw invalidRequest(`${param} must be a positive integer`, param, "invalid_value");
    if (generation.max_tokens !== undefined) continue;
    generation.max_tokens = value;
    if (param !== "max_tokens") generationFields.max_tokens = param;
  }
  if (present(body.stop)) {
    const stop = body.stop;
    const ok =
      typeof stop === "string" ||
      (Array.isArray(stop) && stop.every((item) => typeof item === "string"));
    if (!ok)
      throw invalidRequest("stop must be a string or an array of strings", "stop", "invalid_type");
    generation.stop = stop;
  }
  return { generation, generationFields };
}
