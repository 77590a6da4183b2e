/**
 * The baseline for the `coord serve` bench: a bare Hono hello-world on @hono/node-server, in its
 * own process like the coord server. `node dist/bench/hello-server.js` listens on a free port
 * of 127.0.0.1, prints `listening on http://127.0.0.1:PORT` on stderr, and answers every
 * request with `Hello Hono!` until SIGTERM.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { AddressInfo } from "node:net";

const app = new Hono();
app.all("*", (c) => c.text("Hello Hono!"));
const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info: AddressInfo) => {
  process.stderr.write(`listening on http://127.0.0.1:${info.port}\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
