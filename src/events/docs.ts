/**
 * Renders docs/events.md, the event reference, from the zod schema (CONTRIBUTING.md rule 13: docs
 * come from code; `test/docs.test.ts` fails when the file drifts).
 */
import { z } from "zod";
import { coordEventSchema, EVENT_SCHEMA_VERSION } from "./events.js";

type JsonSchema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
};

function typeOf(schema: JsonSchema): string {
  if (schema.const !== undefined) return `\`${JSON.stringify(schema.const)}\``;
  if (schema.enum) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(" \\| ");
  if (schema.anyOf ?? schema.oneOf)
    return (schema.anyOf ?? schema.oneOf)!.map(typeOf).join(" \\| ");
  if (schema.type === "array") return `${schema.items ? typeOf(schema.items) : "unknown"}[]`;
  if (schema.type === "object" && schema.properties) {
    return `{${Object.keys(schema.properties).join(", ")}}`;
  }
  if (schema.type === "object" && typeof schema.additionalProperties === "object") {
    return `record of ${typeOf(schema.additionalProperties)}`;
  }
  if (Array.isArray(schema.type)) return schema.type.join(" \\| ");
  return schema.type ?? "any";
}

const ENVELOPE = new Set(["v", "seq", "time", "runId", "type"]);

/** The whole Markdown text of docs/events.md. */
export function renderEventReference(): string {
  const json = z.toJSONSchema(coordEventSchema(), { unrepresentable: "any" }) as JsonSchema;
  const members = json.oneOf ?? json.anyOf ?? [];
  const lines = [
    "# Events and log files",
    "",
    "<!-- Generated from src/events/events.ts by test/docs.test.ts (UPDATE_DOCS=1 to rewrite). -->",
    "",
    "The engine emits one stream of typed events; the run log `events.jsonl` is that stream, one",
    "JSON object per line, appended as it happens. Every event has the envelope",
    `\`{v, seq, time, runId, type, agentId?}\`: \`v\` is the schema version (now ${EVENT_SCHEMA_VERSION}; logs of`,
    "version 1 are read as version 2, and readers reject versions they do not know), `seq` counts",
    "from 1, `time` is ISO-8601 UTC, `agentId` is the real id of the agent the event is about.",
    "Durations (`*Ms`) are milliseconds; token counts are tokens. `status.json` and `metrics.json`",
    "are derived from the same events by one reducer.",
    "",
    "A round opens with `round-start` and closes with `round-end`. Streamed text, reasoning and the",
    "final answer come as blocks: `<kind>-start`, `<kind>-delta`…, `<kind>-end`, sharing a `blockId`",
    "unique in the run; every block opened is closed, however the model call ends.",
    "",
    "Before the first coordination round, planning calls (`round-start` of kind `plan`, `produces`",
    "`personas` or `subtasks`) give each agent a `persona` (`--personas`) and, in decomposition mode,",
    "a `subtask`; there an agent ends its work with `stop` (`cause: answer-cap` when the engine",
    "stopped it). See [coordination.md](coordination.md).",
    "",
  ];
  for (const member of members) {
    const properties = member.properties ?? {};
    const type = properties.type?.const as string;
    lines.push(`## \`${type}\``, "");
    const fields = Object.entries(properties).filter(([name]) => !ENVELOPE.has(name));
    if (fields.length === 0) {
      lines.push("No fields beyond the envelope.", "");
      continue;
    }
    lines.push("| field | type | required |", "|---|---|---|");
    const required = new Set(member.required ?? []);
    for (const [name, schema] of fields) {
      lines.push(`| \`${name}\` | ${typeOf(schema)} | ${required.has(name) ? "yes" : "no"} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
