/**
 * The config reference (docs/config.md) and the JSON Schema for editors (config.schema.json),
 * both generated from the zod schema (CONTRIBUTING.md rules 8 and 13). `docs.test.ts` fails when
 * the committed files differ; regenerate with `npx vitest run src/config/docs.test.ts -u`.
 */
import { z } from "zod";
import { CHAT_PROVIDERS } from "./chat-providers.js";
import { PROVIDER_DESCRIPTORS } from "./provider-descriptors/index.js";
import { ConfigSchema } from "./schema.js";

/** A JSON Schema node, as far as the reference table reads it. */
interface JsonSchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: boolean | JsonSchemaNode;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}

/** One row of the reference table. */
interface ReferenceRow {
  path: string;
  type: string;
  required: boolean;
  default: string;
  description: string;
}

/**
 * The JSON Schema (draft 2020-12) of the config file as users write it: keys with defaults are
 * optional, unknown keys allowed (they are warnings). Not yet formatted: the caller pretty-prints.
 */
export function configJsonSchema(): Record<string, unknown> {
  const schema = inputJsonSchema();
  return {
    $schema: schema.$schema,
    title: "coord config",
    description:
      "The YAML config of coord (agents, orchestrator, timeouts, UI). Generated from src/config/schema.ts.",
    ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== "$schema")),
  };
}

/**
 * `z.toJSONSchema` of the config as written: `agents[].id` is optional there (the loader fills in
 * `agent_a`, `agent_b`, …), though the validated config always has it.
 */
function inputJsonSchema(): JsonSchemaNode & { $schema?: string } {
  const schema = z.toJSONSchema(ConfigSchema, { io: "input" }) as JsonSchemaNode & {
    $schema?: string;
  };
  const agent = schema.properties?.agents?.items;
  if (agent?.required !== undefined) agent.required = agent.required.filter((key) => key !== "id");
  return schema;
}

/** The JSON Schema as text: `JSON.stringify` with two-space indent and a final newline. */
export function renderConfigJsonSchema(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}

/** docs/config.md: an introduction, then one table row per key (dotted path, type, default, description). */
export function renderConfigReference(): string {
  const rows = referenceRows(inputJsonSchema(), "");
  const table = [
    "| key | type | default | description |",
    "|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| \`${row.path}\`${row.required ? " (required)" : ""} | ${cell(row.type)} | ${cell(row.default)} | ${cell(row.description)} |`,
    ),
  ];
  return [
    "# Configuration reference",
    "",
    "<!-- Generated from src/config/schema.ts by src/config/docs.ts; do not edit. -->",
    "<!-- Regenerate: npx vitest run src/config/docs.test.ts -u -->",
    "",
    "A config is a YAML file: `coord --config PATH`, or `--config @examples/NAME` for a built-in",
    "example. Without `--config`, coord reads `.coord/config.yaml`, then `~/.config/coord/config.yaml`.",
    "The JSON Schema for editors is `config.schema.json`.",
    "",
    "- Keys follow MassGen's, so MassGen configs run unchanged: every key coord does not read is one",
    "  warning with its position, dotted path and why — `unknown key agents[0].foo (ignored)` (with a",
    '  "did you mean" for a near miss, or for a key coord reads one level down or up:',
    "  `agents[0].append_system_prompt` → `agents[0].backend.append_system_prompt`), or for MassGen's",
    "  keys `not supported in coord: …`, `not needed in coord: …`, `use X instead`; a key the agent's",
    "  backend type does not read (`top_k` on `claude_code`, `reasoning.summary` on a Chat Completions",
    '  type) names the agent. A mistyped value names the near miss first (`received "votng": did you',
    '  mean "voting"?`). `coord --validate` lists them all. A single `agent:` is read as',
    "  `agents: [agent]`; agents without `id` get `agent_a`, `agent_b`, ….",
    "- MassGen types coord does not run (`ag2`, `codex`, `gemini_cli`, `inference`, …) are refused",
    "  with one line saying what to use instead.",
    "- `${VAR}` in a string value coord reads is the environment variable VAR (an error when unset);",
    "  `${VAR:-default}` falls back to `default` when VAR is unset or empty; `$${` is a literal `${`.",
    "  Variables come from the environment and `~/.config/coord/.env` (the environment wins). Keys",
    "  coord warns about are not expanded; `mcp_servers` entries expand when each server starts.",
    "  MassGen's `${cwd}` is the agent's workspace inside `mcp_servers`, coord's working directory",
    "  elsewhere.",
    "- A key written with no value (`ui:` and nothing under it) counts as absent.",
    "- Every run is bounded by its budget (`budget:`; `--max-calls`, `--max-tokens`, `--max-cost`",
    "  override the run-level keys): without one, at most 40 model calls per agent + 10 for the run",
    "  and 40 per agent. Every request sent counts as a call, failed ones and retries included.",
    "  Reaching a run limit ends the run the way the orchestrator timeout does: the best answer so",
    "  far is presented (exit 0) and the run says which limit ended it; an agent over its own limit",
    "  is removed.",
    "- `agents[].backend.model` is required for every backend type except `scripted` and",
    "  `claude_code` (Claude Code's default model).",
    "- Generation parameters (`temperature`, `top_p`, `top_k`, `max_tokens`, `frequency_penalty`,",
    "  `presence_penalty`, `seed`, `stop`, `reasoning_effort`, `extra_body`, `chat_template_kwargs`)",
    "  are sent to the provider where it takes them; elsewhere they are a warning naming the agent.",
    "- Prices and context windows come from the `@pydantic/genai-prices` package's bundled data",
    '  (docs/logs.md "Cost"); `agents[].backend.pricing` sets an agent\'s own (USD per million',
    "  tokens). A model the data lacks has an unknown cost (never 0 USD); `local` and `scripted`",
    "  cost 0 by definition.",
    ...providerKeyLines(),
    "",
    ...table,
    "",
  ].join("\n");
}

/**
 * The reference's lines on API keys and default base URLs, from the provider descriptors: each
 * type with its key variables (hosted Chat Completions types listed apart, with their base URL),
 * `chatcompletion` by host, and the local servers that need none.
 */
function providerKeyLines(): string[] {
  const own = PROVIDER_DESCRIPTORS.filter(
    (descriptor) =>
      descriptor.keyVariables.length > 0 && descriptor.implementation !== "hosted_chat",
  ).map((descriptor) => {
    const also = descriptor.alsoReads?.length ? ` (with ${descriptor.alsoReads.join(", ")})` : "";
    return `\`${descriptor.type}\` ${descriptor.keyVariables.join(" or ")}${also}`;
  });
  const byHost = PROVIDER_DESCRIPTORS.filter((descriptor) => descriptor.keyByHost).map(
    (descriptor) =>
      `\`${descriptor.type}\` by host (${CHAT_PROVIDERS.slice(0, 2)
        .map((provider) => provider.keyVariables[0])
        .join(", ")}, …)`,
  );
  const keyless = PROVIDER_DESCRIPTORS.filter(
    (descriptor) =>
      descriptor.implementation === "chat_completions" &&
      descriptor.keyVariables.length === 0 &&
      descriptor.keyByHost !== true,
  );
  return [
    ...wrap(
      [
        "- API keys: `api_key:` in the backend wins; else the environment (or `~/.config/coord/.env`):",
        [...own, "the types below as listed", ...byHost].join(" · ") + ".",
        "A missing key stops the run before any agent starts.",
      ].join(" "),
    ),
    ...wrap(
      `- Servers on this machine need no key; their default \`base_url\`: ${keyless
        .map((descriptor) => `\`${descriptor.type}\` ${descriptor.defaultBaseUrl ?? ""}`)
        .join(" · ")}.`,
    ),
    "- MassGen's hosted Chat Completions types, with their default `base_url` and key variables:",
    ...CHAT_PROVIDERS.map(
      (provider) =>
        `  - \`${provider.type}\` (${provider.label}): ${provider.baseUrl}, ${provider.keyVariables.join(" or ")}`,
    ),
  ];
}

/** `text` as list-item lines of at most 100 characters, continuation lines indented by two. */
function wrap(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = `  ${word}`;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}

/**
 * The rows of `node`'s keys, depth first. An object with the same keys as one already listed
 * (the persona generator's `backend`, a scripted `scripts[].steps[]`) is not listed again: its
 * row says which keys it shares.
 * @param listed the objects listed so far: their shape (keys and types) → their path.
 */
function referenceRows(
  node: JsonSchemaNode,
  path: string,
  listed = new Map<string, string>(),
): ReferenceRow[] {
  const required = new Set(node.required ?? []);
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) => {
    const childPath = path === "" ? key : `${path}.${key}`;
    const row: ReferenceRow = {
      path: childPath,
      type: typeText(child),
      required: required.has(key) && child.default === undefined,
      default: defaultText(child.default),
      description: child.description ?? "",
    };
    const object = child.items ?? child;
    const itemPath = child.items !== undefined ? `${childPath}[]` : childPath;
    if (object.properties !== undefined) {
      const shape = JSON.stringify({ ...object, description: undefined });
      const same = listed.get(shape);
      if (same !== undefined) {
        row.description = `${row.description} Same keys as \`${same}\`.`.trim();
        return [row];
      }
      listed.set(shape, itemPath);
    }
    return [row, ...referenceRows(object, itemPath, listed)];
  });
}

function typeText(node: JsonSchemaNode): string {
  if (node.enum !== undefined)
    return node.enum.map((value) => `\`${JSON.stringify(value)}\``).join(" | ");
  if (node.anyOf !== undefined) return node.anyOf.map(typeText).join(" or ");
  if (node.type === "array")
    return `list of ${node.items === undefined ? "any" : typeText(node.items)}`;
  if (node.type === "object" && node.properties === undefined) return "map";
  const base = Array.isArray(node.type) ? node.type.join(" or ") : (node.type ?? "any");
  const bounds = [
    isBound(node.minimum) ? `≥ ${node.minimum}` : "",
    isBound(node.exclusiveMinimum) ? `> ${node.exclusiveMinimum}` : "",
    isBound(node.maximum) ? `≤ ${node.maximum}` : "",
  ].filter((text) => text !== "");
  return bounds.length > 0 ? `${base} (${bounds.join(", ")})` : base;
}

/** A bound worth showing: set, and not just the safe-integer range zod adds to `.int()`. */
function isBound(value: number | undefined): value is number {
  return value !== undefined && Math.abs(value) !== Number.MAX_SAFE_INTEGER;
}

function defaultText(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value === "object" && value !== null && Object.keys(value).length > 0)
    return "see below";
  return `\`${JSON.stringify(value)}\``;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}
