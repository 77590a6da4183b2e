/**
 * The official python `openai` client against coord serve: streaming
 * from `--stream` (the trace as `reasoning_content`, the answer, usage; one request), without it
 * the spec's 501 sent once, and a failing team sent once (python `openai` retries a 5xx twice unless told not to). Runs with the python
 * named by COORD_TEST_PYTHON (default `python3`) when it has `openai` installed; otherwise it is
 * skipped with the reason printed.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createApp } from "../src/server/app.js";
import { loadServedTeam } from "../src/server/served-team.js";
import { startServer, type RunningServer } from "../src/server/start-server.js";

const PYTHON = process.env.COORD_TEST_PYTHON ?? "python3";
const probe = spawnSync(PYTHON, ["-c", "import openai; print(openai.__version__)"], {
  encoding: "utf8",
});
const available = probe.status === 0;
if (!available) {
  console.log(
    `serve-python-client: skipped: ${PYTHON} has no openai package (pip install openai, or set COORD_TEST_PYTHON)`,
  );
}

const SCRIPT = String.raw`
import json, sys, openai
base, mode = sys.argv[1], sys.argv[2]
client = openai.OpenAI(base_url=base, api_key="unused")
messages = [{"role": "user", "content": "What is 2 + 2?"}]
try:
    if mode == "stream":
        content, reasoning, usage, chunks = "", "", None, 0
        for chunk in client.chat.completions.create(model="coord", messages=messages, stream=True,
                                                    stream_options={"include_usage": True}):
            chunks += 1
            if chunk.choices:
                delta = chunk.choices[0].delta
                content += delta.content or ""
                reasoning += (delta.model_extra or {}).get("reasoning_content") or ""
            if chunk.usage:
                usage = chunk.usage.prompt_tokens
        print(json.dumps({"content": content, "reasoning": reasoning, "usage": usage,
                          "chunks": chunks}))
    else:
        client.chat.completions.create(model="coord", messages=messages)
        print(json.dumps({"error": None}))
except openai.APIError as error:
    # An HTTP error has its status; an error event in a stream has none.
    print(json.dumps({"error": getattr(error, "status_code", "stream"), "message": str(error)}))
`;

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close({ graceMs: 0 });
  server = undefined;
});

async function serveYaml(yaml: string, stream = true) {
  const cwd = await mkdtemp(join(tmpdir(), "coord-serve-python-"));
  await writeFile(join(cwd, "team.yaml"), yaml);
  const team = await loadServedTeam("team.yaml", { cwd, env: {} });
  const log: string[] = [];
  const app = createApp({
    team,
    cwd,
    env: {},
    version: "0.0.0-test",
    stream,
    onLog: (line) => log.push(line),
  });
  server = await startServer(app, { host: "127.0.0.1", port: 0 });
  return { url: `${server.url}/v1`, log };
}

/** Runs the python script (asynchronously: the server runs in this process). */
function python(url: string, mode: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ["-c", SCRIPT, url, mode], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (err += chunk));
    child.on("exit", (code) => {
      if (code === 0) resolve(JSON.parse(out) as Record<string, unknown>);
      else reject(new Error(`python exited ${code}: ${err}`));
    });
  });
}

const posts = (log: readonly string[]) =>
  log.filter((line) => line.includes("POST /v1/chat/completions"));

describe.skipIf(!available)("the python openai client against coord serve", () => {
  test("stream=True: the trace, the answer and usage, one request", async () => {
    const { url, log } = await serveYaml(
      "agents:\n  - id: solo\n    backend: { type: scripted, steps: [{ answer: '2 + 2 = 4.' }] }\n",
    );
    const result = await python(url, "stream");
    expect(result.content).toBe("2 + 2 = 4.");
    expect(String(result.reasoning).split("\n")[0]).toBe("[system] Question: What is 2 + 2?");
    expect(result.usage).toBeGreaterThan(0);
    expect(result.chunks).toBeGreaterThan(2);
    expect(posts(log)).toHaveLength(1);
  });

  test("without --stream: stream=True is the spec's 501, one request", async () => {
    const { url, log } = await serveYaml(
      "agents:\n  - id: solo\n    backend: { type: scripted, steps: [{ answer: '2 + 2 = 4.' }] }\n",
      false,
    );
    const result = await python(url, "stream");
    expect(result.error).toBe(501);
    expect(String(result.message)).toContain("streaming is not supported");
    expect(posts(log)).toHaveLength(1);
  });

  test("a failing team: one request, not three", async () => {
    const { url, log } = await serveYaml(
      "agents:\n  - id: solo\n    backend: { type: scripted, steps: [{ error: { status: 500, message: boom } }] }\n",
    );
    const result = await python(url, "fail");
    expect(result.error).toBe(500);
    expect(posts(log)).toHaveLength(1);
  });

  test("stream=True with a failing team: the error event python raises, one request", async () => {
    const { url, log } = await serveYaml(
      "agents:\n  - id: solo\n    backend: { type: scripted, steps: [{ error: { status: 500, message: boom } }] }\n",
    );
    const result = await python(url, "stream");
    expect(result.error).toBe("stream");
    expect(String(result.message)).toContain("every agent failed");
    expect(posts(log)).toHaveLength(1);
  });
});
