/**
 * The shapes the rest of coord sees of tracing (docs/tracing.md): a {@link Tracing} session per
 * process, a {@link RunTrace} per run, a {@link RequestTrace} per `coord serve` request. Types
 * only, so importing them loads no OpenTelemetry code.
 */
import type { RunSubscriber } from "../session/index.js";

/** Options of {@link Tracing.startRun}. */
export interface StartRunTraceOptions {
  /** Put prompts, answers, reasons, model output and tool payloads in spans (`tracing.include_content`). */
  includeContent: boolean;
}

/** One run being traced. */
export interface RunTrace {
  /** The trace id: 32 lowercase hex digits, known before the run starts. */
  readonly traceId: string;
  /** Subscribe it to the run (`startRun({subscribers: [trace.subscriber]})`). Never throws. */
  readonly subscriber: RunSubscriber;
}

/** One HTTP request of `coord serve` being traced (a SERVER span; its run is a child). */
export interface RequestTrace {
  /** The trace id: the caller's when the request carried a valid `traceparent`. */
  readonly traceId: string;
  /** The `traceresponse` header value: `00-<trace id>-<span id>-01`. */
  readonly traceresponse: string;
  /** Starts the trace of the request's run, as a child of the request's span. */
  startRun(options: StartRunTraceOptions): RunTrace;
  /** Ends the request's span with the response status (status ERROR for 5xx). Idempotent. */
  end(status: number): void;
}

/** What a {@link Tracing.startRequest} is told of a request. */
export interface TracedRequest {
  method: string;
  /** The route, e.g. `/v1/chat/completions`. */
  route: string;
  /** The `traceparent` header, if any. */
  traceparent?: string | undefined;
  /** The server's request id (`x-request-id`). */
  requestId: string;
  userAgent?: string | undefined;
}

/** A process's tracing: where spans go, and the runs and requests it traces. */
export interface Tracing {
  /** Where spans go, for messages: `Logfire (https://logfire-us.pydantic.dev)` or the URL. */
  readonly destination: string;
  /** Starts tracing one run; its trace id is known at once (for the run log). */
  startRun(options: StartRunTraceOptions): RunTrace;
  /** Starts the span of one HTTP request. */
  startRequest(request: TracedRequest): RequestTrace;
  /**
   * Ends spans still open (a run stopped without `run-end`) and sends what is queued, waiting at
   * most the export timeout (`OTEL_EXPORTER_OTLP_TIMEOUT`, default 5 s). Never throws; a failure
   * is one warning. Idempotent.
   */
  shutdown(): Promise<void>;
}
