/**
 * W3C Trace Context headers (https://www.w3.org/TR/trace-context/): a request's `traceparent`
 * makes `coord serve`'s request span a child of the caller's span, and the response's
 * `traceresponse` (Trace Context Level 2) names the span coord created. Version `00` only.
 */

/** A parent span from another process. */
export interface RemoteParent {
  /** 32 lowercase hex digits, not all zero. */
  traceId: string;
  /** 16 lowercase hex digits, not all zero. */
  spanId: string;
  /** Bit 0: sampled. */
  traceFlags: number;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * Parses a `traceparent` header value.
 * @returns undefined for a missing or malformed value, or all-zero ids (the caller then starts
 *   a new trace, as the specification says).
 */
export function parseTraceparent(value: string | undefined): RemoteParent | undefined {
  const match = TRACEPARENT.exec((value ?? "").trim());
  if (!match) return undefined;
  const [, traceId, spanId, flags] = match as unknown as [string, string, string, string];
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16) };
}

/** `00-<trace id>-<span id>-01`: a sampled span, as `traceparent` or `traceresponse`. */
export function formatTraceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}
