/**
 * No key leaves the process (docs/server.md "Security"). A fake provider that
 * echoes the API key it was sent, as real providers do for a malformed key: in a 401 error body
 * (one agent, its key written in the config) and in a streamed answer plus an SSE error frame
 * (another agent, its key from OPENAI_API_KEY). Through `coord serve --debug` (built CLI, real
 * sockets) and a plain CLI run, the keys reach the provider, yet no file under the log
 * directory, no stderr or stdout line and no HTTP body contains either of them.
 */
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox, runCli } from "./support/cli.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";
import { startServe, type ServeProcess } from "./support/serve.js";

/** Key-shaped (the usual `sk-` form), given through the environment. */
const ENV_KEY = "sk-proj-EchoedKey0123456789abcdefSECRET";
/** Not key-shaped: only known because the config names it `api_key`. */
const CONFIG_KEY = "plainvalue0123456789XYZsecret";
const KEYS = [ENV_KEY, CONFIG_KEY];

let serve: ServeProcess | undefined;
let provider: FakeOpenAIServer | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  await provider?.close();
  serve = provider = undefined;
});

/** A provider that answers every call by echoing the key it was sent. */
async function echoingProvider(): Promise<FakeOpenAIServer> {
  return startFakeOpenAIServer((request) => {
    const auth = String(request.headers.authorization ?? "");
    if (auth.includes(CONFIG_KEY)) {
      return {
        error: {
          status: 401,
          message: `Incorrect API key provided: ${CONFIG_KEY}. You can find your API key at https://example.com.`,
          code: "invalid_api_key",
        },
      };
    }
    return {
      text: `Calling with ${ENV_KEY} as asked.`,
      streamError: {
        message: `Invalid authentication: the key ${ENV_KEY} was revoked`,
        type: "invalid_request_error",
        code: "invalid_api_key",
      },
    };
  });
}

async function writeTeams(cwd: string, providerUrl: string): Promise<void> {
  const leaky = `
  - id: leaky401
    backend: { type: chatcompletion, model: m, base_url: "${providerUrl}", api_key: "${CONFIG_KEY}" }
  - id: leakysse
    backend: { type: openai, model: gpt-4o, base_url: "${providerUrl}" }
`;
  await writeFile(
    join(cwd, "mixed.yaml"),
    `agents:
  - id: good
    backend:
      type: scripted
      steps: [{ answer: "4" }, { vote: agent1, reason: ok }, { text: "The answer is 4." }]
${leaky}`,
  );
  await writeFile(join(cwd, "leaky.yaml"), `agents:${leaky}`);
}

function post(port: number, model: string): Promise<{ status: number; text: string }> {
  const body = JSON.stringify({ model, messages: [{ role: "user", content: "What is 2+2?" }] });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v1/chat/completions",
        headers: { "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Every file under `dir`, recursively, as [path, text]. */
async function filesUnder(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) out.push(...(await filesUnder(path)));
    else out.push([path, await readFile(path, "utf8")]);
  }
  return out;
}

function expectNoKey(where: string, text: string): void {
  for (const key of KEYS) {
    if (text.includes(key)) throw new Error(`${where} contains the key ${key}:\n${text}`);
  }
}

describe("redaction", () => {
  test("coord serve --debug: the echoed keys reach no log file, no stderr line, no HTTP body", async () => {
    provider = await echoingProvider();
    const sandbox = await makeSandbox();
    await writeTeams(sandbox.cwd, provider.url);
    serve = await startServe(["--host", "127.0.0.1", "--port", "0", "--debug", "--teams", "."], {
      ...sandbox,
      env: { OPENAI_API_KEY: ENV_KEY },
    });

    const mixed = await post(serve.port, "path:mixed.yaml");
    expect(mixed.status).toBe(200);
    expect(mixed.text).toContain("The answer is 4.");
    const failed = await post(serve.port, "path:leaky.yaml");
    expect(failed.status).toBe(500);
    expect(failed.text).toContain("every agent failed");
    await serve.waitFor(/POST \/v1\/chat\/completions 500/);

    // The keys really were sent, and echoed back.
    const sent = provider.requests.map((request) => String(request.headers.authorization));
    expect(sent.some((auth) => auth.includes(CONFIG_KEY))).toBe(true);
    expect(sent.some((auth) => auth.includes(ENV_KEY))).toBe(true);

    // Where they were echoed, the redactor replaced them.
    expect(mixed.text).toContain("<redacted>");
    expect(failed.text).toContain("Incorrect API key provided: <redacted>");
    expect(failed.text).toContain("the key <redacted> was revoked");
    expectNoKey("the 200 body", mixed.text);
    expectNoKey("the 500 body", failed.text);

    serve.child.kill("SIGTERM");
    await serve.exited;
    expect(serve.stderr()).toContain("<redacted>"); // --debug printed the trace lines
    expectNoKey("stderr", serve.stderr());

    const files = await filesUnder(join(sandbox.cwd, "agent_outputs"));
    const names = files.map(([path]) => path.split("/").pop());
    for (const expected of [
      "events.jsonl",
      "status.json",
      "metrics.json",
      "execution_metadata.yaml",
      "coord_debug.log",
      "final_answer.md",
    ]) {
      expect(names).toContain(expected);
    }
    const all = files.map(([, text]) => text).join("\n");
    expect(all).toContain("<redacted>");
    for (const [path, text] of files) expectNoKey(path, text);
    // events.jsonl stays valid JSON Lines after redaction.
    for (const [path, text] of files.filter(([path]) => path.endsWith(".jsonl"))) {
      for (const line of text.trim().split("\n"))
        expect(() => JSON.parse(line) as unknown, path).not.toThrow();
    }
  });

  test("a CLI run: stdout, stderr and the run log hold no key", async () => {
    provider = await echoingProvider();
    const sandbox = await makeSandbox();
    await writeTeams(sandbox.cwd, provider.url);
    const result = await runCli(
      ["--config", "leaky.yaml", "--no-display", "--debug", "What is 2+2?"],
      {
        ...sandbox,
        env: { OPENAI_API_KEY: ENV_KEY },
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("<redacted>");
    expectNoKey("stdout", result.stdout);
    expectNoKey("stderr", result.stderr);
    for (const [path, text] of await filesUnder(join(sandbox.cwd, "agent_outputs"))) {
      expectNoKey(path, text);
    }
  });
});
