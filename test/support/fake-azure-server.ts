/**
 * A fake Azure OpenAI resource on 127.0.0.1 speaking Azure's wire format, for the `azure_openai`
 * backend (`@ai-sdk/azure`) over a real socket:
 *
 * - `POST /openai/deployments/{deployment}/chat/completions?api-version=…` (the classic,
 *   deployment-based API): Chat Completions SSE as OpenAI streams it plus Azure's additions — a
 *   first chunk with empty `choices` and `prompt_filter_results`, and `content_filter_results` on
 *   every choice; a request without `api-version` gets Azure's 404;
 * - `POST /openai/v1/responses` and `POST /openai/v1/chat/completions` (the v1 API, deployment
 *   name as `model`): the OpenAI Responses / Chat Completions streams;
 * - errors: `{"error": {code, message}}` with the status as `code` string and `retry-after`
 *   (seconds) and `retry-after-ms` headers on a 429, as Azure sends them;
 * - `reply.sse`: a recorded SSE body replayed as is (fixtures in `test/fixtures/wire/azure/`);
 * - `GET /__requests`.
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
import { chatCompletion, chatCompletionEvents } from "./fake-openai/chat-completions-wire.js";
import type { FakeHandler, FakeReply, FakeRequest } from "./fake-openai/fake-reply.js";
import { responsesEvents, responsesObject } from "./fake-openai/responses-wire.js";
import { completeUsage, isRecord, type SseEvent } from "./fake-openai/wire-helpers.js";

/** A running fake Azure OpenAI resource. */
export interface FakeAzureServer {
  /** The resource endpoint, as `AZURE_OPENAI_ENDPOINT` holds it: `http://127.0.0.1:P/`. */
  endpoint: string;
  origin: string;
  port: number;
  requests: FakeRequest[];
  /** The model calls only, in order. */
  modelCalls(): FakeRequest[];
  close(): Promise<void>;
}

const DEPLOYMENT_PATH = /^\/openai\/deployments\/([^/]+)\/chat\/completions$/;
const V1_PATH = /^\/openai\/v1\/(responses|chat\/completions)$/;

/** Azure's error body: `{"error": {"code": "429", "message": "…"}}`. */
export function azureErrorBody(
  status: number,
  error: { message: string; code?: string | null },
): { error: { code: string; message: string } } {
  return { error: { code: error.code ?? String(status), message: error.message } };
}

/** Azure's content filter verdict on a prompt or a completion: nothing filtered. */
const CLEAN_FILTER = {
  hate: { filtered: false, severity: "safe" },
  self_harm: { filtered: false, severity: "safe" },
  sexual: { filtered: false, severity: "safe" },
  violence: { filtered: false, severity: "safe" },
};

/** OpenAI's chat stream with Azure's prompt-filter chunk first and filter results per choice. */
export function azureChatEvents(events: SseEvent[]): SseEvent[] {
  const promptFilter: SseEvent = {
    data: {
      choices: [],
      created: 0,
      id: "",
      model: "",
      object: "",
      prompt_filter_results: [{ prompt_index: 0, content_filter_results: CLEAN_FILTER }],
    },
  };
  const annotated = events.map((event) => {
    if (!isRecord(event.data) || !Array.isArray(event.data.choices)) return event;
    const choices = event.data.choices.map((choice: unknown) =>
      isRecord(choice) ? { ...choice, content_filter_results: CLEAN_FILTER } : choice,
    );
    return { ...event, data: { ...event.data, choices } };
  });
  return [promptFilter, ...annotated];
}

/**
 * Starts a fake Azure OpenAI resource on 127.0.0.1.
 *
 * @param handler decides each model call's reply; an array plays its replies in order and answers
 *   HTTP 500 once they run out.
 * @param options.port port to listen on; default 0 (a free port).
 */
export async function startFakeAzureServer(
  handler: FakeHandler | FakeReply[],
  options: { port?: number } = {},
): Promise<FakeAzureServer> {
  const decide = toHandler(handler);

  async function route(request: FakeRequest, res: ServerResponse): Promise<void> {
    const deployment = DEPLOYMENT_PATH.exec(request.path);
    const v1 = V1_PATH.exec(request.path);
    if (request.method !== "POST" || (deployment === null && v1 === null)) {
      return sendJson(res, 404, azureErrorBody(404, { message: "Resource not found" }));
    }
    if (deployment !== null && request.query?.["api-version"] === undefined) {
      return sendJson(res, 404, azureErrorBody(404, { message: "Resource not found" }));
    }

    const reply = await decide(request);
    if (reply.delayMs) await sleep(reply.delayMs);
    if (res.destroyed) return;
    if (reply.error) {
      const headers = retryHeaders(reply.error);
      return sendJson(
        res,
        reply.error.status,
        azureErrorBody(reply.error.status, reply.error),
        headers,
      );
    }
    if (reply.sse !== undefined) return sendEvents(res, parseSse(reply.sse), reply);

    const model =
      deployment !== null
        ? decodeURIComponent(deployment[1] ?? "")
        : typeof request.body.model === "string"
          ? request.body.model
          : "deployment";
    const usage = completeUsage(reply, request.body);
    const stream = request.body.stream === true;
    if (v1?.[1] === "responses") {
      if (!stream) return sendJson(res, 200, responsesObject(reply, model, usage).response);
      return sendEvents(res, responsesEvents(reply, model, usage), reply);
    }
    if (!stream) return sendJson(res, 200, chatCompletion(reply, model, usage));
    const includeUsage =
      isRecord(request.body.stream_options) && request.body.stream_options.include_usage === true;
    return sendEvents(
      res,
      azureChatEvents(chatCompletionEvents(reply, model, usage, includeUsage)),
      reply,
    );
  }

  const server = await startFakeHttpServer(route, {
    ...(options.port !== undefined ? { port: options.port } : {}),
    onFailure: (res, message) => sendJson(res, 500, azureErrorBody(500, { message })),
  });
  return {
    endpoint: `${server.origin}/`,
    origin: server.origin,
    port: server.port,
    requests: server.requests,
    modelCalls: () =>
      server.requests.filter(
        (entry) => DEPLOYMENT_PATH.test(entry.path) || V1_PATH.test(entry.path),
      ),
    close: () => server.close(),
  };
}

/** A recorded Azure SSE sample from `test/fixtures/wire/azure/<name>`. */
export function azureFixture(name: string): string {
  return readWireFixture("azure", name);
}
