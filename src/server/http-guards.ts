/**
 * Small HTTP checks shared by coord's servers (`coord serve`, the `--web` UI): the JSON media
 * type, OpenAI-shaped error responses, bearer auth, and telling a client that went away from a
 * server error (a client that disconnects mid-body is one log line, no stack).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { redact } from "../redact.js";
import { ApiError, withoutAddresses } from "./api-error.js";

/**
 * True for `application/json`, with or without parameters (`; charset=utf-8`), any case; false
 * for every other media type, `text/plain; application/json` included (only the part before the
 * first `;` is the type).
 */
export function isJsonContentType(type: string | undefined): boolean {
  if (type === undefined) return false;
  return type.split(";")[0]!.trim().toLowerCase() === "application/json";
}

/**
 * True when `error` comes from the client going away (the socket closed before the whole body
 * arrived, or the server dropped it at the body timeout): the request's signal is aborted, or the
 * body stream failed with Node's `aborted` / `ECONNRESET`.
 */
export function isClientGone(error: unknown, c: Context): boolean {
  if (c.req.raw.signal.aborted) return true;
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : "";
  return message === "aborted" || code === "ECONNRESET" || code === "ERR_STREAM_PREMATURE_CLOSE";
}

/** Status logged for a request whose client went away before it was answered (nginx's 499). */
export const CLIENT_GONE_STATUS = 499;

/**
 * Sends an error in the OpenAI shape. Every 5xx says `x-should-retry` (the header OpenAI's SDKs
 * obey before their own retry rules): `true` only for an {@link ApiError.retryable} error (the
 * caller sets any `Retry-After`), else `false`, so a client never re-runs a failed team. A 5xx
 * message loses its network addresses ({@link withoutAddresses}); log the full one first.
 */
export function sendError(c: Context, error: ApiError): Response {
  if (error.status >= 500) c.header("x-should-retry", error.retryable ? "true" : "false");
  if (error.status === 401) c.header("www-authenticate", 'Bearer realm="coord"');
  const body = error.toBody();
  if (error.status >= 500) body.error.message = withoutAddresses(body.error.message);
  return c.json(body, error.status as ContentfulStatusCode);
}

/** A 405 `method_not_allowed` with `Allow: <allowed>`, for a known path asked with another method. */
export function methodNotAllowed(c: Context, allowed: string): Response {
  c.header("allow", allowed);
  return sendError(
    c,
    new ApiError(405, `${c.req.method} ${c.req.path} is not allowed: use ${allowed}`, {
      code: "method_not_allowed",
    }),
  );
}

/** Middleware: `Authorization: Bearer <key>`, compared in constant time (401 otherwise). */
export function bearerAuth(apiKey: string) {
  const expected = createHash("sha256").update(apiKey).digest();
  return async (c: Context, next: () => Promise<void>) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    const given = createHash("sha256")
      .update(match?.[1] ?? "")
      .digest();
    if (!match || !timingSafeEqual(given, expected)) {
      return sendError(
        c,
        new ApiError(
          401,
          match
            ? "invalid API key: send the key set in COORD_SERVER_API_KEY as Authorization: Bearer <key>"
            : "missing API key: send Authorization: Bearer <key> (the server has COORD_SERVER_API_KEY set)",
          { code: match ? "invalid_api_key" : "missing_api_key" },
        ),
      );
    }
    await next();
  };
}

/**
 * Passes a response's JSON or text body through the process's one redactor (`src/redact.ts`).
 * Any Hono app of coord's (the web UI's too) should call it on every response, as this app's
 * outermost middleware does: `app.use(async (c, next) => { await next(); await redactBody(c); })`.
 */
export async function redactBody(c: Context): Promise<void> {
  const type = c.res.headers.get("content-type") ?? "";
  // An event stream redacts each event as it is sent (`./chat-stream.ts`): never buffer it.
  if (c.res.body === null || !/json|text/i.test(type) || /event-stream/i.test(type)) return;
  const text = await c.res.text();
  const headers = new Headers(c.res.headers);
  headers.delete("content-length");
  const response = new Response(redact(text), { status: c.res.status, headers });
  c.res = undefined;
  c.res = response;
}
