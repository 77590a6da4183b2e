/**
 * Runs the fake Anthropic server as its own process, for end-to-end tests that spawn the built
 * CLI or Claude Code:
 *
 *     node dist/test/support/fake-anthropic-server-main.js [--port N]
 *
 * It answers every model call with {@link coordinationHandler}, prints
 * `LISTENING http://127.0.0.1:PORT/v1` on stdout once ready (use the origin, without `/v1`, as
 * `ANTHROPIC_BASE_URL`), serves the recorded requests at `GET /__requests`, and exits on
 * SIGTERM/SIGINT.
 */
import { coordinationHandler, startFakeAnthropicServer } from "./fake-anthropic-server.js";

const portFlag = process.argv.indexOf("--port");
const port = portFlag >= 0 ? Number(process.argv[portFlag + 1]) : 0;

const server = await startFakeAnthropicServer(coordinationHandler(), { port });
process.stdout.write(`LISTENING ${server.url}\n`);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
