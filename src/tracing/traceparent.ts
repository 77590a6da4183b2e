/**
 * W3C Trace Context headers (https://www.w3.org/TR/trace-context/): a request's `traceparent`
 * makes `coord serve`'s request span a child of the caller's span, and the response's
 * `traceresponse` (Trace Context Level 2) names the span coord created. Parsing is
 * `@opentelemetry/core`'s `parseTraceParent` (the one its W3CTraceContextPropagator uses);
 * coord takes version `00` only.
 */
import { parseTraceParent } from "@opentelemetry/core";

/** A parent span from another process. */
export interface RemoteParent {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  spanId: string;
  /** Bit 0: sampled. */
  traceFlags: number;
}

/**
 * Parses a `traceparent` header value.
 * @returns undefined for a missing or malformed value, a version other than `00`, or all-zero
 *   ids (the caller then starts a new trace, as the specification says).
 */
export function parseTraceparent(value: string | undefined): RemoteParent | undefined {
  const header = (value ?? "").trim();
  if (!header.startsWith("00-")) return undefined;
  const parsed = parseTraceParent(header);
  if (parsed === null) return undefined;
  return { traceId: parsed.traceId, spanId: parsed.spanId, traceFlags: parsed.traceFlags };
}

/** `00-<trace id>-<span id>-01`: a sampled span, as `traceparent` or `traceresponse`. */
export function formatTraceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
