/**
 * A fake OpenAI server on 127.0.0.1 speaking the real wire formats (STYLE.md rules 6 and 12), so
 * backend tests run the real SDK clients over a real socket and never touch the network:
 *
 * - `POST /v1/chat/completions`: SSE `chat.completion.chunk` lines (text deltas, tool calls with
 *   id+name first and arguments split over several chunks, `reasoning_content` deltas, a final
 *   chunk with `finish_reason`, a usage chunk when `stream_options.include_usage`, `[DONE]`), or
 *   one `chat.completion` JSON object when `stream` is false;
 * - `POST /v1/responses`: the Responses API event sequence (`response.created` …
 *   `response.completed`, reasoning summaries, output text, function-call arguments), or one
 *   `response` object when `stream` is false;
 * - `GET /v1/models`: a one-model list; `GET /__requests`: the recorded requests as JSON (for
 *   tests that run the server as a separate process);
 * - errors: the reply's status with an OpenAI error body `{"error": {message, type, code}}` and
 *   optional `Retry-After` / `retry-after-ms` headers.
 *
 * Shapes follow the zod chunk schemas in `@ai-sdk/openai` (`responses/openai-responses-api.ts`)
 * and `@ai-sdk/openai-compatible` (`chat/openai-compatible-chat-language-model.ts`).
 *
 * Imports nothing from vitest: it is built into dist/ and run by end-to-end tests.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the server received it. */
export interface FakeRequest {
  method: string;
  /** Path without query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body (an empty object when there was none or it was not JSON). */
  body: Record<string, unknown>;
}

/** Token counts to report; absent counts are estimated (≈ 4 characters per token) or 0. */
export interface FakeUsage {
  inputTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
}

/** A tool call to stream. `arguments` is an object (JSON-encoded) or raw argument text. */
export interface FakeToolCall {
  name: string;
  arguments: Record<string, unknown> | string;
  /** Call id; default `call_<n>`. */
  id?: string;
}

/** What the server should answer to one request. */
export interface FakeReply {
  /** Reasoning streamed first (`reasoning_content` / reasoning summary). */
  reasoning?: string;
  /** Assistant text, streamed a word at a time. */
  text?: string;
  /** Tool calls streamed after the text. */
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  /**
   * Finish reason in the API's vocabulary (Chat Completions: `stop`, `tool_calls`, `length`,
   * `content_filter`; Responses: `max_output_tokens` or `content_filter` make it incomplete).
   * Default: `tool_calls` when there are tool calls, else `stop`.
   */
  finishReason?: string;
  /** Answer with an HTTP error instead. */
  error?: {
    status: number;
    message: string;
    /** Default: from the status (`invalid_request_error`, `rate_limit_error`, …). */
    type?: string;
    code?: string | null;
    /** `Retry-After` header value: seconds or an HTTP-date. */
    retryAfter?: string | number;
    /** `retry-after-ms` header value in milliseconds. */
    retryAfterMs?: number;
  };
  /** Send this error frame after the text, then end the stream (HTTP 200). */
  streamError?: { message: string; type?: string; code?: string | null };
  /** Wait this long (ms) before sending the response headers. */
  delayMs?: number;
  /** Wait this long (ms) between streamed events. */
  chunkDelayMs?: number;
  /** Cut the connection (no clean end) after this many streamed events. */
  dropAfterEvents?: number;
}

/** Decides the reply to one request. */
export type FakeHandler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

/** A running fake server. */
export interface FakeOpenAIServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:40123/v1`. */
  url: string;
  port: number;
  /** Every request received (model calls and others), in order. */
  requests: FakeRequest[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Starts a fake OpenAI server on 127.0.0.1.
 *
 * @param handler decides each model call's reply; an array plays its replies in order and answers
 *   HTTP 500 ("no scripted reply left") once they run out.
 * @param options.port port to listen on; default 0 (a free port).
 * @returns the server; call `close()` when done.
 */
export async function startFakeOpenAIServer(
  handler: FakeHandler | FakeReply[],
  options: { port?: number } = {},
): Promise<FakeOpenAIServer> {
  const decide = typeof handler === "function" ? handler : playInOrder(handler);
  const requests: FakeRequest[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: FakeRequest = {
        method: req.method ?? "GET",
        path: (req.url ?? "/").split("?")[0] ?? "/",
        headers: req.headers,
        body: parseBody(Buffer.concat(chunks).toString("utf8")),
      };
      void route(request, res).catch((error: unknown) => {
        if (!res.headersSent) {
          sendError(res, { status: 500, message: `fake server failure: ${String(error)}` });
        } else {
          res.destroy();
        }
      });
    });
  });

  async function route(request: FakeRequest, res: ServerResponse): Promise<void> {
    if (request.method === "GET" && request.path === "/__requests") {
      return sendJson(res, 200, requests);
    }
    requests.push(request);
    if (request.method === "GET" && request.path === "/v1/models") {
      return sendJson(res, 200, {
        object: "list",
        data: [{ id: "fake-model", object: "model", created: 0, owned_by: "coord" }],
      });
    }
    const api =
      request.path === "/v1/chat/completions"
        ? "chat"
        : request.path === "/v1/responses"
          ? "responses"
          : undefined;
    if (request.method !== "POST" || api === undefined) {
      return sendError(res, {
        status: 404,
        message: `Unknown request URL: ${request.method} ${request.path}`,
        code: "unknown_url",
      });
    }

    const reply = await decide(request);
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;
    if (reply.error) return sendError(res, reply.error);

    const model = typeof request.body.model === "string" ? request.body.model : "fake-model";
    const usage = completeUsage(reply, request.body);
    const stream = request.body.stream === true;
    if (api === "chat") {
      const includeUsage =
        isRecord(request.body.stream_options) && request.body.stream_options.include_usage === true;
      if (!stream) return sendJson(res, 200, chatCompletion(reply, model, usage));
      return sendEvents(res, chatCompletionEvents(reply, model, usage, includeUsage), reply);
    }
    if (!stream) return sendJson(res, 200, responsesObject(reply, model, usage).response);
    return sendEvents(res, responsesEvents(reply, model, usage), reply);
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading requests

/** A provider-neutral view of one model-call request, for handlers. */
export interface RequestSummary {
  api: "chat" | "responses" | "other";
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
 * Summarizes a Chat Completions or Responses request body.
 *
 * @param request a request received by the fake server.
 */
export function summarizeRequest(request: FakeRequest): RequestSummary {
  const { body } = request;
  const api =
    request.path === "/v1/chat/completions"
      ? "chat"
      : request.path === "/v1/responses"
        ? "responses"
        : "other";
  const rawTools = Array.isArray(body.tools) ? body.tools.filter(isRecord) : [];
  const tools = rawTools.map((entry) => {
    const fn = isRecord(entry.function) ? entry.function : entry;
    return {
      name: typeof fn.name === "string" ? fn.name : "",
      parameters: isRecord(fn.parameters) ? fn.parameters : {},
    };
  });
  const items: unknown[] = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.input)
      ? body.input
      : typeof body.input === "string"
        ? [{ role: "user", content: body.input }]
        : [];
  const systemParts: string[] = typeof body.instructions === "string" ? [body.instructions] : [];
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

/** Every string value in a JSON value (keys `type`, `role`, `id`, `call_id` excluded), in order. */
function collectStrings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(collectStrings);
  if (!isRecord(value)) return [];
  return Object.entries(value)
    .filter(([key]) => !["type", "role", "id", "call_id", "tool_call_id"].includes(key))
    .flatMap(([, entry]) => collectStrings(entry));
}

// ---------------------------------------------------------------------------------------------
// The coordination handler

/** Options of {@link coordinationHandler}. */
export interface CoordinationHandlerOptions {
  /** Content of `new_answer` calls. Default: `"The answer is 42."`. */
  answer?: string | ((summary: RequestSummary) => string);
  /** Whom to vote for: default `agent1`, or the first id the `vote` tool allows. */
  voteFor?: string;
  /** Reason given with votes. */
  reason?: string;
  /** Plain-text final answer when no tools are offered. */
  finalAnswer?: string | ((summary: RequestSummary) => string);
  /** Usage to report on every reply. */
  usage?: FakeUsage;
}

/** Prompt phrases that mean "no answers yet" (MassGen's and similar wordings). */
const NO_ANSWERS_PATTERN = /no answers (?:available |provided |submitted )?yet|\(no answers/i;

/**
 * A handler that plays a well-behaved coordinating agent:
 *
 * - no tools offered → plain text (the final presentation);
 * - `new_answer` offered and no answers to vote for → `new_answer({content})`;
 * - answers exist (the `vote` tool is offered with a non-empty `agent_id` enum, or without an
 *   enum, and the prompt does not say there are no answers yet) → `vote({agent_id, reason})`
 *   for `agent1` (or the first allowed id);
 * - other tools only → plain text.
 *
 * @param options texts and usage to use; all optional.
 */
export function coordinationHandler(options: CoordinationHandlerOptions = {}): FakeHandler {
  return (request) => {
    const summary = summarizeRequest(request);
    const usage = options.usage ? { usage: options.usage } : {};
    const offers = (name: string) => summary.toolNames.includes(name);

    const voteTool = summary.tools.find((entry) => entry.name === "vote");
    const allowed = voteTool ? agentIdEnum(voteTool.parameters) : undefined;
    const answersExist =
      voteTool !== undefined &&
      (allowed === undefined || allowed.length > 0) &&
      !NO_ANSWERS_PATTERN.test(summary.text);

    if (answersExist) {
      const preferred = options.voteFor ?? "agent1";
      const agentId =
        allowed === undefined || allowed.includes(preferred)
          ? preferred
          : (allowed[0] ?? preferred);
      return {
        toolCalls: [
          {
            name: "vote",
            arguments: {
              agent_id: agentId,
              reason: options.reason ?? `${agentId}'s answer is correct and complete.`,
            },
          },
        ],
        ...usage,
      };
    }
    if (offers("new_answer")) {
      const content =
        typeof options.answer === "function"
          ? options.answer(summary)
          : (options.answer ?? "The answer is 42.");
      return { toolCalls: [{ name: "new_answer", arguments: { content } }], ...usage };
    }
    const text =
      typeof options.finalAnswer === "function"
        ? options.finalAnswer(summary)
        : (options.finalAnswer ?? "Final answer: The answer is 42.");
    return { text, ...usage };
  };
}

/** The `enum` of a vote tool's `agent_id` property, if it has one. */
function agentIdEnum(parameters: Record<string, unknown>): string[] | undefined {
  const properties = isRecord(parameters.properties) ? parameters.properties : {};
  const agentId = isRecord(properties.agent_id) ? properties.agent_id : {};
  return Array.isArray(agentId.enum)
    ? agentId.enum.filter((value): value is string => typeof value === "string")
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// Chat Completions wire format

interface CompleteUsage {
  inputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  cachedInputTokens: number;
}

/** SSE events (JSON payloads; the string `[DONE]` last) of a streamed chat completion. */
function chatCompletionEvents(
  reply: FakeReply,
  model: string,
  usage: CompleteUsage,
  includeUsage: boolean,
): SseEvent[] {
  const base = {
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: CREATED_AT,
    model,
    system_fingerprint: "fp_fake",
  };
  const usageField = includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): SseEvent => ({
    data: {
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...usageField,
    },
  });

  const events: SseEvent[] = [chunk({ role: "assistant", content: "", refusal: null })];
  for (const piece of splitWords(reply.reasoning ?? "")) {
    events.push(chunk({ reasoning_content: piece }));
  }
  for (const piece of splitWords(reply.text ?? "")) events.push(chunk({ content: piece }));
  if (reply.streamError) {
    events.push({ data: { error: openAIErrorBody(500, reply.streamError).error } });
    return events;
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          {
            index,
            id: call.id ?? `call_${index + 1}`,
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    for (const piece of splitInto(argumentsText(call), 3)) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  events.push(chunk({}, finishReasonOf(reply)));
  if (includeUsage) {
    events.push({ data: { ...base, choices: [], usage: chatUsage(usage) } });
  }
  events.push({ data: "[DONE]" });
  return events;
}

/** A non-streamed `chat.completion` object. */
function chatCompletion(reply: FakeReply, model: string, usage: CompleteUsage): unknown {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${index + 1}`,
    type: "function",
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: CREATED_AT,
    model,
    system_fingerprint: "fp_fake",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: reply.text ?? null,
          refusal: null,
          ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(reply),
      },
    ],
    usage: chatUsage(usage),
  };
}

function chatUsage(usage: CompleteUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function finishReasonOf(reply: FakeReply): string {
  return reply.finishReason ?? ((reply.toolCalls ?? []).length > 0 ? "tool_calls" : "stop");
}

// ---------------------------------------------------------------------------------------------
// Responses API wire format

/**
 * The Responses API stream: `response.created`, `response.in_progress`, then per output item
 * `response.output_item.added` … `response.output_item.done` (reasoning summary parts, message
 * content parts with `response.output_text.delta`, function calls with
 * `response.function_call_arguments.delta`/`.done`), then `response.completed` (or
 * `response.incomplete`) with the usage.
 */
function responsesEvents(reply: FakeReply, model: string, usage: CompleteUsage): SseEvent[] {
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
function responsesObject(
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

// ---------------------------------------------------------------------------------------------
// HTTP plumbing

/** Fixed `created` timestamp (s) so recorded streams are reproducible. */
const CREATED_AT = 1_700_000_000;

interface SseEvent {
  /** `event:` line (Responses API); absent for Chat Completions. */
  event?: string;
  /** JSON payload, or a raw string such as `[DONE]`. */
  data: unknown;
}

async function sendEvents(
  res: ServerResponse,
  events: SseEvent[],
  reply: FakeReply,
): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const [index, event] of events.entries()) {
    if (res.destroyed) return;
    if (reply.dropAfterEvents !== undefined && index >= reply.dropAfterEvents) {
      // Let what was written reach the client, then cut the socket without ending the body.
      await new Promise<void>((resolve) => res.write("", () => resolve()));
      await sleep(20);
      res.socket?.destroy();
      return;
    }
    const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
    res.write(`${event.event ? `event: ${event.event}\n` : ""}data: ${data}\n\n`);
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  }
  res.end();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

function sendError(res: ServerResponse, error: NonNullable<FakeReply["error"]>): void {
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  if (error.retryAfterMs !== undefined) headers["retry-after-ms"] = String(error.retryAfterMs);
  const text = JSON.stringify(openAIErrorBody(error.status, error));
  res.writeHead(error.status, {
    ...headers,
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

/** OpenAI's error body: `{"error": {"message", "type", "param", "code"}}`. */
function openAIErrorBody(
  status: number,
  error: { message: string; type?: string; code?: string | null },
): { error: { message: string; type: string; param: null; code: string | null } } {
  const type =
    error.type ??
    (status === 401
      ? "invalid_request_error"
      : status === 429
        ? "rate_limit_error"
        : status >= 500
          ? "server_error"
          : "invalid_request_error");
  const code =
    error.code !== undefined
      ? error.code
      : status === 401
        ? "invalid_api_key"
        : status === 429
          ? "rate_limit_exceeded"
          : null;
  return { error: { message: error.message, type, param: null, code } };
}

function completeUsage(reply: FakeReply, body: Record<string, unknown>): CompleteUsage {
  const estimate = (text: string) => Math.max(1, Math.ceil(text.length / 4));
  const output = [
    reply.reasoning ?? "",
    reply.text ?? "",
    ...(reply.toolCalls ?? []).map(argumentsText),
  ].join("");
  return {
    inputTokens:
      reply.usage?.inputTokens ?? estimate(JSON.stringify(body.messages ?? body.input ?? "")),
    outputTokens: reply.usage?.outputTokens ?? estimate(output),
    reasoningTokens: reply.usage?.reasoningTokens ?? 0,
    cachedInputTokens: reply.usage?.cachedInputTokens ?? 0,
  };
}

function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

/** Splits text into words with their trailing spaces (`"a b"` → `["a ", "b"]`). */
function splitWords(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits text into `parts` pieces of about equal length (fewer when the text is shorter). */
function splitInto(text: string, parts: number): string[] {
  if (text === "") return [];
  const size = Math.ceil(text.length / parts);
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size)
    pieces.push(text.slice(start, start + size));
  return pieces;
}

function playInOrder(replies: FakeReply[]): FakeHandler {
  let next = 0;
  return () =>
    replies[next++] ?? {
      error: { status: 500, message: `fake server: no scripted reply left for call ${next}` },
    };
}

function parseBody(text: string): Record<string, unknown> {
  if (text.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
