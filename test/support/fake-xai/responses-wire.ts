/**
 * xAI's Responses API wire format (`POST /v1/responses`, the API of xAI's server-side "agent
 * tools": web search, X search, code execution). The event sequence is OpenAI's (built by
 * `fake-openai/responses-wire.ts`) with xAI's differences applied by {@link xaiResponsesEvents}:
 *
 * - every output item carries a `status` (reasoning items included);
 * - a server tool call is a `web_search_call` / `code_interpreter_call` item with the sub-tool's
 *   `name`, its `arguments` as JSON text and a `call_id`; results come in the item's `action`
 *   (search sources) when it is done;
 * - usage adds `num_sources_used` and `num_server_side_tools_used`; `output_tokens` includes
 *   reasoning, as OpenAI's does.
 *
 * Shapes follow the zod `xaiResponsesChunkSchema` in `@ai-sdk/xai`
 * (`src/responses/xai-responses-api.ts`).
 */
import type { FakeReply } from "../fake-openai/fake-reply.js";
import { responsesEvents } from "../fake-openai/responses-wire.js";
import { isRecord, type CompleteUsage, type SseEvent } from "../fake-openai/wire-helpers.js";

/** The streamed events of one xAI Responses call. */
export function xaiResponsesEvents(
  reply: FakeReply,
  model: string,
  usage: CompleteUsage,
): SseEvent[] {
  const toolCalls = reply.providerToolCalls ?? [];
  return responsesEvents(reply, model, usage).map((event) => {
    if (!isRecord(event.data)) return event;
    const data: Record<string, unknown> = { ...event.data };
    if (isRecord(data.item)) data.item = xaiItem(data.item, event.event, toolCalls);
    if (isRecord(data.response)) data.response = xaiResponse(data.response, toolCalls);
    return { ...event, data };
  });
}

function xaiItem(
  item: Record<string, unknown>,
  eventType: string | undefined,
  toolCalls: NonNullable<FakeReply["providerToolCalls"]>,
): Record<string, unknown> {
  const done = eventType === "response.output_item.done";
  const status = done ? "completed" : "in_progress";
  if (item.type === "web_search_call" || item.type === "code_interpreter_call") {
    const call = toolCalls.find((candidate) =>
      item.type === "web_search_call"
        ? candidate.name === "web_search"
        : candidate.name === "code_execution",
    );
    return {
      ...item,
      status,
      name: item.type === "web_search_call" ? "web_search" : "code_execution",
      arguments: JSON.stringify(call?.input ?? {}),
      call_id: item.id,
    };
  }
  if (item.type === "function_call") return { ...item };
  return { status, ...item };
}

function xaiResponse(
  response: Record<string, unknown>,
  toolCalls: NonNullable<FakeReply["providerToolCalls"]>,
): Record<string, unknown> {
  const output = Array.isArray(response.output)
    ? response.output.map((item: unknown) =>
        isRecord(item) ? xaiItem(item, "response.output_item.done", toolCalls) : item,
      )
    : response.output;
  if (!isRecord(response.usage)) return { ...response, output };
  return {
    ...response,
    output,
    usage: {
      ...response.usage,
      num_sources_used: 0,
      num_server_side_tools_used: toolCalls.length,
    },
  };
}
