/**
 * A fake Gemini API (Google Generative Language API) on 127.0.0.1 speaking the real wire format,
 * for the `gemini` backend (`@ai-sdk/google`) over a real socket:
 *
 * - `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`: SSE `data:` chunks (thoughts,
 *   code execution parts, text a word at a time, whole function calls, a last chunk with
 *   `finishReason`, `usageMetadata` and `groundingMetadata` for web searches);
 * - `POST /v1beta/models/{model}:generateContent`: one `GenerateContentResponse`;
 * - errors: `{"error": {code, message, status}}` (a 429 with `retryAfter` carries a RetryInfo
 *   detail); in-stream errors as a chunk holding `error`;
 * - `reply.sse`: a recorded SSE body replayed as is (fixtures in `test/fixtures/wire/gemini/`);
 * - `GET /__requests`: the recorded requests as JSON.
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
import {
  generateContentResponse,
  googleErrorBody,
  streamGenerateContentEvents,
} from "./fake-gemini/generate-content-wire.js";
import type { FakeHandler, FakeReply, FakeRequest } from "./fake-openai/fake-reply.js";
import { completeUsage } from "./fake-openai/wire-helpers.js";

export { googleErrorBody };

/** A running fake Gemini server. */
export interface FakeGeminiServer {
  /** Base URL including `/v1beta`, for `base_url:`: `http://127.0.0.1:P/v1beta`. */
  url: string;
  origin: string;
  port: number;
  /** Every request received, in order. */
  requests: FakeRequest[];
  /** The `generateContent` / `streamGenerateContent` requests only, in order. */
  modelCalls(): FakeRequest[];
  close(): Promise<void>;
}

const MODEL_PATH = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/**
 * Starts a fake Gemini server on 127.0.0.1.
 *
 * @param handler decides each model call's reply; an array plays its replies in order and answers
 *   HTTP 500 once they run out.
 * @param options.port port to listen on; default 0 (a free port).
 */
export async function startFakeGeminiServer(
  handler: FakeHandler | FakeReply[],
  options: { port?: number } = {},
): Promise<FakeGeminiServer> {
  const decide = toHandler(handler);

  async function route(request: FakeRequest, res: ServerResponse): Promise<void> {
    const match = MODEL_PATH.exec(request.path);
    if (request.method !== "POST" || match === null) {
      return sendGoogleError(res, {
        status: 404,
        message: `Unknown request URL: ${request.method} ${request.path}`,
      });
    }
    const model = decodeURIComponent(match[1] ?? "gemini-fake");
    const stream = match[2] === "streamGenerateContent";

    const reply = await decide(request);
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;
    if (reply.error) return sendGoogleError(res, reply.error);
    if (reply.sse !== undefined) return sendEvents(res, parseSse(reply.sse), reply);

    const usage = completeUsage(reply, { messages: request.body.contents });
    if (!stream) return sendJson(res, 200, generateContentResponse(reply, model, usage));
    return sendEvents(res, streamGenerateContentEvents(reply, model, usage), reply);
  }

  const server = await startFakeHttpServer(route, {
    ...(options.port !== undefined ? { port: options.port } : {}),
    onFailure: (res, message) => sendGoogleError(res, { status: 500, message }),
  });
  return {
    url: `${server.origin}/v1beta`,
    origin: server.origin,
    port: server.port,
    requests: server.requests,
    modelCalls: () => server.requests.filter((entry) => MODEL_PATH.test(entry.path)),
    close: () => server.close(),
  };
}

/** A recorded Gemini SSE sample from `test/fixtures/wire/gemini/<name>`. */
export function geminiFixture(name: string): string {
  return readWireFixture("gemini", name);
}

/**
 * Google sends no `Retry-After` header: a 429's delay travels in the body's RetryInfo detail
 * (`retryAfter` in seconds); only an explicit `retryAfterMs` adds a header, for tests.
 */
function sendGoogleError(res: ServerResponse, error: NonNullable<FakeReply["error"]>): void {
  const headers =
    error.retryAfterMs !== undefined ? retryHeaders({ ...error, retryAfter: undefined }) : {};
  sendJson(res, error.status, googleErrorBody(error.status, error), headers);
}
