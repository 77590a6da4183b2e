/**
 * The Responses API wire format of the fake OpenAI server (`POST /v1/responses`): the event
 * sequence `response.created` … `response.completed` (reasoning summaries, output text,
 * function-call arguments, an `error` event for a scripted stream error), or one `response` object.
 *
 * Shapes follow `@ai-sdk/openai` (`responses/openai-responses-api.ts`).
 */
import type { FakeReply } from "./fake-reply.js";
import {
  argumentsText,
  CREATED_AT,
  openAIErrorBody,
  splitInto,
  splitWords,
  type CompleteUsage,
  type SseEvent,
} from "./wire-helpers.js";

/**
 * The Responses API stream: `response.created`, `response.in_progress`, then per output item
 * `response.output_item.added` … `response.output_item.done` (reasoning summary parts, message
 * content parts with `response.output_text.delta`, function calls with
 * `response.function_call_arguments.delta`/`.done`), then `response.completed` (or
 * `response.incomplete`) with the usage.
 */
export function responsesEvents(reply: FakeReply, model: string, usage: CompleteUsage): SseEvent[] {
  const { response, items } = responsesObject(reply, model, usage);
  const events: Record<string, unknown>[] = [];
  const inProgress = {
    ...response,
    status: "in_progress",
    output: [],
    usage: null,
    incomplete_details: null,
  };
  events.push({ type: "response.created", response: inProgress });
  events.push({ type: "response.in_progress", response: inProgress });

  for (const [outputIndex, item] of items.entries()) {
    const itemId = item.id as string;
    if (item.type === "reasoning") {
      const text = reply.reasoning ?? "";
      events.push({
        type: "response.output_item.added",
        output_index: outputIndex,
        item: { id: itemId, type: "reasoning", summary: [] },
      });
      const part = { type: "summary_text", text: "" };
      events.push({
        type: "response.reasoning_summary_part.added",
        item_id: itemId,
        output_index: outputIndex,
        summary_index: 0,
        part,
      });
      for (const piece of splitWords(text)) {
        events.push({
          type: "response.reasoning_summary_text.delta",
          item_id: itemId,
          output_index: outputIndex,
          summary_index: 0,
          delta: piece,
          obfuscation: "fake",
        });
      }
      events.push({
        type: "response.reasoning_summary_text.done",
        item_id: itemId,
        output_index: outputIndex,
        summary_index: 0,
        text,
      });
      events.push({
        type: "response.reasoning_summary_part.done",
        item_id: itemId,
        output_index: outputIndex,
        summary_index: 0,
        part: { type: "summary_text", text },
      });
      events.push({ type: "response.output_item.done", output_index: outputIndex, item });
    } else if (item.type === "message") {
      const text = reply.text ?? "";
      events.push({
        type: "response.output_item.added",
        output_index: outputIndex,
        item: {
          id: itemId,
          type: "message",
          status: "in_progress",
          content: [],
          role: "assistant",
        },
      });
      events.push({
        type: "response.content_part.added",
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        part: { type: "output_text", annotations: [], logprobs: [], text: "" },
      });
      for (const piece of splitWords(text)) {
        events.push({
          type: "response.output_text.delta",
          item_id: itemId,
          output_index: outputIndex,
          content_index: 0,
          delta: piece,
          logprobs: [],
          obfuscation: "fake",
        });
      }
      if (reply.streamError) break;
      events.push({
        type: "response.output_text.done",
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        text,
        logprobs: [],
      });
      events.push({
        type: "response.content_part.done",
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        part: { type: "output_text", annotations: [], logprobs: [], text },
      });
      events.push({ type: "response.output_item.done", output_index: outputIndex, item });
    } else if (item.type === "web_search_call" || item.type === "code_interpreter_call") {
      // Hosted tools (`providerToolCalls`): announced in progress, then done with their results.
      const pending =
        item.type === "web_search_call"
          ? { id: itemId, type: item.type, status: "in_progress" }
          : { ...item, status: "in_progress", code: null, outputs: null };
      events.push({ type: "response.output_item.added", output_index: outputIndex, item: pending });
      if (item.type === "code_interpreter_call") {
        const code = item.code as string;
        for (const piece of splitInto(code, 2)) {
          events.push({
            type: "response.code_interpreter_call_code.delta",
            item_id: itemId,
            output_index: outputIndex,
            delta: piece,
          });
        }
        events.push({
          type: "response.code_interpreter_call_code.done",
          item_id: itemId,
          output_index: outputIndex,
          code,
        });
      }
      events.push({ type: "response.output_item.done", output_index: outputIndex, item });
    } else if (item.type === "function_call") {
      const args = item.arguments as string;
      events.push({
        type: "response.output_item.added",
        output_index: outputIndex,
        item: { ...item, status: "in_progress", arguments: "" },
      });
      for (const piece of splitInto(args, 3)) {
        events.push({
          type: "response.function_call_arguments.delta",
          item_id: itemId,
          output_index: outputIndex,
          delta: piece,
          obfuscation: "fake",
        });
      }
      events.push({
        type: "response.function_call_arguments.done",
        item_id: itemId,
        output_index: outputIndex,
        arguments: args,
      });
      events.push({ type: "response.output_item.done", output_index: outputIndex, item });
    }
  }

  if (reply.streamError) {
    const body = openAIErrorBody(500, reply.streamError).error;
    events.push({ type: "error", code: body.code, message: body.message, param: null });
  } else {
    events.push({
      type: response.status === "incomplete" ? "response.incomplete" : "response.completed",
      response,
    });
  }
  return events.map((event, index) => ({
    event: event.type as string,
    data: { ...event, sequence_number: index },
  }));
}

/** The final `response` object and its output items. */
export function responsesObject(
  reply: FakeReply,
  model: string,
  usage: CompleteUsage,
): { response: Record<string, unknown>; items: Record<string, unknown>[] } {
  const items: Record<string, unknown>[] = [];
  if (reply.reasoning !== undefined) {
    items.push({
      id: "rs_fake_1",
      type: "reasoning",
      summary: [{ type: "summary_text", text: reply.reasoning }],
    });
  }
  (reply.providerToolCalls ?? []).forEach((call, index) => {
    if (call.name === "web_search") {
      const results = Array.isArray(call.result) ? call.result : [];
      items.push({
        id: call.id ?? `ws_fake_${index + 1}`,
        type: "web_search_call",
        status: "completed",
        action: {
          type: "search",
          query: typeof call.input.query === "string" ? call.input.query : "",
          sources: results.map((result) => ({ type: "url", url: result.url })),
        },
      });
    } else {
      const output = Array.isArray(call.result) ? { stdout: "" } : call.result;
      items.push({
        id: call.id ?? `ci_fake_${index + 1}`,
        type: "code_interpreter_call",
        status: "completed",
        container_id: "cntr_fake",
        code: typeof call.input.code === "string" ? call.input.code : "",
        outputs: [{ type: "logs", logs: output.stdout }],
      });
    }
  });
  if (reply.text !== undefined || (reply.toolCalls ?? []).length === 0) {
    items.push({
      id: "msg_fake_1",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", annotations: [], logprobs: [], text: reply.text ?? "" }],
    });
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    items.push({
      id: `fc_fake_${index + 1}`,
      type: "function_call",
      status: "completed",
      arguments: argumentsText(call),
      call_id: call.id ?? `call_${index + 1}`,
      name: call.name,
    });
  });
  const incompleteReason =
    reply.finishReason === "max_output_tokens" || reply.finishReason === "content_filter"
      ? reply.finishReason
      : undefined;
  return {
    items,
    response: {
      id: "resp_fake",
      object: "response",
      created_at: CREATED_AT,
      status: incompleteReason ? "incomplete" : "completed",
      error: null,
      incomplete_details: incompleteReason ? { reason: incompleteReason } : null,
      model,
      output: items,
      parallel_tool_calls: true,
      tool_choice: "auto",
      tools: [],
      usage: {
        input_tokens: usage.inputTokens,
        input_tokens_details: { cached_tokens: usage.cachedInputTokens },
        output_tokens: usage.outputTokens,
        output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
        total_tokens: usage.inputTokens + usage.outputTokens,
      },
    },
  };
}
