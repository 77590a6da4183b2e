/**
 * The failure memory of `coord serve` (./failure-memory.ts) as an attack: a client that re-sends
 * a request whose team run failed — as LangChain JS and the AI SDK do with every 5xx, ignoring
 * `x-should-retry: false` — gets the same error at once and never runs the paid team again.
 * Without the memory each repeat below would be a new run (onRunEnd counts them).
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { createApp, type AppOptions } from "./app.js";
import { ApiError } from "./api-error.js";
import { createFailureMemory, FAILURE_MEMORY_MS } from "./failure-memory.js";
import { loadServedTeam } from "./served-team.js";

const FAILING = `agents:
  - id: broken
    backend:
      type: scripted
      steps:
        - error: { status: 401, message: "Incorrect API key provided" }
`;

/** An app serving `yaml`, a clock the test moves, the runs it started and its access log. */
async function serving(yaml: string, options: Partial<AppOptions> = {}) {
  const cwd = await mkdtemp(join(tmpdir(), "coord-failure-memory-"));
  await writeFile(join(cwd, "team.yaml"), yaml);
  const team = await loadServedTeam("team.yaml", { cwd, env: {} });
  const clock = { now: 1_767_225_600_000 };
  let runs = 0;
  const log: string[] = [];
  const app = createApp({
    team,
    cwd,
    env: {},
    version: "0.0.0-test",
    stream: true,
    now: () => clock.now,
    onRunEnd: () => runs++,
    onLog: (line) => log.push(line),
    ...options,
  });
  const post = (body: string) =>
    app.request("/v1/chat/completions", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
  return { post, clock, runs: () => runs, log };
}

const body = (question: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: "coord", messages: [{ role: "user", content: question }], ...extra });

interface ErrorBody {
  error: { message: string; type: string; param: string | null; code: string | null };
}

describe("a failed run answers its repeats without running again", () => {
  test("six retries of the same body: one run, the same error each time, marked in the log", async () => {
    const { post, clock, runs, log } = await serving(FAILING);
    const first = await post(body("What is 2 + 2?"));
    expect(first.status).toBe(500);
    expect(first.headers.get("x-should-retry")).toBe("false");
    const original = ((await first.json()) as ErrorBody).error;
    for (let retry = 1; retry <= 6; retry++) {
      clock.now += 20_000; // LangChain's backoff: up to 2 min in all
      const repeat = await post(body("What is 2 + 2?"));
      expect(repeat.status).toBe(500);
      expect(repeat.headers.get("x-should-retry")).toBe("false");
      const error = ((await repeat.json()) as ErrorBody).error;
      expect({ ...error, message: "" }).toEqual({ ...original, message: "" });
      expect(error.message).toContain(original.message);
      expect(error.message).toContain(`the same request failed ${retry * 20} s ago`);
    }
    expect(runs()).toBe(1);
    expect(log.filter((line) => line.includes(": no run)"))).toHaveLength(6);
  });

  test("a streamed repeat gets the same error event, as the first time, without a run", async () => {
    const { post, runs } = await serving(FAILING);
    const events = async (response: Response) =>
      (await response.text()).split("\n\n").filter((event) => event.startsWith('data: {"error"'));
    const first = await events(await post(body("What is 2 + 2?", { stream: true })));
    const repeat = await events(await post(body("What is 2 + 2?", { stream: true })));
    expect(first).toHaveLength(1);
    expect(repeat).toHaveLength(1);
    const error = (event: string) => (JSON.parse(event.slice(6)) as ErrorBody).error;
    expect(error(repeat[0]!).code).toBe(error(first[0]!).code);
    expect(error(repeat[0]!).message).toContain(error(first[0]!).message);
    expect(runs()).toBe(1);
  });

  test("another question, or a repeat after the memory's time: a new run", async () => {
    const { post, clock, runs } = await serving(FAILING);
    expect((await post(body("What is 2 + 2?"))).status).toBe(500);
    expect((await post(body("What is 3 + 3?"))).status).toBe(500);
    expect(runs()).toBe(2);
    clock.now += FAILURE_MEMORY_MS;
    expect((await post(body("What is 2 + 2?"))).status).toBe(500);
    expect(runs()).toBe(3);
  });

  test("a path: team whose file was fixed runs the same request again", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "coord-failure-memory-"));
    await writeFile(join(cwd, "team.yaml"), FAILING);
    let runs = 0;
    const app = createApp({
      cwd,
      env: {},
      version: "0.0.0-test",
      teamsDir: cwd,
      onRunEnd: () => runs++,
    });
    const ask = () =>
      app.request("/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "path:team.yaml",
          messages: [{ role: "user", content: "What is 2 + 2?" }],
        }),
      });
    expect((await ask()).status).toBe(500);
    expect((await ask()).status).toBe(500);
    expect(runs).toBe(1);
    await writeFile(
      join(cwd, "team.yaml"),
      "agents:\n  - id: solo\n    backend: { type: scripted, steps: [{ answer: '4.' }] }\n",
    );
    expect((await ask()).status).toBe(200);
    expect(runs).toBe(2);
  });

  test("failureMemoryMs 0 turns it off", async () => {
    const { post, runs } = await serving(FAILING, { failureMemoryMs: 0 });
    await post(body("What is 2 + 2?"));
    await post(body("What is 2 + 2?"));
    expect(runs()).toBe(2);
  });

  test("a success is never replayed", async () => {
    const { post, runs } = await serving(
      "agents:\n  - id: solo\n    backend: { type: scripted, steps: [{ answer: '4.' }] }\n",
    );
    expect((await post(body("What is 2 + 2?"))).status).toBe(200);
    expect((await post(body("What is 2 + 2?"))).status).toBe(200);
    expect(runs()).toBe(2);
  });
});

describe("createFailureMemory", () => {
  const now = { at: 0 };
  const failed = new ApiError(500, "every agent failed", { code: "run_failed" });

  test("keeps only failures a retry would repeat; the busy server and a shutdown are retried", () => {
    const memory = createFailureMemory({ now: () => now.at });
    const busy = new ApiError(503, "busy", { code: "server_busy", retryable: true });
    const shutdown = new ApiError(503, "shutting down", { code: "run_interrupted" });
    memory.remember("busy", busy);
    memory.remember("shutdown", shutdown);
    memory.remember("internal", new Error("bug"));
    memory.remember("failed", failed);
    expect(memory.recall("busy")).toBeUndefined();
    expect(memory.recall("shutdown")).toBeUndefined();
    expect(memory.recall("internal")).toBeUndefined();
    expect(memory.recall("failed")?.error).toMatchObject({ status: 500, code: "run_failed" });
  });

  test("holds at most maxEntries failures: a flood of failing requests cannot grow it", () => {
    const memory = createFailureMemory({ now: () => now.at, maxEntries: 3 });
    for (const key of ["a", "b", "c", "d"]) memory.remember(key, failed);
    expect(["a", "b", "c", "d"].map((key) => memory.recall(key) !== undefined)).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  test("keys differ by team, by its config and by body", () => {
    const memory = createFailureMemory({ now: () => now.at });
    const key = memory.keyOf("coord/team", { agents: [] }, "{}");
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(memory.keyOf("coord/team", { agents: [] }, "{}")).toBe(key);
    expect(memory.keyOf("coord/other", { agents: [] }, "{}")).not.toBe(key);
    expect(memory.keyOf("coord/team", { agents: [1] }, "{}")).not.toBe(key);
    expect(memory.keyOf("coord/team", { agents: [] }, "{ }")).not.toBe(key);
  });
});
