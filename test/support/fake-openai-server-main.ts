/**
 * Runs the fake OpenAI server as its own process, for end-to-end tests that spawn the built CLI:
 *
 *     node dist/test/support/fake-openai-server-main.js [--port N]
 *
 * It answers every model call with {@link coordinationHandler} (answer, then vote for agent1, then
 * a plain-text final answer), prints `LISTENING http://127.0.0.1:PORT/v1` on stdout once ready,
 * serves the recorded requests at `GET /__requests`, and exits on SIGTERM/SIGINT.
 */
import { coordinationHandler, startFakeOpenAIServer } from "./fake-openai-server.js";

const portFlag = process.argv.indexOf("--port");
const port = portFlag >= 0 ? Number(process.argv[portFlag + 1]) : 0;

const server = await startFakeOpenAIServer(coordinationHandler(), { port });
process.stdout.write(`LISTENING ${server.url}\n`);

const stop = () => {
  void server.close().then(() => process.exit(0));
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
