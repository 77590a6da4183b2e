/**
 * The HTTP side shared by the fake provider servers (Anthropic, Gemini, xAI, Azure): listen on
 * 127.0.0.1, read and record JSON requests, write SSE events (with optional delays and a cut
 * connection), JSON bodies and errors, and play scripted replies in order.
 *
 * Each provider's server is a small `route` function on top of {@link startFakeHttpServer}; the
 * wire formats live beside it. Imports nothing from vitest: it is built into dist/ and run by
 * end-to-end tests.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { FakeHandler, FakeReply, FakeRequest } from "./fake-openai/fake-reply.js";
import { isRecord, type SseEvent } from "./fake-openai/wire-helpers.js";

/** A running fake HTTP server. */
export interface FakeHttpServer {
  /** `http://127.0.0.1:PORT` (no path). */
  origin: string;
  port: number;
  /** Every request received (except `GET /__requests`), in order. */
  requests: FakeRequest[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Routes one recorded request; writes the whole response. */
export type FakeRoute = (request: FakeRequest, res: ServerResponse) => Promise<void>;

/**
 * Starts a server on 127.0.0.1 that records each request (JSON body parsed, query kept in
 * {@link FakeRequest.query}) and hands it to `route`. `GET /__requests` answers the recorded
 * requests as JSON. A route that throws gets a 500 (or a cut connection once streaming).
 *
 * @param route writes the response of one request.
 * @param options.port port to listen on; default 0 (a free port).
 * @param options.onFailure writes the 500 for a route that threw before sending headers.
 */
export async function startFakeHttpServer(
  route: FakeRoute,
  options: { port?: number; onFailure?: (res: ServerResponse, message: string) => void } = {},
): Promise<FakeHttpServer> {
  const requests: FakeRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const request: FakeRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        body: parseBody(Buffer.concat(chunks).toString("utf8")),
      };
      if (request.method === "GET" && request.path === "/__requests") {
        sendJson(res, 200, requests);
        return;
      }
      requests.push(request);
      void route(request, res).catch((error: unknown) => {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        const message = `fake server failure: ${String(error)}`;
        if (options.onFailure) options.onFailure(res, message);
        else sendJson(res, 500, { error: { message } });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A handler, or an array of replies played in order (HTTP 500 once they run out). */
export function toHandler(handler: FakeHandler | FakeReply[]): FakeHandler {
  if (typeof handler === "function") return handler;
  let next = 0;
  return () =>
    handler[next++] ?? {
      error: { status: 500, message: `fake server: no scripted reply left for call ${next}` },
    };
}

/**
 * Writes an SSE response: `event:` (when set) and `data:` lines per event, honouring the reply's
 * `chunkDelayMs` and `dropAfterEvents` (cut the socket without ending the body).
 */
export async function sendEvents(
  res: ServerResponse,
  events: readonly SseEvent[],
  reply: Pick<FakeReply, "chunkDelayMs" | "dropAfterEvents">,
): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const [index, event] of events.entries()) {
    if (res.destroyed) return;
    if (reply.dropAfterEvents !== undefined && index >= reply.dropAfterEvents) {
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

/**
 * Parses a recorded SSE body (`event:`/`data:` lines, blank-line separated) into events, so a
 * fixture can be replayed through {@link sendEvents}. Comment lines (`:`) are dropped.
 */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.replace(/\r\n/g, "\n").split(/\n{2,}/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length > 0) events.push({ ...(event ? { event } : {}), data: data.join("\n") });
  }
  return events;
}

/** Writes a JSON response. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** `Retry-After` / `retry-after-ms` headers of a scripted error. */
export function retryHeaders(error: NonNullable<FakeReply["error"]>): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  if (error.retryAfterMs !== undefined) headers["retry-after-ms"] = String(error.retryAfterMs);
  return headers;
}

/**
 * Reads a recorded wire sample `test/fixtures/wire/<provider>/<name>` (from the source tree, also
 * when running from dist/).
 */
export function readWireFixture(provider: string, name: string): string {
  return readFileSync(join(wireFixtureDir(), provider, name), "utf8");
}

/** The `test/fixtures/wire` directory of the repository. */
export function wireFixtureDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = join(dir, "test", "fixtures", "wire");
    if (existsSync(join(dir, "package.json")) && existsSync(candidate)) return candidate;
    dir = dirname(dir);
  }
  throw new Error("test/fixtures/wire not found above " + fileURLToPath(import.meta.url));
}

/** Sleeps `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
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
