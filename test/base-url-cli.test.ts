/**
 * Quick setup against an OpenAI-compatible server: `--base-url URL -m NAME`
 * runs one `chatcompletion` agent on that server with no config file, as `llm` and `aichat` users
 * expect; the fake Chat Completions server on 127.0.0.1 records the request.
 */
import { afterEach, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeOpenAIServer,
} from "./support/fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

test("--base-url and -m run one agent on an OpenAI-compatible server, no config file", async () => {
  server = await startFakeOpenAIServer(coordinationHandler({ answer: "The answer is 4." }));
  const sandbox = await makeSandbox();
  const result = await runCli(
    ["--base-url", server.url, "-m", "my-local-model", "--no-display", "What is 2+2?"],
    { ...sandbox, env: { OPENAI_API_KEY: "sk-test-not-used-0000" } },
  );
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("The answer is 4.\n");
  const posts = server.requests.filter((request) => request.method === "POST");
  expect(posts.length).toBeGreaterThan(0);
  expect(posts.every((request) => request.path === "/v1/chat/completions")).toBe(true);
  expect(posts[0]!.body).toMatchObject({ model: "my-local-model" });
});

test("--base-url without a model name says what is missing", async () => {
  const sandbox = await makeSandbox();
  const result = await runCli(
    ["--base-url", "http://127.0.0.1:9/v1", "--no-display", "What is 2+2?"],
    sandbox,
  );
  expect(result.code).toBe(1);
  expect(result.stderr).toContain("--backend chatcompletion needs --model NAME");
});
