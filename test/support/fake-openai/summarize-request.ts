/**
 * Reading requests for fake-server handlers: {@link summarizeRequest} gives a provider-neutral view
 * (tools offered, system prompt, all prompt text, last item) of a Chat Completions, Responses,
 * Anthropic Messages or Gemini `generateContent` request body.
 */
import type { FakeRequest } from "./fake-reply.js";
import { isRecord } from "./wire-helpers.js";

/** A provider-neutral view of one model-call request, for handlers. */
export interface RequestSummary {
  api: "chat" | "responses" | "anthropic" | "gemini" | "other";
  model: string;
  /** Tools offered: name and JSON Schema of the input. */
  tools: { name: string; parameters: Record<string, unknown> }[];
  toolNames: string[];
  /** `tool_choice` as sent (string or object), if any. */
  toolChoice: unknown;
  /** The system prompt (`system`/`developer` messages or `instructions`). */
  system: string;
  /** All prompt text: system, messages, tool calls' arguments and tool results, joined by newlines. */
  text: string;
  /** Role or item type of the last message/input item (`user`, `tool`, `function_call_output`, …). */
  lastItem: string | undefined;
}

/**
 * Summarizes a Chat Completions, Responses, Anthropic Messages or Gemini request body (by path:
 * `…/chat/completions`, `…/responses`, `…/messages`, `…:generateContent` /
 * `…:streamGenerateContent`). Provider-executed tools (Anthropic `web_search_…`, Gemini
 * `googleSearch`) are not listed in `tools`.
 *
 * @param request a request received by the fake server.
 */
export function summarizeRequest(request: FakeRequest): RequestSummary {
  const { body } = request;
  const api = apiOf(request.path);
  const rawTools = (Array.isArray(body.tools) ? body.tools.filter(isRecord) : []).flatMap(
    (entry) =>
      Array.isArray(entry.functionDeclarations)
        ? entry.functionDeclarations.filter(isRecord)
        : [entry],
  );
  const tools = rawTools
    .map((entry) => {
      const fn = isRecord(entry.function) ? entry.function : entry;
      const parameters = isRecord(fn.parameters)
        ? fn.parameters
        : isRecord(fn.input_schema)
          ? fn.input_schema
          : undefined;
      return { name: typeof fn.name === "string" ? fn.name : "", parameters };
    })
    .filter((entry) => entry.parameters !== undefined || api === "chat" || api === "responses")
    .map((entry) => ({ name: entry.name, parameters: entry.parameters ?? {} }));
  const items: unknown[] = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.contents)
      ? body.contents
      : Array.isArray(body.input)
        ? body.input
        : typeof body.input === "string"
          ? [{ role: "user", content: body.input }]
          : [];
  const systemParts: string[] = typeof body.instructions === "string" ? [body.instructions] : [];
  if (body.system !== undefined) systemParts.push(collectStrings(body.system).join("\n"));
  if (isRecord(body.systemInstruction)) {
    systemParts.push(collectStrings(body.systemInstruction).join("\n"));
  }
  for (const item of items) {
    if (isRecord(item) && (item.role === "system" || item.role === "developer")) {
      systemParts.push(collectStrings(item.content).join("\n"));
    }
  }
  const last = items.at(-1);
  return {
    api,
    model: typeof body.model === "string" ? body.model : "",
    tools,
    toolNames: tools.map((entry) => entry.name),
    toolChoice: body.tool_choice,
    system: systemParts.join("\n"),
    text: [
      ...(typeof body.instructions === "string" ? [body.instructions] : []),
      ...(body.system !== undefined ? collectStrings(body.system) : []),
      ...(isRecord(body.systemInstruction) ? collectStrings(body.systemInstruction) : []),
      ...collectStrings(items),
    ].join("\n"),
    lastItem: isRecord(last)
      ? typeof last.role === "string"
        ? last.role
        : typeof last.type === "string"
          ? last.type
          : undefined
      : undefined,
  };
}

function apiOf(path: string): RequestSummary["api"] {
  if (path.endsWith("/chat/completions")) return "chat";
  if (path.endsWith("/responses")) return "responses";
  if (path.endsWith("/messages")) return "anthropic";
  if (/:(stream)?generateContent$/i.test(path)) return "gemini";
  return "other";
}

/** Every string value in a JSON value (keys `type`, `role`, `id`, `call_id` excluded), in order. */
function collectStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(collectStrings);
  if (!isRecord(value)) return [];
  return Object.entries(value)
    .filter(([key]) => !["type", "role", "id", "call_id", "tool_call_id"].includes(key))
    .flatMap(([, entry]) => collectStrings(entry));
}
