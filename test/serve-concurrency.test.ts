/**
 * `coord serve` under concurrent load: 16 requests in parallel with different questions, over a
 * real socket with the official `openai` client, a fake-provider team behind the server. Each
 * response answers its own question (runs share no state), and afterwards the server's memory
 * returns to its baseline: every run's state is garbage-collected and the heap is back within a
 * small margin of where it was before the batch.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import OpenAI from "openai";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { RunState } from "../src/session/reducer.js";
import { createApp } from "../src/server/app.js";
import { loadServedTeam } from "../src/server/served-team.js";
import { startServer, type RunningServer } from "../src/server/start-server.js";
import { echoHandler, echoTeamConfig } from "./support/echo-team.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

const PARALLEL = 16;
/**
 * Heap growth allowed over three batches (bytes): V8's compiled code and inline caches keep
 * growing slowly for a while (measured: ≈ 1–2 MB, flattening out over hundreds of requests).
 * The precise check is that every run's state is collected.
 */
const HEAP_MARGIN = 4 * 1024 * 1024;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

let provider: FakeOpenAIServer;
let server: RunningServer;
let client: OpenAI;
const states: WeakRef<RunState>[] = [];

beforeAll(async () => {
  provider = await startFakeOpenAIServer(echoHandler());
  const cwd = await mkdtemp(join(tmpdir(), "coord-serve-load-"));
  await writeFile(join(cwd, "team.yaml"), echoTeamConfig(provider.url, 3));
  const team = await loadServedTeam("team.yaml", { cwd, env: {} });
  const app = createApp({
    team,
    env: {},
    cwd,
    version: "0.0.0-test",
    onRunEnd: (state) => states.push(new WeakRef(state)),
  });
  server = await startServer(app, { host: "127.0.0.1", port: 0 });
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused", maxRetries: 0 });
});

afterAll(async () => {
  await server.close({ graceMs: 0 });
  await provider.close();
});

/** Sends PARALLEL different questions at once; returns [question, answer] pairs. */
async function batch(tag: string): Promise<Array<[string, string | null]>> {
  const questions = Array.from(
    { length: PARALLEL },
    (_, index) => `Batch ${tag}, question ${index}: what is ${index} + ${index * 7}?`,
  );
  const completions = await Promise.all(
    questions.map((question) =>
      client.chat.completions.create({
        model: "coord",
        messages: [{ role: "user", content: question }],
      }),
    ),
  );
  return questions.map((question, index) => [
    question,
    completions[index]!.choices[0]!.message.content,
  ]);
}

async function settledHeap(): Promise<number> {
  for (let round = 0; round < 4; round++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

test("16 parallel requests each answer their own question; memory returns to baseline", async () => {
  // Warm-up: loads the modules, JIT-compiles the hot paths, fills the connection pools.
  for (const tag of ["warm-up 1", "warm-up 2"]) {
    for (const [question, answer] of await batch(tag)) {
      expect(answer).toBe(`Final answer to: ${question}`);
    }
  }
  provider.requests.length = 0; // the fake provider's own record is not the server's memory
  const baseline = await settledHeap();
  const before = states.length;

  for (const tag of ["A", "B", "C"]) {
    const pairs = await batch(tag);
    for (const [question, answer] of pairs) expect(answer).toBe(`Final answer to: ${question}`);
    expect(new Set(pairs.map(([, answer]) => answer)).size).toBe(PARALLEL);
    provider.requests.length = 0;
  }
  expect(states.length - before).toBe(3 * PARALLEL);

  const after = await settledHeap();
  // Every run's state was released (nothing keeps finished runs alive).
  expect(states.filter((ref) => ref.deref() !== undefined)).toHaveLength(0);
  expect(after - baseline).toBeLessThan(HEAP_MARGIN);
  const health = (await (await fetch(`${server.url}/health`)).json()) as { in_flight: number };
  expect(health.in_flight).toBe(0);
}, 60_000); // 16 whole runs in parallel and the heap settling: real work, longer than a unit test's 10 s on a loaded machine
