/**
 * A local OTLP/HTTP trace receiver on 127.0.0.1 standing in for an OpenTelemetry Collector or
 * Logfire's regional endpoint: `POST /v1/traces` with an `ExportTraceServiceRequest` in the
 * OTLP JSON encoding (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding),
 * gzip-compressed or not. It decodes every payload into plain spans (ids as hex, attribute
 * values as JS values, times as epoch ns bigints) and records the requests' headers, so tests
 * assert on what really went over the socket.
 *
 * Modes: `ok` (200 `{}`), `fail` (HTTP 500 with an error body), `hang` (accepts the request and
 * never answers, until closed). Imports nothing from vitest.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** An attribute value as OTLP JSON writes it. */
interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}

/** One span as received. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty string for a root span. */
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  /** Epoch nanoseconds. */
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; timeUnixNano: bigint; attributes: Record<string, unknown> }>;
  /** `code`: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string };
  /** The resource's attributes (`service.name`, …). */
  resource: Record<string, unknown>;
}

/** One export request as received. */
export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  /** The decoded (gunzipped) body text. */
  body: string;
  spans: ReceivedSpan[];
}

/** A running receiver. */
export interface OtlpReceiver {
  /** Base URL, e.g. `http://127.0.0.1:40123` (the traces endpoint is `<url>/v1/traces`). */
  url: string;
  port: number;
  requests: ReceivedExport[];
  /** Every span received so far, in arrival order (also those a `fail`/`hang` receiver refused). */
  spans(): ReceivedSpan[];
  /** Resolves with the spans once `done(spans)` holds; rejects after `timeoutMs` (default 30 s). */
  waitFor(done: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

/** Starts a receiver on a free port of 127.0.0.1. */
export async function startOtlpReceiver(
  options: { mode?: "ok" | "fail" | "hang" } = {},
): Promise<OtlpReceiver> {
  const mode = options.mode ?? "ok";
  const requests: ReceivedExport[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0]!;
      if (req.method !== "POST" || path !== "/v1/traces") return reply(res, 404, "not found");
      if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
        return reply(res, 415, "this receiver decodes OTLP JSON only");
      let raw = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") raw = gunzipSync(raw);
      const body = raw.toString("utf8");
      let spans: ReceivedSpan[];
      try {
        spans = decodeTraces(JSON.parse(body));
      } catch (error) {
        return reply(res, 400, `bad OTLP JSON: ${String(error)}`);
      }
      requests.push({ path, headers: req.headers, body, spans });
      for (const wake of [...waiters]) wake();
      if (mode === "hang") return; // never answers
      if (mode === "fail") return reply(res, 500, "receiver told to fail");
      reply(res, 200, undefined);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const spans = () => requests.flatMap((request) => request.spans);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    spans,
    waitFor(done, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(spans())) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(spans());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`spans did not arrive within ${timeoutMs} ms (${spans().length} so far)`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function reply(res: ServerResponse, status: number, error: string | undefined): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(error === undefined ? {} : { code: status, message: error }));
}

/** Decodes an `ExportTraceServiceRequest` in the OTLP JSON encoding. */
export function decodeTraces(request: unknown): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  const body = request as {
    resourceSpans?: Array<{
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: Array<{ spans?: Array<Record<string, unknown>> }>;
    }>;
  };
  for (const resourceSpans of body.resourceSpans ?? []) {
    const resource = attributes(resourceSpans.resource?.attributes);
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        const events = (span.events ?? []) as Array<{
          name: string;
          timeUnixNano: string | number;
          attributes?: KeyValue[];
        }>;
        const status = (span.status ?? {}) as { code?: number; message?: string };
        out.push({
          traceId: hex(span.traceId),
          spanId: hex(span.spanId),
          parentSpanId: span.parentSpanId === undefined ? "" : hex(span.parentSpanId),
          name: String(span.name),
          kind: Number(span.kind ?? 0),
          startTimeUnixNano: BigInt(span.startTimeUnixNano as string),
          endTimeUnixNano: BigInt(span.endTimeUnixNano as string),
          attributes: attributes(span.attributes as KeyValue[] | undefined),
          events: events.map((event) => ({
            name: event.name,
            timeUnixNano: BigInt(event.timeUnixNano),
            attributes: attributes(event.attributes),
          })),
          status: {
            code: status.code ?? 0,
            ...(status.message ? { message: status.message } : {}),
          },
          resource,
        });
      }
    }
  }
  return out;
}

/** Ids are hex strings in OTLP JSON (base64 would be the protobuf JSON mapping's default). */
function hex(value: unknown): string {
  if (typeof value !== "string") throw new Error(`id is not a string: ${JSON.stringify(value)}`);
  if (!/^[0-9a-f]*$/i.test(value)) throw new Error(`id is not hex: ${value}`);
  return value.toLowerCase();
}

function attributes(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) out[key] = anyValue(value);
  return out;
}

function anyValue(value: AnyValue | undefined): unknown {
  if (value === undefined) return undefined;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(anyValue);
  if (value.kvlistValue !== undefined) return attributes(value.kvlistValue.values);
  return undefined;
}
