/**
 * A terminal in a browser page (`coord viewer --web`, spec §4.2 "a terminal-in-browser
 * server"): a small Hono app serves a page with xterm.js (its prebuilt ES modules and CSS from
 * node_modules, no bundler) and, for each page that connects to its WebSocket, runs one fixed
 * command in a pseudo-terminal (@lydell/node-pty) sized to the page's terminal, relaying output to
 * the page and keys and resizes back.
 *
 * Only for a local browser: requests must name the server by a loopback Host (so a DNS-rebinding
 * page cannot reach it) and the WebSocket's Origin must be the page itself (so another site
 * open in the browser cannot read the terminal).
 *
 * WebSocket protocol (`/pty?cols=N&rows=N`): server → page, the terminal's output as text
 * frames; page → server, JSON text frames `{"type":"input","data":"q"}` and
 * `{"type":"resize","cols":100,"rows":30}`. When the command exits the server closes the socket
 * (code 1000, reason `exited with code N`); when the page goes away the command is killed.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createNodeWebSocket } from "@hono/node-ws";
import { type IPty, spawn } from "@lydell/node-pty";
import { Hono } from "hono";
import type { Server } from "node:http";
import { terminalPage } from "./terminal-page.js";

/** Options of {@link createTerminalWebApp}. */
export interface TerminalWebOptions {
  /** The program run for each page, e.g. `process.execPath`. */
  command: string;
  args: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The page's title. */
  title: string;
}

/** The app and the hooks the listening server needs. */
export interface TerminalWebApp {
  app: Hono;
  /** Hands the node HTTP server to the WebSocket upgrade handler (call before listening). */
  injectWebSocket(server: Server): void;
  /** Kills every running command (at shutdown). */
  closeAll(): void;
  /** How many commands run now. */
  readonly sessions: number;
}

/** The xterm files served under /assets/, from node_modules. */
const ASSETS: Record<string, { module: string; path: string; type: string }> = {
  "xterm.mjs": { module: "@xterm/xterm", path: "lib/xterm.mjs", type: "text/javascript" },
  "xterm.css": { module: "@xterm/xterm", path: "css/xterm.css", type: "text/css" },
  "addon-fit.mjs": {
    module: "@xterm/addon-fit",
    path: "lib/addon-fit.mjs",
    type: "text/javascript",
  },
};

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Terminal sizes accepted from a page. */
const MAX_COLUMNS = 500;
const MAX_ROWS = 200;

/** Creates the app. Nothing runs until a page connects. */
export function createTerminalWebApp(options: TerminalWebOptions): TerminalWebApp {
  const app = new Hono();
  const nodeWebSocket = createNodeWebSocket({ app });
  const running = new Set<IPty>();
  const require = createRequire(import.meta.url);

  app.use("*", async (c, next) => {
    const host = c.req.header("host") ?? "";
    if (!LOOPBACK_HOSTS.has(host.replace(/:\d+$/, ""))) {
      return c.text("coord viewer: only for http://127.0.0.1 (Host refused)\n", 403);
    }
    await next();
  });

  app.get("/", (c) => c.html(terminalPage(options.title)));
  app.get("/favicon.ico", (c) => c.body(null, 204));

  app.get("/assets/:name", async (c) => {
    const asset = ASSETS[c.req.param("name")];
    if (asset === undefined) return c.notFound();
    const root = dirname(require.resolve(`${asset.module}/package.json`));
    const body = await readFile(join(root, asset.path), "utf8");
    return c.body(body, 200, { "content-type": `${asset.type}; charset=utf-8` });
  });

  app.get(
    "/pty",
    async (c, next) => {
      const origin = c.req.header("origin");
      if (origin !== `http://${c.req.header("host")}`) {
        return c.text("coord viewer: WebSocket from another origin refused\n", 403);
      }
      await next();
    },
    nodeWebSocket.upgradeWebSocket((c) => {
      const cols = sizeParam(c.req.query("cols"), 100, MAX_COLUMNS);
      const rows = sizeParam(c.req.query("rows"), 30, MAX_ROWS);
      let pty: IPty | undefined;
      return {
        onOpen(_event, ws) {
          const env: Record<string, string> = {};
          for (const [name, value] of Object.entries(options.env))
            if (value !== undefined) env[name] = value;
          const started = spawn(options.command, [...options.args], {
            name: "xterm-256color",
            cols,
            rows,
            cwd: options.cwd,
            env: { ...env, TERM: "xterm-256color", COLORTERM: "truecolor" },
          });
          pty = started;
          running.add(started);
          started.onData((data) => ws.send(data));
          started.onExit(({ exitCode }) => {
            running.delete(started);
            ws.close(1000, `exited with code ${exitCode}`);
          });
        },
        onMessage(event) {
          const data: unknown = (event as { data: unknown }).data;
          if (pty === undefined || typeof data !== "string") return;
          const message = parseMessage(data);
          if (message?.type === "input") pty.write(message.data);
          if (message?.type === "resize") {
            pty.resize(
              Math.min(MAX_COLUMNS, Math.max(2, message.cols)),
              Math.min(MAX_ROWS, Math.max(2, message.rows)),
            );
          }
        },
        onClose() {
          if (pty !== undefined && running.has(pty)) {
            running.delete(pty);
            pty.kill();
          }
        },
      };
    }),
  );

  return {
    app,
    injectWebSocket: (server) => nodeWebSocket.injectWebSocket(server),
    closeAll() {
      for (const pty of running) pty.kill();
      running.clear();
    },
    get sessions() {
      return running.size;
    },
  };
}

function sizeParam(value: string | undefined, fallback: number, max: number): number {
  const number = Number(value);
  return Number.isInteger(number) && number >= 2 ? Math.min(number, max) : fallback;
}

type PageMessage = { type: "input"; data: string } | { type: "resize"; cols: number; rows: number };

/** A page's message, or undefined when it is not one of the two shapes. */
function parseMessage(text: string): PageMessage | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (value.type === "input" && typeof value.data === "string")
      return { type: "input", data: value.data };
    if (value.type === "resize" && Number.isInteger(value.cols) && Number.isInteger(value.rows)) {
      return { type: "resize", cols: value.cols as number, rows: value.rows as number };
    }
  } catch {
    // not JSON: ignored
  }
  return undefined;
}
