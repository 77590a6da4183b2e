/**
 * Serves an app on a real socket (@hono/node-server) with time limits on every socket (headers,
 * body, keep-alive, idle: {@link ServerTimeouts}), and stops it gracefully: stop accepting
 * connections, let requests in flight — and runs whose clients went away — finish within a grace
 * period, then stop the runs still going (they answer 503) and close every connection.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
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
   * Stops accepting connections, waits for requests in flight — and for `runs`, whose clients
   * may have gone away — up to `graceMs`, then calls `onGraceExpired` (which should abort the
   * runs) and waits for their answers to go out and for the runs to end (at most `drainMs`
   * more) before closing every connection. Resolves once the server is closed and `runs` is
   * idle (or the drain ran out). Safe to call twice (the second call returns the same promise).
   */
  close(options?: CloseOptions): Promise<void>;
  /**
   * Ends the grace period of a {@link close} under way now, without `onGraceExpired` (the caller
   * stopped the runs itself): waits at most `drainMs` more for answers and runs, then closes
   * every connection and lets `close` resolve. Nothing happens before `close` was called.
   */
  stopNow(drainMs: number): void;
  /** Closes every connection now (a forced stop; responses not yet sent are lost). */
  closeAllConnections(): void;
}

/** Work that can outlive its response: a run whose client went away still ends its run log. */
export interface ServerRuns {
  /** Runs in flight, answered or not. */
  readonly inFlight: number;
  /** Resolves once `inFlight` is 0 (at once when it is). */
  idle(): Promise<void>;
}

/** Options of {@link RunningServer.close}. */
export interface CloseOptions {
  /** How long requests in flight and `runs` may take, ms; default 30000. */
  graceMs?: number;
  /** Called when the grace period ends with work left: it should stop the runs. */
  onGraceExpired?: () => void;
  /** After the grace period, how long stopped runs get to answer and end, ms; default 5000. */
  drainMs?: number;
  /** Runs to wait for besides the open responses; default none. */
  runs?: ServerRuns;
  /**
   * Called once when no response is open any more but `runs` still has some (their clients went
   * away), with their number.
   */
  onWaitingForRuns?: (runs: number) => void;
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
  /** Socket time limits; each one missing takes its default ({@link DEFAULT_TIMEOUTS}). */
  timeouts?: Partial<ServerTimeouts> | undefined;
}

/**
 * Time limits on every socket (so a client cannot hold the server), ms:
 * - `headersMs`: from a request's first byte until its headers are in (else 408, closed);
 * - `bodyMs`: from a request's first byte until its whole body is in (else 408, closed); the
 *   answer may take as long as the run needs;
 * - `keepAliveMs`: an idle keep-alive connection after an answer is closed after this long;
 * - `idleMs`: a socket with no request being answered that sends nothing for this long is closed
 *   (a connection that never sends a byte; an upgraded WebSocket is exempt).
 */
export interface ServerTimeouts {
  headersMs: number;
  bodyMs: number;
  keepAliveMs: number;
  idleMs: number;
}

/** The default time limits: headers 30 s, body 60 s, keep-alive 5 s, idle 60 s. */
export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: 30_000,
  bodyMs: 60_000,
  keepAliveMs: 5_000,
  idleMs: 60_000,
};

/** Environment variables that override {@link DEFAULT_TIMEOUTS} (ms; tests use small ones). */
const TIMEOUT_VARIABLES: Record<keyof ServerTimeouts, string> = {
  headersMs: "COORD_SERVER_HEADERS_TIMEOUT_MS",
  bodyMs: "COORD_SERVER_BODY_TIMEOUT_MS",
  keepAliveMs: "COORD_SERVER_KEEP_ALIVE_TIMEOUT_MS",
  idleMs: "COORD_SERVER_IDLE_TIMEOUT_MS",
};

/**
 * The time limits set in the environment (`COORD_SERVER_HEADERS_TIMEOUT_MS`,
 * `COORD_SERVER_BODY_TIMEOUT_MS`, `COORD_SERVER_KEEP_ALIVE_TIMEOUT_MS`,
 * `COORD_SERVER_IDLE_TIMEOUT_MS`; whole milliseconds, at least 1).
 * @throws ConfigError for a value that is not a whole number from 1 to 2147483647.
 */
export function serverTimeoutsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Partial<ServerTimeouts> {
  const timeouts: Partial<ServerTimeouts> = {};
  for (const [key, name] of Object.entries(TIMEOUT_VARIABLES) as [keyof ServerTimeouts, string][]) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    const ms = Number(value);
    if (!/^\d+$/.test(value.trim()) || ms < 1 || ms > 2_147_483_647) {
      throw new ConfigError(
        `${name}=${JSON.stringify(value)}: expected a whole number of milliseconds from 1 to 2147483647`,
      );
    }
    timeouts[key] = ms;
  }
  return timeouts;
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

/** Longest wait for aborted runs to send their 503 and end after the grace period (ms). */
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
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  // Node wants the body limit at least the headers limit; it checks both every interval.
  const bodyMs = Math.max(timeouts.bodyMs, timeouts.headersMs);
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve(
      {
        fetch: app.fetch,
        hostname: options.host,
        port: options.port,
        serverOptions: {
          headersTimeout: timeouts.headersMs,
          requestTimeout: bodyMs,
          keepAliveTimeout: timeouts.keepAliveMs,
          connectionsCheckingInterval: Math.min(
            5000,
            Math.max(10, Math.floor(timeouts.headersMs / 4)),
          ),
        },
      },
      () => resolve(started),
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
  watchIdleSockets(server, timeouts.idleMs);
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
  let stopNow: RunningServer["stopNow"] = () => undefined;
  const close: RunningServer["close"] = (closeOptions = {}) => {
    closing ??= new Promise<void>((resolve) => {
      const { runs } = closeOptions;
      let serverClosed = false;
      let runsEnded = runs === undefined;
      let drained = false;
      let done = false;
      let drainTimer: NodeJS.Timeout | undefined;
      // Timers stay referenced: while runs end, nothing else may keep the process alive.
      const graceTimer = setTimeout(() => {
        closeOptions.onGraceExpired?.();
        drain(closeOptions.drainMs ?? DRAIN_AFTER_ABORT_MS);
      }, closeOptions.graceMs ?? 30_000);
      const drain = (drainMs: number) => {
        clearTimeout(graceTimer);
        if (done || drainTimer !== undefined) return;
        drainTimer = setTimeout(() => {
          drained = true;
          server.closeAllConnections();
          finish();
        }, drainMs);
      };
      const finish = () => {
        if (done || !serverClosed || !(runsEnded || drained)) return;
        done = true;
        clearTimeout(graceTimer);
        clearTimeout(drainTimer);
        resolve();
      };
      stopNow = drain;
      void runs?.idle().then(() => {
        runsEnded = true;
        finish();
      });
      server.close(() => {
        serverClosed = true;
        if (!runsEnded && runs !== undefined && runs.inFlight > 0) {
          closeOptions.onWaitingForRuns?.(runs.inFlight);
        }
        finish();
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
    stopNow: (drainMs) => stopNow(drainMs),
    closeAllConnections: () => server.closeAllConnections(),
  };
}

/**
 * Closes sockets that stay silent for `idleMs` while no request of theirs is being answered (a
 * connection that never sends a byte escapes Node's header timer). A request being answered —
 * a team run can take many minutes — keeps its socket. An upgraded socket (WebSocket) is exempt:
 * Node stops reporting its timeouts to the server once it is handed over.
 */
function watchIdleSockets(server: Server, idleMs: number): void {
  const answering = new WeakMap<Socket, number>();
  server.timeout = idleMs;
  // With a listener here, Node leaves the decision to close a timed-out socket to it.
  server.on("timeout", (socket: Socket) => {
    if ((answering.get(socket) ?? 0) > 0) return;
    socket.destroy();
  });
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    response.once("close", () => answering.set(socket, (answering.get(socket) ?? 1) - 1));
  });
}
