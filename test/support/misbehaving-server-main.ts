/**
 * Runs the misbehaving-model fake as its own process, for trying coord by hand or from
 * another process:
 *
 *     node dist/test/support/misbehaving-server-main.js [--port N]
 *
 * Every model call is answered by {@link misbehavingHandler}: the request's `model` name picks
 * the behaviour (`sound`, `plain-text`, `unknown-tool@30`, `small-context-2000`, …; see
 * `fake-openai/misbehaving-handler.ts`). It prints `LISTENING http://127.0.0.1:PORT/v1` on stdout
 * once ready, serves the recorded requests at `GET /__requests` (per-model calls and prompt
 * tokens follow from them with `statsOf`), and on SIGTERM/SIGINT prints `STATS {json}` (calls,
 * prompt tokens, misbehaved and failed replies per model name) and exits.
 */
import { misbehavingHandler } from "./fake-openai/misbehaving-handler.js";
import { startFakeOpenAIServer } from "./fake-openai-server.js";

const portFlag = process.argv.indexOf("--port");
const port = portFlag >= 0 ? Number(process.argv[portFlag + 1]) : 0;

const fake = misbehavingHandler();
const server = await startFakeOpenAIServer(fake.handle, { port });
process.stdout.write(`LISTENING ${server.url}\n`);

const stop = () => {
  process.stdout.write(
    `STATS ${JSON.stringify({ models: fake.stats(), totals: fake.totals() })}\n`,
  );
  void server.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
