/**
 * The browser UI's server (`coord --web`; docs/web.md): a Hono app that serves the built page
 * (dist/web, no CDN), a small JSON API over a {@link WebHost}, and one WebSocket (`/ws`,
 * @hono/node-ws) that streams runs' events to the page.
 *
 * The WebSocket messages are defined once, for the server and the page, in web-protocol.ts.
 *
 * The server runs the team with the user's keys, so other web sites must not drive it
 * (docs/security.md): requests whose Host is not one this server answers to (DNS rebinding) —
 * checked on every bind — and writes or sockets from another Origin are refused with 403; every
 * POST must be `application/json` (415 otherwise, `text/plain; application/json` too) and at most
 * {@link DEFAULT_WEB_BODY_BYTES} (413).
 */
import type { Server } from "node:http";
import { createNodeWebSocket } from "@hono/node-ws";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { isClientGone, isJsonContentType } from "../http-guards.js";
import type { WSContext } from "hono/ws";
import { serveWebAssets } from "./web-assets.js";
import { type RunKey, type SessionView, type WebHost, WebHostError } from "./web-host.js";
import { parseClientMessage, type ServerMessage, serverMessageText } from "./web-protocol.js";
import { readImage, viewPath } from "./workspace-files.js";

/** Options of {@link createWebApp}. */
export interface WebAppOptions {
  host: WebHost;
  /** The built page (index.html, assets/); default: dist/web of this package. */
  assetsDir?: string;
  /**
   * Host names and addresses (without port; IPv6 in brackets) the server answers to besides the
   * loopback names, which it always answers to. `coord --web` adds the `--web-host` it binds and,
   * for a wildcard bind, this machine's addresses and host name ({@link webHostNames}).
   */
  allowedHostNames?: readonly string[];
  /** Cap on a POST body, bytes; default {@link DEFAULT_WEB_BODY_BYTES}. */
  maxBodyBytes?: number;
}

/** Default cap on a POST body of the web UI: 1 MiB (a question, a session id). */
export const DEFAULT_WEB_BODY_BYTES = 1024 * 1024;

/** The app and what the listening server needs from it. */
export interface WebApp {
  app: Hono;
  /** Attaches the WebSocket upgrade handler to the Node server (startServer's `onServer`). */
  injectWebSocket(server: Server): void;
  /** Closes every open WebSocket (before the server closes). */
  closeSockets(): void;
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/** Creates the app. */
export function createWebApp(options: WebAppOptions): WebApp {
  const { host } = options;
  const app = new Hono();
  const nodeWs = createNodeWebSocket({ app });
  const upgradeWebSocket = nodeWs.upgradeWebSocket;
  // The `ws` package ships no types here: only what is used is named.
  const sockets = nodeWs.wss as unknown as { clients: Set<{ terminate(): void }> };
  const allowed = new Set(
    [...LOOPBACK_NAMES, ...(options.allowedHostNames ?? [])].map((name) => name.toLowerCase()),
  );
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_WEB_BODY_BYTES;

  app.use("*", async (c, next) => {
    const hostHeader = c.req.header("host") ?? "";
    if (!allowed.has(hostName(hostHeader).toLowerCase())) {
      return c.json(
        {
          error: `host ${hostHeader} is not served here: open the page by an address coord --web answers to (127.0.0.1, or the --web-host it was started with)`,
        },
        403,
      );
    }
    const origin = c.req.header("origin");
    const writes = c.req.method !== "GET" && c.req.method !== "HEAD";
    if (
      (writes || c.req.path === "/ws") &&
      origin !== undefined &&
      !sameOrigin(origin, hostHeader)
    ) {
      return c.json({ error: `requests from ${origin} are refused` }, 403);
    }
    await next();
  });
  app.post(
    "*",
    async (c, next) => {
      const type = c.req.header("content-type");
      if (!isJsonContentType(type)) {
        return c.json(
          {
            error: `send the request as JSON (Content-Type: application/json; received ${type === undefined ? "none" : JSON.stringify(type)})`,
          },
          415,
        );
      }
      await next();
    },
    bodyLimit({
      maxSize: maxBodyBytes,
      onError: (c) =>
        c.json(
          { error: `the request body is larger than the limit of ${maxBodyBytes} bytes` },
          413,
        ),
    }),
  );

  app.onError((error, c) => {
    if (error instanceof WebHostError) return c.json({ error: error.message }, error.status);
    // The client went away mid-body: nobody reads this answer.
    if (isClientGone(error, c)) return c.body(null, 499 as 200);
    return c.json({ error: `internal error: ${error.message}` }, 500);
  });

  app.get("/api/session", (c) => c.json(host.current()));
  app.get("/api/sessions", async (c) => c.json(await host.listSessions()));
  app.post("/api/sessions/new", async (c) => c.json(await host.newSession()));
  app.post("/api/sessions/:id/open", async (c) =>
    c.json(await host.openSession(c.req.param("id"))),
  );
  app.post("/api/ask", async (c) => {
    const body = await jsonBody(c);
    const question = typeof body.question === "string" ? body.question.trim() : "";
    if (question === "") throw new WebHostError(400, "the question is empty: type one first");
    return c.json(await host.ask(question));
  });

  const rootOf = async (c: Context) => {
    const key = `${c.req.param("session")}/${c.req.param("turn")}`;
    const roots = await host.workspaceRoots(key);
    const id = c.req.query("root") ?? "";
    const root = roots.find((candidate) => candidate.id === id);
    if (!root)
      throw new WebHostError(
        404,
        `run ${key} has no workspace "${id}" (live workspaces are offered only while the run goes on)`,
      );
    return root;
  };
  app.get("/api/runs/:session/:turn/roots", async (c) =>
    c.json(await host.workspaceRoots(`${c.req.param("session")}/${c.req.param("turn")}`)),
  );
  app.get("/api/runs/:session/:turn/files", async (c) => {
    const root = await rootOf(c);
    return c.json(await viewPath(root.path, c.req.query("path") ?? ""));
  });
  app.get("/api/runs/:session/:turn/image", async (c) => {
    const root = await rootOf(c);
    const { bytes, type } = await readImage(root.path, c.req.query("path") ?? "");
    return c.body(new Uint8Array(bytes), 200, {
      "content-type": type,
      "x-content-type-options": "nosniff",
      // An SVG opened on its own must not run scripts on this origin.
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    });
  });
  app.all("/api/*", (c) =>
    c.json({ error: `no such endpoint: ${c.req.method} ${c.req.path}` }, 404),
  );

  app.get(
    "/ws",
    upgradeWebSocket(() => {
      const feeds = new Map<RunKey, () => void>();
      let stopChanges: (() => void) | undefined;
      const send = (ws: WSContext, message: ServerMessage) => {
        if (ws.readyState === 1) ws.send(serverMessageText(message));
      };
      const stopFeed = (key: RunKey) => {
        feeds.get(key)?.();
        feeds.delete(key);
      };
      return {
        onOpen(_event, ws) {
          send(ws, { type: "session", view: host.current() });
          stopChanges = host.onChange((view: SessionView) => send(ws, { type: "session", view }));
        },
        onMessage(event, ws) {
          const message = parseClientMessage((event as { data: unknown }).data);
          if (!message) return send(ws, { type: "error", message: "unreadable message" });
          stopFeed(message.key);
          if (message.type === "unsubscribe") return;
          // Placeholder until the feed is attached, so an unsubscribe in between is honoured.
          let cancelled = false;
          feeds.set(message.key, () => (cancelled = true));
          host
            .subscribe(message.key, message.after, (runEvent) =>
              send(ws, { type: "event", key: message.key, event: runEvent }),
            )
            .then(
              (stop) => {
                if (cancelled) stop();
                else feeds.set(message.key, stop);
              },
              (error: Error) =>
                send(ws, { type: "error", key: message.key, message: error.message }),
            );
        },
        onClose() {
          stopChanges?.();
          for (const key of [...feeds.keys()]) stopFeed(key);
        },
      };
    }),
  );

  app.get("*", serveWebAssets(options.assetsDir));

  return {
    app,
    injectWebSocket: (server) => nodeWs.injectWebSocket(server),
    closeSockets: () => {
      for (const client of sockets.clients) client.terminate();
    },
  };
}

/** `localhost` of `localhost:8000`, `[::1]` of `[::1]:8000`. */
function hostName(hostHeader: string): string {
  return hostHeader.startsWith("[")
    ? hostHeader.slice(0, hostHeader.indexOf("]") + 1)
    : (hostHeader.split(":")[0] ?? "");
}

function sameOrigin(origin: string, hostHeader: string): boolean {
  return origin === `http://${hostHeader}` || origin === `https://${hostHeader}`;
}

/** The POST body as an object (its type and size were checked by the POST middleware). */
async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const body: unknown = await c.req.json().catch(() => undefined);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new WebHostError(400, "the request body is not a JSON object");
  }
  return body as Record<string, unknown>;
}
