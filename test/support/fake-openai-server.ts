/**
 * A fake OpenAI server on 127.0.0.1 speaking the real wire formats (CONTRIBUTING.md rules 6
 * and 12), so backend tests run the real SDK clients over a real socket and never touch the
 * network:
 *
 * - `POST /v1/chat/completions`: SSE `chat.completion.chunk` lines (text deltas, tool calls with
 *   id+name first and arguments split over several chunks, `reasoning_content` deltas, a final
 *   chunk with `finish_reason`, a usage chunk when `stream_options.include_usage`, `[DONE]`), or
 *   one `chat.completion` JSON object when `stream` is false;
 * - `POST /v1/responses`: the Responses API event sequence (`response.created` …
 *   `response.completed`, reasoning summaries, hosted `web_search_call` / `code_interpreter_call`
 *   items for `providerToolCalls`, output text, function-call arguments), or one `response`
 *   object when `stream` is false;
 * - `GET /v1/models`: a one-model list; `GET /__requests`: the recorded requests as JSON (for
 *   tests that run the server as a separate process);
 * - errors: the reply's status with an OpenAI error body `{"error": {message, type, code}}` and
 *   optional `Retry-After` / `retry-after-ms` headers.
 *
 * Shapes follow the zod chunk schemas in `@ai-sdk/openai` (`responses/openai-responses-api.ts`)
 * and `@ai-sdk/openai-compatible` (`chat/openai-compatible-chat-language-model.ts`).
 *
 * The wire formats live in `fake-openai/chat-completions-wire.ts` and
 * `fake-openai/responses-wire.ts`, the scripted agent in `fake-openai/coordination-handler.ts`;
 * this file is the HTTP side (routing, recording, SSE writing, errors) and re-exports the public
 * API.
 *
 * Imports nothing from vitest: it is built into dist/ and run by end-to-end tests.
 */
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { chatCompletion, chatCompletionEvents } from "./fake-openai/chat-completions-wire.js";
import type { FakeHandler, FakeReply, FakeRequest } from "./fake-openai/fake-reply.js";
import { responsesEvents, responsesObject } from "./fake-openai/responses-wire.js";
import {
  completeUsage,
  isRecord,
  openAIErrorBody,
  type SseEvent,
} from "./fake-openai/wire-helpers.js";

export {
  coordinationHandler,
  type CoordinationHandlerOptions,
} from "./fake-openai/coordination-handler.js";
export type {
  FakeHandler,
  FakeReply,
  FakeRequest,
  FakeToolCall,
  FakeUsage,
} from "./fake-openai/fake-reply.js";
export { summarizeRequest, type RequestSummary } from "./fake-openai/summarize-request.js";

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
 * @param options.alwaysStreamUsage stream usage without `stream_options` (Z.ai style).
 * @returns the server; call `close()` when done.
 */
export async function startFakeOpenAIServer(
  handler: FakeHandler | FakeReply[],
  options: {
    port?: number;
    /**
     * Stream Chat Completions usage even when the request has no `stream_options.include_usage`,
     * as Z.ai's GLM API does (coord sends it no `stream_options`). Default false.
     */
    alwaysStreamUsage?: boolean;
  } = {},
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
        options.alwaysStreamUsage === true ||
        (isRecord(request.body.stream_options) &&
          request.body.stream_options.include_usage === true);
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
// HTTP plumbing

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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
