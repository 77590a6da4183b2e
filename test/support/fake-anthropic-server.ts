/**
 * A fake Anthropic API on 127.0.0.1 speaking the real Messages wire format (CONTRIBUTING.md rules 6
 * and 12), so the `claude` backend (`@ai-sdk/anthropic`) and Claude Code (`ANTHROPIC_BASE_URL`) run
 * against it over a real socket:
 *
 * - `POST /v1/messages` (any query, e.g. Claude Code's `?beta=true`): with `"stream": true` the
 *   SSE event sequence (`message_start` … `message_stop`: thinking with a signature, server tool
 *   use and its result block, text a word at a time, `tool_use` with `input_json_delta` pieces,
 *   `message_delta` with `stop_reason` and usage); otherwise one `message` object;
 * - `POST /v1/messages/count_tokens`: `{"input_tokens": N}` (≈ 4 characters per token);
 * - `GET /v1/models`: a one-model list; `GET /__requests`: the recorded requests as JSON;
 * - errors: the reply's status with `{"type": "error", "error": {type, message}}`, a `request-id`
 *   header and optional `retry-after` / `retry-after-ms`; in-stream errors as an `error` event;
 * - `reply.sse`: a recorded SSE body replayed as is (fixtures in `test/fixtures/wire/anthropic/`).
 *
 * The API is shared with the `claude_code` backend's tests: keep it backward compatible.
 * Imports nothing from vitest: it is built into dist/ and run by end-to-end tests.
 */
import type { ServerResponse } from "node:http";
import {
  anthropicErrorBody,
  messageObject,
  messagesEvents,
} from "./fake-anthropic/messages-wire.js";
import {
  parseSse,
  readWireFixture,
  retryHeaders,
  sendEvents,
  sendJson,
  sleep,
  startFakeHttpServer,
  toHandler,
} from "./fake-http.js";
import type { FakeHandler, FakeReply, FakeRequest } from "./fake-openai/fake-reply.js";
import { completeUsage } from "./fake-openai/wire-helpers.js";

export { coordinationHandler, type CoordinationHandlerOptions } from "./fake-openai-server.js";
export type {
  FakeHandler,
  FakeProviderToolCall,
  FakeReply,
  FakeRequest,
  FakeToolCall,
  FakeUsage,
} from "./fake-openai/fake-reply.js";
export { summarizeRequest, type RequestSummary } from "./fake-openai/summarize-request.js";
export { anthropicErrorBody, messageObject, messagesEvents };

/** A running fake Anthropic server. */
export interface FakeAnthropicServer {
  /** Base URL including `/v1`, for `@ai-sdk/anthropic` (`base_url:`): `http://127.0.0.1:P/v1`. */
  url: string;
  /** Origin without a path, for `ANTHROPIC_BASE_URL` (Claude Code, the official SDK). */
  origin: string;
  port: number;
  /** Every request received (model calls and others), in order. */
  requests: FakeRequest[];
  /** The `POST /v1/messages` requests only (the model calls), in order. */
  modelCalls(): FakeRequest[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Starts a fake Anthropic server on 127.0.0.1.
 *
 * @param handler decides each model call's reply; an array plays its replies in order and answers
 *   HTTP 500 (`api_error`, "no scripted reply left") once they run out.
 * @param options.port port to listen on; default 0 (a free port).
 * @returns the server; call `close()` when done.
 */
export async function startFakeAnthropicServer(
  handler: FakeHandler | FakeReply[],
  options: { port?: number } = {},
): Promise<FakeAnthropicServer> {
  const decide = toHandler(handler);

  async function route(request: FakeRequest, res: ServerResponse): Promise<void> {
    if (request.method === "GET" && request.path === "/v1/models") {
      return sendJson(res, 200, {
        data: [
          {
            type: "model",
            id: "claude-fake",
            display_name: "Claude Fake",
            created_at: "2025-01-01T00:00:00Z",
          },
        ],
        has_more: false,
        first_id: "claude-fake",
        last_id: "claude-fake",
      });
    }
    if (request.method === "POST" && request.path === "/v1/messages/count_tokens") {
      const text = JSON.stringify([request.body.system ?? "", request.body.messages ?? []]);
      return sendJson(res, 200, { input_tokens: Math.max(1, Math.ceil(text.length / 4)) });
    }
    if (request.method !== "POST" || request.path !== "/v1/messages") {
      return sendAnthropicError(res, {
        status: 404,
        message: `Unknown request URL: ${request.method} ${request.path}`,
      });
    }

    const reply = await decide(request);
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;
    if (reply.error) return sendAnthropicError(res, reply.error);
    if (reply.sse !== undefined) return sendEvents(res, parseSse(reply.sse), reply);

    const model = typeof request.body.model === "string" ? request.body.model : "claude-fake";
    const usage = completeUsage(reply, request.body);
    if (request.body.stream !== true) return sendJson(res, 200, messageObject(reply, model, usage));
    return sendEvents(res, messagesEvents(reply, model, usage), reply);
  }

  const server = await startFakeHttpServer(route, {
    ...(options.port !== undefined ? { port: options.port } : {}),
    onFailure: (res, message) => sendAnthropicError(res, { status: 500, message }),
  });
  return {
    url: `${server.origin}/v1`,
    origin: server.origin,
    port: server.port,
    requests: server.requests,
    modelCalls: () =>
      server.requests.filter((entry) => entry.method === "POST" && entry.path === "/v1/messages"),
    close: () => server.close(),
  };
}

/** A recorded Anthropic SSE sample from `test/fixtures/wire/anthropic/<name>`. */
export function anthropicFixture(name: string): string {
  return readWireFixture("anthropic", name);
}

function sendAnthropicError(res: ServerResponse, error: NonNullable<FakeReply["error"]>): void {
  sendJson(res, error.status, anthropicErrorBody(error.status, error), {
    ...retryHeaders(error),
    "request-id": "req_fake01",
  });
}
