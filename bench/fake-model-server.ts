/**
 * The fake OpenAI server of the `coord serve` bench, in its own process: `node
 * dist/bench/fake-model-server.js` listens on a free port of 127.0.0.1, answers every model call
 * at once as {@link agreeingModel} does (answer, vote for agent1, present), prints `listening on
 * http://127.0.0.1:PORT` on stderr, keeps no request history (`GET /__requests` lists only the
 * last 50, for the floor server's copy of coord's requests), and exits on SIGTERM.
 */
import { startFakeOpenAIServer } from "../test/support/fake-openai-server.js";
import { agreeingModel } from "./agreeing-model.js";

const server = await startFakeOpenAIServer((request) => agreeingModel(request));
// Keep the history short: the load test sends thousands of requests.
const trim = setInterval(() => server.requests.splice(0, server.requests.length - 50), 500);
process.stderr.write(`listening on http://127.0.0.1:${server.port}\n`);
process.once("SIGTERM", () => {
  clearInterval(trim);
  void server.close().then(() => process.exit(0));
});
