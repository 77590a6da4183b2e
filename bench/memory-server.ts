/**
 * The server of the memory bench (`serve-memory.ts`): `node --expose-gc
 * dist/bench/memory-server.js LOG_ROOT` serves `@examples/scripted_team` with coord's own app and
 * listener (`createApp` + `startServer`, run logs on under LOG_ROOT), exactly as `coord serve`
 * does, and prints `listening on http://127.0.0.1:PORT` on stderr. A second listener, printed as
 * `memory on http://127.0.0.1:PORT`, answers `GET /` by running a full garbage collection and
 * returning `process.memoryUsage()` (bytes): RSS right after a GC tells retained memory from
 * memory V8 simply has not given back yet. Runs until SIGTERM.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, loadServedTeam, startServer } from "../src/server/index.js";

const logRoot = process.argv[2];
const gc = (globalThis as { gc?: () => void }).gc;
if (logRoot === undefined || gc === undefined) {
  throw new Error("usage: node --expose-gc dist/bench/memory-server.js LOG_ROOT");
}
const team = await loadServedTeam("@examples/scripted_team", { cwd: process.cwd(), env: {} });
const app = createApp({ team, env: {}, cwd: process.cwd(), version: "bench", logRoot });
const running = await startServer(app, { host: "127.0.0.1", port: 0 });

const probe = createServer((_request, response) => {
  gc();
  gc();
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(process.memoryUsage()));
});
probe.listen(0, "127.0.0.1", () => {
  const { port } = probe.address() as AddressInfo;
  process.stderr.write(`memory on http://127.0.0.1:${port}\nlistening on ${running.url}\n`);
});
process.once("SIGTERM", () => {
  probe.close();
  void running.close({ graceMs: 1000 }).then(() => process.exit(0));
});
