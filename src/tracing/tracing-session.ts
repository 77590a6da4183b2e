/**
 * The OpenTelemetry side of tracing: one tracer provider per process with a batch span processor
 * and an OTLP/HTTP (JSON) exporter, so exporting never blocks a run (spans are queued and sent
 * in the background every few seconds, and at exit within a bounded time). Loaded only when
 * tracing is on (src/tracing/open-tracing.ts), so `coord --help` and untraced runs never load it.
 *
 * Failures never reach the run: the first failed export is one warning (`onWarning`), later ones
 * are silent; a flush that outlasts the export timeout gives up with one warning.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from "@opentelemetry/api";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type IdGenerator,
  RandomIdGenerator,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { redact } from "../redact.js";
import { MAX_ATTRIBUTE_LENGTH } from "./attributes.js";
import type { TraceDestination } from "./destination.js";
import { createRunSpans, type RunSpans } from "./run-spans.js";
import { formatTraceparent, parseTraceparent } from "./traceparent.js";
import type { RequestTrace, RunTrace, StartRunTraceOptions, Tracing } from "./types.js";

type ExporterConfig = NonNullable<ConstructorParameters<typeof OTLPTraceExporter>[0]>;

/** Options of {@link createTracing}. */
export interface TracingSessionOptions {
  destination: TraceDestination;
  /** `service.name` (OTEL_SERVICE_NAME, default `coord`) and `service.version`. */
  serviceName: string;
  serviceVersion: string;
  /** Told once of the first export failure, and of a flush that timed out. */
  onWarning: (message: string) => void;
  /** Tests: export here instead of over OTLP. */
  exporter?: SpanExporter;
  /** Epoch ms, for request spans and abandoned runs; default `Date.now`. */
  now?: () => number;
}

/** Hands out random ids, or once the trace id reserved for the run about to start. */
class ReservingIdGenerator implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  private next: string | undefined;
  reserve(): string {
    return this.random.generateTraceId();
  }
  use(traceId: string): void {
    this.next = traceId;
  }
  generateTraceId(): string {
    const id = this.next ?? this.random.generateTraceId();
    this.next = undefined;
    return id;
  }
  generateSpanId(): string {
    return this.random.generateSpanId();
  }
}

/** Passes spans on, reporting failed exports. */
class ReportingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly onFailure: (error: Error | undefined) => void,
  ) {}
  export(...[spans, done]: Parameters<SpanExporter["export"]>): void {
    this.inner.export(spans, (result) => {
      // ExportResultCode.SUCCESS of @opentelemetry/core (not a direct dependency) is 0.
      if ((result.code as number) !== 0) this.onFailure(result.error);
      done(result);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** Creates the process's tracing session. */
export function createTracing(options: TracingSessionOptions): Tracing {
  const { destination } = options;
  const now = options.now ?? Date.now;
  let warned = false;
  const warn = (message: string) => {
    if (warned) return;
    warned = true;
    options.onWarning(message);
  };
  const exporter = new ReportingExporter(
    options.exporter ??
      new OTLPTraceExporter({
        url: destination.url,
        headers: destination.headers,
        // CompressionAlgorithm is a string enum of the same two values ("gzip", "none").
        compression: destination.compression as unknown as ExporterConfig["compression"],
        timeoutMillis: destination.timeoutMs,
      }),
    (error) =>
      warn(
        `tracing: cannot send spans to ${destination.label}: ${describeError(error)}; spans are dropped, the run is not affected`,
      ),
  );
  const ids = new ReservingIdGenerator();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      "service.name": options.serviceName,
      "service.version": options.serviceVersion,
    }),
    idGenerator: ids,
    generalLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_LENGTH },
    spanLimits: { attributeValueLengthLimit: MAX_ATTRIBUTE_LENGTH },
    spanProcessors: [
      new BatchSpanProcessor(exporter, { exportTimeoutMillis: destination.timeoutMs }),
    ],
  });
  const tracer = provider.getTracer("coord", options.serviceVersion);
  const openRuns = new Set<RunSpans>();
  const openRequests = new Set<RequestTrace>();
  let stopping: Promise<void> | undefined;

  const startRunIn = (
    parent: Context,
    traceId: string | undefined,
    runOptions: StartRunTraceOptions,
  ): RunTrace => {
    const reserved = traceId ?? ids.reserve();
    const spans = createRunSpans(
      {
        tracer,
        parent,
        includeContent: runOptions.includeContent,
        ...(traceId === undefined ? { beforeRunSpan: () => ids.use(reserved) } : {}),
      },
      (error) => warn(`tracing: stopped tracing a run: ${describeError(error)}`),
    );
    openRuns.add(spans);
    return {
      traceId: reserved,
      subscriber(event, state) {
        spans.subscriber(event, state);
        if (spans.ended) openRuns.delete(spans);
      },
    };
  };

  return {
    destination: destination.label,
    startRun: (runOptions) => startRunIn(ROOT_CONTEXT, undefined, runOptions),
    startRequest(request) {
      const remote = parseTraceparent(request.traceparent);
      const parent = remote
        ? trace.setSpanContext(ROOT_CONTEXT, { ...remote, isRemote: true })
        : ROOT_CONTEXT;
      const span = tracer.startSpan(
        `${request.method} ${request.route}`,
        {
          kind: SpanKind.SERVER,
          startTime: now(),
          attributes: {
            "http.request.method": request.method,
            "http.route": request.route,
            "url.path": request.route,
            "coord.request_id": request.requestId,
            ...(request.userAgent ? { "user_agent.original": request.userAgent } : {}),
          },
        },
        parent,
      );
      const { traceId, spanId } = span.spanContext();
      const context = trace.setSpan(parent, span);
      let ended = false;
      const requestTrace: RequestTrace = {
        traceId,
        traceresponse: formatTraceparent(traceId, spanId),
        startRun: (runOptions) => startRunIn(context, traceId, runOptions),
        end(status) {
          if (ended) return;
          ended = true;
          openRequests.delete(requestTrace);
          span.setAttribute("http.response.status_code", status);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end(now());
        },
      };
      openRequests.add(requestTrace);
      return requestTrace;
    },
    shutdown() {
      stopping ??= (async () => {
        for (const spans of openRuns) spans.abandon(now(), "coord stopped before the run ended");
        openRuns.clear();
        for (const request of [...openRequests]) request.end(503);
        let timer: NodeJS.Timeout | undefined;
        const timedOut = new Promise<"timeout">((resolve) => {
          timer = setTimeout(() => resolve("timeout"), destination.timeoutMs + 500);
        });
        try {
          const result = await Promise.race([
            provider.shutdown().then(
              () => "done" as const,
              () => "done" as const,
            ),
            timedOut,
          ]);
          if (result === "timeout") {
            warn(
              `tracing: ${destination.label} did not take the last spans within ${destination.timeoutMs} ms (OTEL_EXPORTER_OTLP_TIMEOUT); they are lost`,
            );
          }
        } finally {
          clearTimeout(timer);
        }
      })();
      return stopping;
    },
  };
}

/** One line for an export error (never the request's headers). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return "export failed";
  const code = (error as { code?: unknown }).code;
  const status = typeof code === "number" ? ` (HTTP ${code})` : "";
  const cause = (error as { cause?: unknown }).cause;
  const detail =
    error.message === "" && cause instanceof Error
      ? cause.message
      : error.message || "export failed";
  return redact(`${detail}${status}`.replace(/\s+/g, " ").trim());
}
