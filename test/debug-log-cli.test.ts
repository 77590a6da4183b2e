/**
 * `--debug` (spec §4.1): the built CLI against a fake Chat Completions server on
 * 127.0.0.1. `coord_debug.log` says where the config came from, each agent's backend, model, base
 * URL and key source, each model request (agent, model, status, tokens, ms), the retry, the tool
 * calls, the rounds, errors with their cause and the run's end; each line is stamped with the time
 * it was written (the 60 ms retry wait shows between two lines); no key value reaches it.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

const CONFIG_KEY = "sk-debuglogconfigkey0123456789abcdef";
const ENV_KEY = "sk-proj-debuglogenvkey0123456789ABCDEF";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function debugLog(cwd: string): Promise<string> {
  const root = join(cwd, "agent_outputs");
  const [log] = await readdir(root);
  return readFile(join(root, log!, "coord_debug.log"), "utf8");
}

const STAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) /;

describe("coord --debug", () => {
  test("config source, agents, model requests, retry, tools, rounds, stamped as written, no key", async () => {
    server = await startFakeOpenAIServer([
      { error: { status: 429, message: "Rate limit reached", retryAfterMs: 60 } },
      {
        toolCalls: [{ name: "new_answer", arguments: { content: `4 (key ${CONFIG_KEY})` } }],
        usage: { inputTokens: 120, outputTokens: 7 },
      },
    ]);
    const box = await makeSandbox();
    await writeFile(
      join(box.cwd, "team.yaml"),
      `agents:\n  - id: solo\n    backend: { type: chatcompletion, model: m, base_url: "${server.url}", api_key: "\${MY_KEY}" }\n`,
    );
    const result = await runCli(["--config", "team.yaml", "--debug", "--no-display", "2+2?"], {
      ...box,
      env: { MY_KEY: CONFIG_KEY, OPENAI_API_KEY: ENV_KEY },
    });
    expect(result.stderr).not.toContain(CONFIG_KEY);
    expect(result.code).toBe(0);
    const text = await debugLog(box.cwd);
    expect(text).not.toContain(CONFIG_KEY);
    expect(text).not.toContain(ENV_KEY);

    const lines = text.trimEnd().split("\n");
    for (const line of lines) expect(line).toMatch(STAMP);
    const times = lines.map((line) => Date.parse(STAMP.exec(line)![1]!));
    // Written in order, each with its own time: the retry waited 60 ms between two lines.
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const at = (pattern: RegExp) => times[lines.findIndex((line) => pattern.test(line))]!;
    expect(at(/model request end/) - at(/#\d+ solo: round 1 start/)).toBeGreaterThanOrEqual(60);

    const body = lines.map((line) => line.replace(STAMP, ""));
    const has = (pattern: RegExp) => expect(body.some((line) => pattern.test(line))).toBe(true);
    has(new RegExp(`^config: ${escape(join(box.cwd, "team.yaml"))} \\(--config team\\.yaml\\)$`));
    has(
      new RegExp(
        `^agent solo: backend chatcompletion, model m, base_url ${escape(server.url)}, API key api_key in the config \\(redacted\\)$`,
      ),
    );
    has(/^args: --config team\.yaml --debug --no-display 2\+2\?$/);
    has(/^session session_\d{8}_\d{6}: new, turn 1$/);
    has(
      /^#\d+ run start: mode single, 1 agent \(solo = agent1, chatcompletion\/m\), 0 earlier turns/,
    );
    has(
      /^#\d+ solo: round 1 start \(coordinate, attempt 1, sees no answers\); model request 1 start: chatcompletion\/m$/,
    );
    has(
      /^#\d+ solo: model request retry 1 \(chatcompletion\/m\) in 60 ms after http 429: .*Rate limit reached/,
    );
    has(
      /^#\d+ solo: model request end: chatcompletion\/m ok, finish tool-calls, tokens in 120 \(cached 0\) out 7 \(reasoning 0\), \d+ ms/,
    );
    has(
      /^#\d+ solo: tool call new_answer \(\S+, round 1\) input \{"content":"4 \(key <redacted>\)"\}/,
    );
    has(/^#\d+ solo: tool result new_answer \(\S+\) ok in \d+ ms/);
    has(/^#\d+ solo: round 1 end: answer in \d+ ms$/);
    has(/^#\d+ run end: completed in \d+ ms$/);
  });

  test("a provider error is logged with its cause and status; the run's end with its error", async () => {
    // Every request refused: not retried; the agent is removed after its second failed round.
    server = await startFakeOpenAIServer(() => ({
      error: { status: 401, message: "Incorrect API key provided" },
    }));
    const box = await makeSandbox();
    const result = await runCli(
      ["--base-url", server.url, "-m", "m", "--debug", "--no-display", "2+2?"],
      { ...box, env: { OPENAI_API_KEY: ENV_KEY } },
    );
    expect(result.code).toBe(2);
    const body = (await debugLog(box.cwd)).split("\n").map((line) => line.replace(STAMP, ""));
    const has = (pattern: RegExp) => expect(body.some((line) => pattern.test(line))).toBe(true);
    has(/^config: quick setup from the command line \(no config file\)$/);
    has(/^#\d+ \S+: model request end: chatcompletion\/m failed, finish error/);
    has(
      /^#\d+ \S+: error \(cause provider.*status 401, not retryable, round 1\): .*Incorrect API key/,
    );
    has(/^#\d+ \S+: error \(cause provider.*status 401.*agent removed.*Incorrect API key/);
    has(/^#\d+ run end: failed in \d+ ms; error: /);
    expect(body.join("\n")).not.toContain(ENV_KEY);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
