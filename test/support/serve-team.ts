/**
 * `coord serve` from the built CLI with a team of chatcompletion agents on a fake OpenAI provider
 * in the test's process, for the client tests (LangChain JS, the AI SDK, `openai`): what reached
 * coord is counted on the server side (its access-log lines), what the team ran on the provider's
 * side (its recorded model calls).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ECHO_USAGE, echoTeamConfig, questionOf } from "./echo-team.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  summarizeRequest,
  type FakeHandler,
  type FakeOpenAIServer,
  type FakeRequest,
} from "./fake-openai-server.js";
import { startServe, type ServeProcess } from "./serve.js";

/** A served team and its provider. */
export interface ServedTeamProcess {
  serve: ServeProcess;
  provider: FakeOpenAIServer;
  /** `http://127.0.0.1:PORT/v1`. */
  baseURL: string;
  /** The access-log lines of `POST /v1/chat/completions` so far (one per request coord got). */
  posts(): string[];
  /** Waits until `count` chat requests have been answered (their access lines printed). */
  waitForPosts(count: number): Promise<void>;
  /** Stops the server and the provider. */
  stop(): Promise<void>;
}

/**
 * Starts the fake provider with `handler` and `coord serve --config team.yaml` (an echo team of
 * `agents` agents on it; `--no-logs`, 127.0.0.1, a free port) with `args` added.
 */
export async function serveFakeTeam(
  handler: FakeHandler,
  options: { agents?: number; args?: readonly string[] } = {},
): Promise<ServedTeamProcess> {
  const provider = await startFakeOpenAIServer(handler);
  const cwd = await mkdtemp(join(tmpdir(), "coord-serve-team-"));
  await writeFile(join(cwd, "team.yaml"), echoTeamConfig(provider.url, options.agents ?? 2));
  const serve = await startServe(
    [
      "--config",
      "team.yaml",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--no-logs",
      ...(options.args ?? []),
    ],
    { cwd, home: cwd },
  );
  const posts = () =>
    serve
      .stderr()
      .split("\n")
      .filter((line) => / POST \/v1\/chat\/completions \d{3} /.test(line));
  return {
    serve,
    provider,
    baseURL: `${serve.url}/v1`,
    posts,
    waitForPosts: async (count) => {
      await serve.waitFor(
        new RegExp(`(?: POST /v1/chat/completions \\d{3} [^\\n]*\\n[^]*?){${count}}`),
      );
    },
    stop: async () => {
      if (serve.child.exitCode === null && serve.child.signalCode === null) {
        serve.child.kill("SIGTERM");
        await serve.exited;
      }
      await provider.close();
    },
  };
}

/** True for the final presentation's model call (the only one offered no tools). */
export function isPresentation(request: FakeRequest): boolean {
  return summarizeRequest(request).toolNames.length === 0;
}

/**
 * Wraps `inner` so the final presentation's model call waits until `release()`: until then the
 * run cannot end, so whatever a client receives before it came while the team was working.
 */
export function holdPresentation(inner: FakeHandler): { handler: FakeHandler; release(): void } {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    handler: async (request) => {
      if (isPresentation(request)) await released;
      return inner(request);
    },
    release: () => release(),
  };
}

/** The long final answer of {@link longAnswerHandler}: over 256 characters, so it streams in pieces. */
export function longAnswer(question: string): string {
  return `Final answer to: ${question} ${"Spiders have eight legs. ".repeat(20)}`.trimEnd();
}

/**
 * The echo team's handler (`./echo-team.ts`) whose presenter writes {@link longAnswer}; usage
 * {@link ECHO_USAGE} on every model call.
 */
export function longAnswerHandler(): FakeHandler {
  return (request) =>
    coordinationHandler({
      answer: (summary) =>
        `Answer to: ${questionOf(summary)} (temperature ${String(request.body.temperature)})`,
      finalAnswer: (summary) => longAnswer(questionOf(summary)),
      usage: ECHO_USAGE,
    })(request);
}

/** A provider that refuses every model call: the team fails (a 500 `run_failed`). */
export const failingProvider: FakeHandler = () => ({
  error: { status: 400, message: "model fake-model does not exist" },
});
