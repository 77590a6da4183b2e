/**
 * A fake xAI API on 127.0.0.1 speaking xAI's real Chat Completions wire format, for the `grok`
 * backend (`@ai-sdk/xai`) over a real socket:
 *
 * - `POST /v1/chat/completions`: SSE chunks (`reasoning_content`, text a word at a time, whole
 *   tool calls, a last chunk with `finish_reason`, xAI usage and `citations`, `[DONE]`), or one
 *   `chat.completion` object when `stream` is false;
 * - `POST /v1/responses` (streamed): the Responses events with xAI's server-side tool items
 *   (`web_search_call`, `code_interpreter_call`) for `providerToolCalls`;
 * - errors: the reply's status with `{"code", "error"}`; `streamError` answers HTTP 200 with that
 *   JSON body instead of a stream, as xAI does when a request fails after being accepted;
 * - `reply.sse`: a recorded SSE body replayed as is (fixtures in `test/fixtures/wire/xai/`);
 * - `GET /v1/models`, `GET /__requests`.
 *
 * Imports nothing from vitest: it is built into dist/.
 */
import type { ServerResponse } from "node:http";
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
import { xaiChatCompletion, xaiChatEvents, xaiErrorBody } from "./fake-xai/chat-wire.js";
import { xaiResponsesEvents } from "./fake-xai/responses-wire.js";

export { xaiErrorBody };

/** A running fake xAI server. */
export interface FakeXaiServer {
  /** Base URL including `/v1`, for `base_url:`: `http://127.0.0.1:P/v1`. */
  url: string;
  origin: string;
  port: number;
  requests: FakeRequest[];
  /** The model calls (`POST /v1/chat/completions` and `/v1/responses`) only, in order. */
  modelCalls(): FakeRequest[];
  close(): Promise<void>;
}

/**
 * Starts a fake xAI server on 127.0.0.1.
 *
 * @param handler decides each model call's reply; an array plays its replies in order and answers
 *   HTTP 500 once they run out.
 * @param options.port port to listen on; default 0 (a free port).
 */
export async function startFakeXaiServer(
  handler: FakeHandler | FakeReply[],
  options: { port?: number } = {},
): Promise<FakeXaiServer> {
  const decide = toHandler(handler);

  async function route(request: FakeRequest, res: ServerResponse): Promise<void> {
    if (request.method === "GET" && request.path === "/v1/models") {
      return sendJson(res, 200, {
        object: "list",
        data: [{ id: "grok-fake", object: "model", created: 0, owned_by: "xai" }],
      });
    }
    const api =
      request.path === "/v1/chat/completions"
        ? "chat"
        : request.path === "/v1/responses"
          ? "responses"
          : undefined;
    if (request.method !== "POST" || api === undefined) {
      return sendJson(
        res,
        404,
        xaiErrorBody(404, { message: `Unknown request URL: ${request.method} ${request.path}` }),
      );
    }
    const reply = await decide(request);
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;
    if (reply.error) {
      return sendJson(res, reply.error.status, xaiErrorBody(reply.error.status, reply.error), {
        ...retryHeaders(reply.error),
      });
    }
    if (reply.streamError) {
      return sendJson(res, 200, {
        code: reply.streamError.code ?? "The service is currently unavailable",
        error: reply.streamError.message,
      });
    }
    if (reply.sse !== undefined) return sendEvents(res, parseSse(reply.sse), reply);

    const model = typeof request.body.model === "string" ? request.body.model : "grok-fake";
    const usage = completeUsage(reply, request.body);
    if (api === "responses") return sendEvents(res, xaiResponsesEvents(reply, model, usage), reply);
    if (request.body.stream !== true)
      return sendJson(res, 200, xaiChatCompletion(reply, model, usage));
    return sendEvents(res, xaiChatEvents(reply, model, usage), reply);
  }

  const server = await startFakeHttpServer(route, {
    ...(options.port !== undefined ? { port: options.port } : {}),
    onFailure: (res, message) => sendJson(res, 500, xaiErrorBody(500, { message })),
  });
  return {
    url: `${server.origin}/v1`,
    origin: server.origin,
    port: server.port,
    requests: server.requests,
    modelCalls: () =>
      server.requests.filter((entry) => entry.method === "POST" && entry.path.startsWith("/v1/")),
    close: () => server.close(),
  };
}

/** A recorded xAI SSE sample from `test/fixtures/wire/xai/<name>`. */
export function xaiFixture(name: string): string {
  return readWireFixture("xai", name);
}
