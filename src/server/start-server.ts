/**
 * Serves an app on a real socket (@hono/node-server) and stops it gracefully: stop accepting
 * connections, let requests in flight finish within a grace period, then stop the runs still
 * going (they answer 503) and close every connection.
 */
import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { ConfigError } from "../errors.js";

/** A listening server. */
export interface RunningServer {
  /** `http://HOST:PORT` (IPv6 hosts in brackets; `0.0.0.0` as given). */
  url: string;
  host: string;
  /** The bound port (the real one when 0 was asked for). */
  port: number;
  /**
   * Stops accepting connections, waits for requests in flight up to `graceMs`, then calls
   * `onGraceExpired` (which should abort the runs) and waits for their answers to go out (at
   * most 5 s more) before closing every connection. Safe to call twice (the second call
   * returns the same promise).
   */
  close(options?: { graceMs?: number; onGraceExpired?: () => void }): Promise<void>;
  /** Closes every connection now (a forced stop; responses not yet sent are lost). */
  closeAllConnections(): void;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  host: string;
  /** 0 for a free port. */
  port: number;
  /** What the port-in-use message tells the user to change; default `--port or COORD_SERVER_PORT`. */
  portHint?: string;
  /** Given the Node server before it listens (to attach a WebSocket upgrade handler). */
  onServer?: (server: Server) => void;
}

/**
 * True for addresses only this machine can reach: `localhost`, `127.0.0.0/8`, `::1` (also in
 * brackets or IPv4-mapped). `0.0.0.0`, `::` and every other address are reachable from outside.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  if (bare === "localhost" || bare.endsWith(".localhost") || bare === "::1") return true;
  return /^(?:::ffff:)?127(?:\.\d{1,3}){3}$/.test(bare);
}

/** Longest wait for aborted runs to send their 503 after the grace period. */
const DRAIN_AFTER_ABORT_MS = 5000;

/**
 * Starts listening.
 * @throws ConfigError when the address cannot be bound (EADDRINUSE, EACCES…), naming it and
 *   what to change.
 */
export async function startServer(
  app: { fetch: (request: Request) => Response | Promise<Response> },
  options: StartServerOptions,
): Promise<RunningServer> {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new ConfigError(
      `cannot listen on port ${options.port}: expected a port number from 0 to 65535 (--port or COORD_SERVER_PORT)`,
    );
  }
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, () =>
      resolve(started),
    ) as Server;
    options.onServer?.(started);
    started.once("error", (error: NodeJS.ErrnoException) => {
      const where = `${options.host}:${options.port}`;
      const hint =
        error.code === "EADDRINUSE"
          ? `: the port is in use; pick another with ${options.portHint ?? "--port or COORD_SERVER_PORT"}`
          : error.code === "EACCES"
            ? ": permission denied; use a port above 1023"
            : "";
      reject(new ConfigError(`cannot listen on ${where}${hint} (${error.message})`));
    });
  });
  // Long team runs must not be cut by Node's default request timeout (5 min).
  server.requestTimeout = 0;
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;

  let closing: Promise<void> | undefined;
  // Requests whose response has not gone out yet. While closing, once none is left every
  // connection is closed (idle keep-alive ones, and half-closed ones of clients that went away).
  let active = 0;
  const closeWhenDrained = () => {
    if (closing !== undefined && active === 0) setImmediate(() => server.closeAllConnections());
  };
  server.on("request", (_request, response: ServerResponse) => {
    active++;
    response.once("close", () => {
      active--;
      closeWhenDrained();
    });
  });
  const close: RunningServer["close"] = (closeOptions = {}) => {
    closing ??= new Promise<void>((resolve) => {
      let drainTimer: NodeJS.Timeout | undefined;
      const graceTimer = setTimeout(() => {
        closeOptions.onGraceExpired?.();
        drainTimer = setTimeout(() => server.closeAllConnections(), DRAIN_AFTER_ABORT_MS);
        drainTimer.unref();
      }, closeOptions.graceMs ?? 30_000);
      graceTimer.unref();
      server.close(() => {
        clearTimeout(graceTimer);
        clearTimeout(drainTimer);
        resolve();
      });
      server.closeIdleConnections();
      setImmediate(closeWhenDrained); // once `closing` is set
    });
    return closing;
  };
  return {
    url: `http://${host}:${port}`,
    host: options.host,
    port,
    close,
    closeAllConnections: () => server.closeAllConnections(),
  };
}
