/**
 * How the `local` backend asks a model that cannot take tool schemas for a tool call: each tool's
 * input schema converted to node-llama-cpp's JSON-schema grammar subset, its strings capped so
 * the call fits the output cap; the tools described in the system prompt; and the grammar-forced
 * reply `{"tool": NAME, "arguments": {...}}` parsed back into a call.
 */
import type { ToolSpec } from "./backend.js";
import { parseToolInput } from "./tool-input.js";

/** A JSON Schema as a plain object (the subset node-llama-cpp's grammar accepts). */
export type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Converts a tool's input schema to node-llama-cpp's GBNF JSON-schema subset: strings capped at
 * `stringCap` characters, arrays at 3 items, objects closed and holding their `required`
 * properties (all properties when `required` is absent), `anyOf`/`oneOf`/type lists as `oneOf`,
 * unknown or `$ref` schemas as a short scalar.
 */
function toGrammarSchema(schema: Schema, stringCap: number): Schema {
  const description =
    typeof schema.description === "string" ? { description: schema.description } : {};
  const isPrimitive = (value: unknown) =>
    value === null || ["string", "number", "boolean"].includes(typeof value);
  if ("const" in schema && isPrimitive(schema.const))
    return { const: schema.const, ...description };
  if (Array.isArray(schema.enum) && schema.enum.length > 0 && schema.enum.every(isPrimitive)) {
    return { enum: schema.enum, ...description };
  }
  const variants = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(variants) && variants.some(isSchema)) {
    return {
      oneOf: variants.filter(isSchema).map((variant) => toGrammarSchema(variant, stringCap)),
      ...description,
    };
  }
  if (Array.isArray(schema.type)) {
    const oneOf = schema.type.map((type: unknown) =>
      toGrammarSchema({ ...schema, type, description: undefined }, stringCap),
    );
    return { oneOf, ...description };
  }
  const type = schema.type ?? (isSchema(schema.properties) ? "object" : undefined);
  switch (type) {
    case "string": {
      const maxLength = Math.min(
        typeof schema.maxLength === "number" ? schema.maxLength : stringCap,
        stringCap,
      );
      const minLength = Math.min(
        typeof schema.minLength === "number" ? schema.minLength : 0,
        maxLength,
      );
      return { type, ...(minLength > 0 ? { minLength } : {}), maxLength, ...description };
    }
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return { type, ...description };
    case "array": {
      const maxItems = Math.min(typeof schema.maxItems === "number" ? schema.maxItems : 3, 3);
      const minItems = Math.min(
        typeof schema.minItems === "number" ? schema.minItems : 0,
        maxItems,
      );
      const items = isSchema(schema.items)
        ? toGrammarSchema(schema.items, stringCap)
        : scalarSchema(stringCap);
      return { type, items, minItems, maxItems, ...description };
    }
    case "object": {
      const properties = isSchema(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : undefined;
      const kept = Object.entries(properties).filter(
        ([key, value]) => isSchema(value) && (required === undefined || required.includes(key)),
      );
      const converted = kept.map(([key, value]) => [
        key,
        toGrammarSchema(value as Schema, stringCap),
      ]);
      return {
        type,
        properties: Object.fromEntries(converted),
        additionalProperties: false,
        ...description,
      };
    }
    default:
      return { ...scalarSchema(stringCap), ...description };
  }
}

function scalarSchema(stringCap: number): Schema {
  return {
    oneOf: [{ type: "string", maxLength: stringCap }, { type: "number" }, { type: "boolean" }],
  };
}

/** Worst-case characters of a grammar schema's JSON, strings counted empty (1 token ≈ 1 char). */
function skeletonChars(schema: Schema): number {
  if ("const" in schema) return JSON.stringify(schema.const).length;
  if (Array.isArray(schema.enum))
    return Math.max(...schema.enum.map((value) => JSON.stringify(value).length));
  if (Array.isArray(schema.oneOf))
    return Math.max(...(schema.oneOf as Schema[]).map(skeletonChars));
  if (schema.type === "array")
    return 2 + Number(schema.maxItems) * (skeletonChars(schema.items as Schema) + 2);
  if (schema.type === "object") {
    const entries = Object.entries(schema.properties as Record<string, Schema>);
    return (
      12 + entries.reduce((sum, [key, value]) => sum + key.length + 14 + skeletonChars(value), 0)
    );
  }
  return { string: 2, number: 12, integer: 12, boolean: 5, null: 4 }[String(schema.type)] ?? 12;
}

/** How many strings one value of a grammar schema holds at most. */
function stringSlots(schema: Schema): number {
  if (Array.isArray(schema.oneOf)) return Math.max(...(schema.oneOf as Schema[]).map(stringSlots));
  if (schema.type === "string") return 1;
  if (schema.type === "array") return Number(schema.maxItems) * stringSlots(schema.items as Schema);
  if (schema.type === "object") {
    return Object.values(schema.properties as Record<string, Schema>).reduce(
      (sum, value) => sum + stringSlots(value),
      0,
    );
  }
  return 0;
}

/** Shortest string cap (characters) a tool call gets, even past the output cap. */
const MIN_STRING_CAP = 8;

/**
 * The grammar schema `{"tool": NAME, "arguments": ARGS}` for one tool, its strings capped so the
 * whole object fits in `maxTokens`, counting 1 token per character (measured: grammar-forced JSON
 * from stories260K is about that). When even {@link MIN_STRING_CAP}-character strings do not fit,
 * the returned `maxTokens` is raised to what they need: a call that cannot finish is worse.
 */
export function toolChoiceSchema(
  tool: ToolSpec,
  maxTokens: number,
): { schema: Schema; maxTokens: number } {
  const wrap = (args: Schema): Schema => ({
    type: "object",
    properties: { tool: { const: tool.name }, arguments: args },
    additionalProperties: false,
  });
  const probe = wrap(toGrammarSchema(tool.inputSchema, 0));
  const fixed = skeletonChars(probe) + 8; // 8: the grammar's closing newlines and slack
  const slots = Math.max(1, stringSlots(probe));
  const budget = Math.max(maxTokens, fixed + slots * MIN_STRING_CAP);
  const stringCap = Math.floor((budget - fixed) / slots);
  return { schema: wrap(toGrammarSchema(tool.inputSchema, stringCap)), maxTokens: budget };
}

/** A compact TypeScript-like rendering of a grammar schema, for the prompt. */
function describeSchema(schema: Schema): string {
  const note = (text: string) =>
    typeof schema.description === "string" ? `${text} /* ${schema.description} */` : text;
  if ("const" in schema) return note(JSON.stringify(schema.const));
  if (Array.isArray(schema.enum))
    return note(schema.enum.map((value) => JSON.stringify(value)).join(" | "));
  if (Array.isArray(schema.oneOf))
    return note((schema.oneOf as Schema[]).map(describeSchema).join(" | "));
  if (schema.type === "string")
    return note(`string (at most ${String(schema.maxLength)} characters)`);
  if (schema.type === "array") return note(`${describeSchema(schema.items as Schema)}[]`);
  if (schema.type === "object") {
    const entries = Object.entries(schema.properties as Record<string, Schema>);
    return note(
      `{${entries.map(([key, value]) => `${JSON.stringify(key)}: ${describeSchema(value)}`).join(", ")}}`,
    );
  }
  return note(String(schema.type));
}

/**
 * The grammar schema of a plain reply `{"reply": TEXT}`, offered next to the tools when the model
 * may answer without a tool (`toolChoice: auto`, e.g. a presenter with file tools).
 */
export function replyChoiceSchema(maxTokens: number): Schema {
  return {
    type: "object",
    properties: { reply: { type: "string", maxLength: Math.max(MIN_STRING_CAP, maxTokens - 16) } },
    additionalProperties: false,
  };
}

/**
 * The system-prompt section that offers the tools as one JSON reply.
 * @param reply the {@link replyChoiceSchema} choice, when the model may answer without a tool.
 */
export function describeTools(
  tools: readonly ToolSpec[],
  choices: readonly Schema[],
  reply?: Schema,
): string {
  const lines = tools.map((tool, index) => {
    const args = (choices[index]!.properties as Record<string, Schema>).arguments!;
    return `- ${tool.name}: ${tool.description}\n  {"tool": "${tool.name}", "arguments": ${describeSchema(args)}}`;
  });
  if (reply !== undefined) {
    lines.push(`- or answer without a tool:\n  ${describeSchema(reply)}`);
  }
  return [
    "Reply with exactly one JSON object that calls one of these tools, and nothing else:",
    ...lines,
  ].join("\n");
}

/** The text of a `{"reply": TEXT}` reply, or undefined when `text` is not one. */
export function parseReply(text: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return isSchema(parsed) && typeof parsed.reply === "string" ? parsed.reply : undefined;
  } catch {
    return undefined;
  }
}

/** A tool call as the JSON text the model is asked to write. */
export function toolCallText(toolName: string, input: unknown): string {
  return JSON.stringify({ tool: toolName, arguments: input });
}

/**
 * Parses a grammar-constrained reply into a call of one of `tools`, or undefined. A reply cut off
 * by the output cap (the grammar keeps it valid only up to there) is mended with `jsonrepair`
 * (`parseToolInput`) and the call marked `repaired`.
 */
export function parseToolChoice(
  text: string,
  tools: readonly ToolSpec[],
): { toolName: string; input: unknown; repaired?: true } | undefined {
  const { input: parsed, repaired, inputError } = parseToolInput(text);
  if (inputError !== undefined) return undefined;
  if (!isSchema(parsed) || typeof parsed.tool !== "string" || !isSchema(parsed.arguments))
    return undefined;
  if (!tools.some((tool) => tool.name === parsed.tool)) return undefined;
  return {
    toolName: parsed.tool,
    input: parsed.arguments,
    ...(repaired === true ? { repaired: true as const } : {}),
  };
}
