/**
 * The app of `coord serve` through `app.request()` (CONTRIBUTING.md rule 12): every status of
 * docs/server.md on scripted teams (no keys, no network).
 */
import { RunStopped } from "../engine/index.js";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import type { RunState } from "../session/reducer.js";
import { createApp, type AppOptions } from "./app.js";
import { loadServedTeam, type ServedTeam } from "./served-team.js";

const CWD = process.cwd();
let scripted: ServedTeam;
let dir: string;

beforeAll(async () => {
  scripted = await loadServedTeam("@examples/scripted_team", { cwd: CWD, env: {} });
  dir = await mkdtemp(join(tmpdir(), "coord-server-"));
});

function app(options: Partial<AppOptions> = {}) {
  return createApp({ team: scripted, env: {}, cwd: CWD, version: "9.9.9", ...options });
}

function post(
  target: ReturnType<typeof createApp>,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return target.request("/v1/chat/completions", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const ask = (content: unknown = "What is 2+2?") => ({
  model: "anything",
  messages: [{ role: "user", content }],
});

interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

async function expectError(response: Response, status: number, match: Partial<ErrorBody["error"]>) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toContain("application/json");
  const body = (await response.json()) as ErrorBody;
  expect(Object.keys(body.error).sort()).toEqual(["code", "message", "param", "type"]);
  expect(body.error).toMatchObject(match);
  expect(body.error.message).not.toContain("\n");
  return body.error;
}

/** A config file in the temp dir. */
async function configFile(name: string, yaml: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, yaml);
  return path;
}

describe("GET /health and /v1/models", () => {
  test("health says ok, the version and whether a default config is loaded", async () => {
    const withConfig = await app().request("/health");
    expect(withConfig.status).toBe(200);
    expect(await withConfig.json()).toMatchObject({
      status: "ok",
      version: "9.9.9",
      default_config: true,
      model: "coord/scripted_team",
    });
    const without = await app({ team: undefined }).request("/health");
    expect(await without.json()).toMatchObject({
      status: "ok",
      default_config: false,
      config: null,
    });
  });

  test("models lists the served team, or the built-in examples without a config", async () => {
    const served = (await (await app().request("/v1/models")).json()) as {
      object: string;
      data: { id: string; object: string }[];
    };
    expect(served.object).toBe("list");
    expect(served.data).toEqual([
      expect.objectContaining({ id: "coord/scripted_team", object: "model" }),
    ]);
    const examples = (await (await app({ team: undefined }).request("/v1/models")).json()) as {
      data: { id: string }[];
    };
    expect(examples.data.map((model) => model.id)).toContain("@examples/scripted_team");
  });
});

describe("POST /v1/chat/completions", () => {
  test("the team's final answer, its trace as reasoning_content, and the run's usage", async () => {
    let finished: RunState | undefined;
    const response = await post(app({ onRunEnd: (state) => (finished = state) }), ask());
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      id: string;
      object: string;
      created: number;
      model: string;
      choices: { index: number; message: Record<string, string>; finish_reason: string }[];
      usage: Record<string, unknown>;
    };
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{24}$/);
    expect(body.object).toBe("chat.completion");
    expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(3600);
    expect(body.model).toBe("coord/scripted_team");
    expect(body.choices).toHaveLength(1);
    const [choice] = body.choices;
    expect(choice!.finish_reason).toBe("stop");
    expect(choice!.message.role).toBe("assistant");
    expect(choice!.message.content).toBe("2 + 2 = 4.");
    const lines = choice!.message.reasoning_content!.split("\n");
    expect(lines[0]).toBe("[system] Question: What is 2+2?");
    expect(lines).toContain("[alice] New answer agent1.1: 2 + 2 = 4.");
    expect(lines).toContain(
      "[orchestrator] Vote: alice (from bob: Same result, stated more directly.)",
    );
    expect(lines).toContain("[orchestrator] Winner: alice (agent1.1; 3 votes)");
    for (const line of lines) expect(line).toMatch(/^\[(system|orchestrator|alice|bob|carol)\] \S/);
    const usage = finished!.totals.usage;
    expect(usage.inputTokens).toBeGreaterThan(0);
    expect(body.usage).toEqual({
      prompt_tokens: usage.inputTokens,
      completion_tokens: usage.outputTokens,
      total_tokens: usage.inputTokens + usage.outputTokens,
      prompt_tokens_details: { cached_tokens: usage.cachedInputTokens },
      completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    });
  });

  test("usage equals the run log's metrics.json; the log directory is named in a header", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coord-server-logs-"));
    const response = await post(app({ cwd, logRoot: "agent_outputs" }), ask());
    expect(response.status).toBe(200);
    const logDir = response.headers.get("x-coord-log-dir");
    expect(logDir).toMatch(/^agent_outputs\/log_\d{8}_\d{6}/);
    const metrics = JSON.parse(
      await readFile(join(cwd, logDir!, "turn_1", "attempt_1", "metrics.json"), "utf8"),
    ) as { totals: { tokens: Record<string, number> } };
    const { usage } = (await response.json()) as { usage: Record<string, number> };
    expect(usage.prompt_tokens).toBe(metrics.totals.tokens.input);
    expect(usage.completion_tokens).toBe(metrics.totals.tokens.output);
    expect(usage.total_tokens).toBe(metrics.totals.tokens.total);
  });

  test("history, system messages and text parts reach every agent", async () => {
    const path = await configFile(
      "expect.yaml",
      `
agents:
  - id: solo
    system_message: "Own system message."
    backend:
      type: scripted
      steps:
        - answer: "Paris."
          expect_prompt_contains:
            - "Own system message."
            - "Answer in one word."
            - "User: Capital of Italy?"
            - "Assistant: Rome."
            - "Capital of France?\\nPlease."
`,
    );
    const team = await loadServedTeam(path, { cwd: CWD, env: {} });
    const response = await post(app({ team }), {
      messages: [
        { role: "system", content: "Answer in one word." },
        { role: "user", content: "Capital of Italy?" },
        { role: "assistant", content: [{ type: "text", text: "Rome." }] },
        {
          role: "user",
          content: [
            { type: "text", text: "Capital of France?" },
            { type: "text", text: "Please." },
          ],
        },
      ],
    });
    const body = (await response.json()) as { choices: { message: { content: string } }[] };
    expect(response.status).toBe(200);
    expect(body.choices[0]!.message.content).toBe("Paris.");
  });

  test("x-request-id is honoured when given and generated otherwise", async () => {
    const given = await post(app(), ask(), { "x-request-id": "my-trace-42" });
    expect(given.headers.get("x-request-id")).toBe("my-trace-42");
    const generated = await post(app(), ask());
    expect(generated.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const errored = await app().request("/nope");
    expect(errored.headers.get("x-request-id")).toMatch(/^req_/);
  });

  test("stream: true is a 501 in the OpenAI error shape", async () => {
    const response = await post(app(), { ...ask(), stream: true });
    expect(response.headers.get("x-should-retry")).toBe("false");
    const error = await expectError(response, 501, {
      param: "stream",
      code: "streaming_not_supported",
    });
    expect(error.message).toContain("streaming is not supported");
  });

  test.each([
    ["invalid JSON", "{not json", null, "invalid_json"],
    ["a body that is not an object", "[1, 2]", null, "invalid_json"],
    ["no messages", { model: "x" }, "messages", "missing_required_parameter"],
    ["empty messages", { messages: [] }, "messages", "empty_array"],
    ["messages not an array", { messages: "hi" }, "messages", "invalid_type"],
    ["a message that is not an object", { messages: ["hi"] }, "messages[0]", "invalid_type"],
    [
      "a message without role",
      { messages: [{ content: "hi" }] },
      "messages[0].role",
      "missing_required_parameter",
    ],
    [
      "a message without content",
      { messages: [{ role: "user" }] },
      "messages[0].content",
      "missing_required_parameter",
    ],
    [
      "an unknown role",
      { messages: [{ role: "tool", content: "x" }] },
      "messages[0].role",
      "invalid_value",
    ],
    [
      "content of the wrong type",
      { messages: [{ role: "user", content: 42 }] },
      "messages[0].content",
      "invalid_type",
    ],
    [
      "an image part",
      { messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "x" } }] }] },
      "messages[0].content[0]",
      "invalid_content_part",
    ],
    ["a model that is not a string", { ...ask(), model: 7 }, "model", "invalid_type"],
    ["a stream flag that is not a boolean", { ...ask(), stream: "yes" }, "stream", "invalid_type"],
    [
      "no user message",
      { messages: [{ role: "system", content: "x" }] },
      "messages",
      "no_user_message",
    ],
    ["an empty question", ask("   "), "messages[0].content", "empty_question"],
    [
      "an assistant message after the question",
      {
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "a" },
        ],
      },
      "messages[1].role",
      "invalid_message_order",
    ],
  ])("%s is a 400", async (_name, body, param, code) => {
    await expectError(await post(app(), body), 400, {
      type: "invalid_request_error",
      param,
      code,
    });
  });

  test("a body over the limit is a 413 (default 1 MiB)", async () => {
    const big = ask("x".repeat(1024 * 1024));
    await expectError(await post(app(), big), 413, { code: "request_too_large" });
    const small = await post(app({ maxBodyBytes: 100 }), ask("y".repeat(200)));
    await expectError(small, 413, { type: "invalid_request_error" });
  });

  test("unknown paths are 404 and wrong methods 405, in the same error shape", async () => {
    await expectError(await app().request("/v2/anything"), 404, {
      type: "not_found_error",
      code: "unknown_url",
    });
    const wrongMethod = await app().request("/v1/chat/completions");
    expect(wrongMethod.headers.get("allow")).toBe("POST");
    await expectError(wrongMethod, 405, { code: "method_not_allowed" });
  });
});

describe("without a server config, the request's model names the team", () => {
  const noConfig = () => app({ team: undefined });

  test("@examples/NAME and path:FILE run that config; the response names the model", async () => {
    const example = await post(noConfig(), { ...ask(), model: "@examples/scripted_team" });
    expect(example.status).toBe(200);
    expect(await example.json()).toMatchObject({
      model: "@examples/scripted_team",
      choices: [{ message: { content: "2 + 2 = 4." } }],
    });
    const path = await configFile(
      "one.yaml",
      "agents:\n  - id: one\n    backend: { type: scripted, steps: [{ answer: 'From a file.' }] }\n",
    );
    // path: names files in the operator's teams folder only.
    const inDir = app({ team: undefined, cwd: dir, teamsDir: dir });
    const file = await post(inDir, { ...ask(), model: "path:one.yaml" });
    expect(await file.json()).toMatchObject({
      model: "path:one.yaml",
      choices: [{ message: { content: "From a file." } }],
    });
    const absolute = await post(inDir, { ...ask(), model: `path:${path}` });
    expect(absolute.status).toBe(200);
  });

  test("<backend>/<model> is a one-agent team (here a scripted agent with no steps: 500)", async () => {
    const error = await expectError(
      await post(noConfig(), { ...ask(), model: "scripted/empty" }),
      500,
      {
        type: "server_error",
        code: "run_failed",
      },
    );
    expect(error.message).toMatch(
      /^every agent failed\b.*agent_a: scripted backend empty: unexpected call/,
    );
  });

  test("anything else is a 400 that lists the accepted forms", async () => {
    for (const model of ["gpt-4o", "nosuchbackend/model", undefined]) {
      const error = await expectError(await post(noConfig(), { ...ask(), model }), 400, {
        param: "model",
      });
      expect(error.message).toContain("@examples/NAME");
      expect(error.message).toContain("path:FILE");
      expect(error.message).toContain("<backend>/<model>");
    }
    const unknown = await expectError(
      await post(noConfig(), { ...ask(), model: "@examples/no_such_example" }),
      400,
      { param: "model", code: "model_not_found" },
    );
    expect(unknown.message).toContain("@examples/scripted_team");
    await expectError(await post(noConfig(), { ...ask(), model: "path:missing.yaml" }), 400, {
      param: "model",
    });
  });
});

describe("runs that fail", () => {
  test("every agent failing is a 500 with the providers' reasons", async () => {
    const path = await configFile(
      "failing.yaml",
      `
agents:
  - id: broken
    backend:
      type: scripted
      steps:
        - error: { status: 401, message: "Incorrect API key provided" }
        - error: { status: 401, message: "Incorrect API key provided" }
`,
    );
    const team = await loadServedTeam(path, { cwd: CWD, env: {} });
    const error = await expectError(await post(app({ team }), ask()), 500, { code: "run_failed" });
    expect(error.message).toContain("broken: Incorrect API key provided");
  });

  test("a run past the server's request timeout is a 504", async () => {
    const path = await configFile(
      "slow.yaml",
      "agents:\n  - id: slow\n    backend: { type: scripted, steps: [{ answer: 'late', delay_ms: 60000 }] }\n",
    );
    const team = await loadServedTeam(path, { cwd: CWD, env: {} });
    const error = await expectError(await post(app({ team, requestTimeoutMs: 50 }), ask()), 504, {
      type: "timeout_error",
      code: "run_timeout",
    });
    expect(error.message).toContain("--request-timeout");
  });

  test("a run past the config's orchestrator timeout without an answer is a 504", async () => {
    const path = await configFile(
      "orchestrator-timeout.yaml",
      `
agents:
  - id: slow
    backend: { type: scripted, steps: [{ answer: "late", delay_ms: 60000 }] }
timeout_settings: { orchestrator_timeout_seconds: 0.05 }
`,
    );
    const team = await loadServedTeam(path, { cwd: CWD, env: {} });
    const error = await expectError(await post(app({ team }), ask()), 504, { code: "run_timeout" });
    expect(error.message).toContain("orchestrator_timeout_seconds");
  });

  test("runs stopped by the server's shutdown signal are a 503", async () => {
    const path = await configFile(
      "stopped.yaml",
      "agents:\n  - id: slow\n    backend: { type: scripted, steps: [{ answer: 'late', delay_ms: 60000 }] }\n",
    );
    const team = await loadServedTeam(path, { cwd: CWD, env: {} });
    const shutdown = new AbortController();
    const pending = post(app({ team, signal: shutdown.signal }), ask());
    shutdown.abort(new RunStopped("shutdown"));
    const error = await expectError(await pending, 503, { code: "run_interrupted" });
    expect(error.message).toContain("the server is shutting down");
  });
});

describe("bearer authentication (COORD_SERVER_API_KEY)", () => {
  const secured = () => app({ apiKey: "sk-coord-secret" });

  test("/v1/* needs the key; /health stays open", async () => {
    const missing = await secured().request("/v1/models");
    expect(missing.headers.get("www-authenticate")).toContain("Bearer");
    await expectError(missing, 401, { type: "authentication_error", code: "missing_api_key" });
    await expectError(await post(secured(), ask(), { authorization: "Bearer wrong" }), 401, {
      code: "invalid_api_key",
    });
    const allowed = await post(secured(), ask(), { authorization: "Bearer sk-coord-secret" });
    expect(allowed.status).toBe(200);
    expect((await secured().request("/health")).status).toBe(200);
  });
});
