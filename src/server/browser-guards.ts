/**
 * The browser protections of coord's HTTP app (docs/server.md "Security"): a request carrying an
 * `Origin` that is not allowed is a 403 before anything runs, and CORS headers (and preflight
 * answers) go only to allowed origins.
 */
import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { ApiError } from "./api-error.js";
import { sendError } from "./http-guards.js";

/**
 * The middlewares, in order.
 * @param corsOrigins origins whose pages may call the server (`--cors-origin`; `*` for any).
 */
export function browserGuards(corsOrigins: readonly string[]): MiddlewareHandler[] {
  const anyOrigin = corsOrigins.includes("*");
  const originAllowed = (origin: string) => anyOrigin || corsOrigins.includes(origin);
  const guards: MiddlewareHandler[] = [
    async (c, next) => {
      const origin = c.req.header("origin");
      if (origin !== undefined && !originAllowed(origin)) {
        return sendError(
          c,
          new ApiError(
            403,
            `requests from web pages at ${JSON.stringify(origin)} are not allowed: start coord serve with --cors-origin ${origin} to allow that origin`,
            { code: "origin_not_allowed" },
          ),
        );
      }
      await next();
    },
  ];
  if (corsOrigins.length > 0) {
    guards.push(
      cors({
        origin: anyOrigin ? "*" : [...corsOrigins],
        allowMethods: ["GET", "POST", "OPTIONS"],
        allowHeaders: ["authorization", "content-type", "x-request-id"],
        exposeHeaders: ["x-request-id", "x-coord-log-dir"],
        maxAge: 600,
      }),
    );
  }
  return guards;
}
