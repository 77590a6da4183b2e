/**
 * Batched events.jsonl writes (src/store/log-writer.ts) against a hard kill: the built
 * CLI runs a 3-agent team on the fake OpenAI server; one agent answers, the two others' calls
 * hang, so the run sits idle mid-way. It is killed with SIGKILL there (no exit handler runs).
 * The log must hold whole lines only, numbered without a gap, and every event up to the run
 * going idle: the answer and the end of the answerer's round.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test, vi } from "vitest";
import { parseEventLog } from "../src/events/index.js";
import { CLI, makeSandbox } from "./support/cli.js";
import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeReply,
} from "./support/fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
let release: (() => void) | undefined;
const cleanup: string[] = [];
afterEach(async () => {
  release?.();
  await server?.close();
  server = undefined;
  for (const dir of cleanup.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The first call answers with new_answer; every other one waits until the test ends. */
function handler(hung: Promise<void>) {
  let calls = 0;
  return async (): Promise<FakeReply> => {
    if (++calls === 1) {
      return { toolCalls: [{ name: "new_answer", arguments: { content: "The answer is 4." } }] };
    }
    await hung;
    return { text: "too late" };
  };
}

/** The events.jsonl of the one run under `cwd`, or undefined before it exists. */
function eventsFile(cwd: string): string | undefined {
  const root = join(cwd, "agent_outputs");
  if (!existsSync(root)) return undefined;
  const [log] = readdirSync(root);
  if (log === undefined) return undefined;
  const path = join(root, log, "turn_1", "attempt_1", "events.jsonl");
  return existsSync(path) ? path : undefined;
}

/** True once the log holds the run's answer and, after it, the end of the answerer's round. */
function answererDone(text: string): boolean {
  const { events } = parseEventLog(text);
  const answer = events.find((event) => event.type === "answer");
  return (
    answer !== undefined &&
    events.some(
      (event) =>
        event.seq > answer.seq && event.type === "round-end" && event.agentId === answer.agentId,
    )
  );
}

describe("events.jsonl after kill -9", () => {
  test("holds whole lines, every event up to the run going idle, without a gap", async () => {
    const hung = new Promise<void>((resolve) => (release = resolve));
    server = await startFakeOpenAIServer(handler(hung));
    const { cwd, home } = await makeSandbox();
    cleanup.push(join(cwd, ".."));
    const team = ["agents:"];
    for (const id of ["a", "b", "c"]) {
      team.push(
        `  - id: ${id}`,
        `    backend: { type: chatcompletion, model: m-${id}, base_url: "${server.url}" }`,
      );
    }
    writeFileSync(join(cwd, "team.yaml"), `${team.join("\n")}\n`);
    const child = spawn(
      process.execPath,
      [CLI, "--config", "team.yaml", "--no-display", "What is 2+2?"],
      {
        cwd,
        env: { PATH: process.env.PATH ?? "", HOME: home, OPENAI_API_KEY: "sk-test" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once("exit", (_code, signal) => resolve(signal)),
    );
    try {
      // Idle mid-way: the answerer's round is over; the two other agents' first calls wait at
      // the server. The events that say so are on disk by the end of their turn of the event loop.
      await vi.waitFor(
        () => expect(answererDone(readFileSync(eventsFile(cwd)!, "utf8"))).toBe(true),
        {
          timeout: 30_000,
          interval: 50,
        },
      );
      expect(server.requests.length).toBe(3);
    } finally {
      child.kill("SIGKILL");
    }
    expect(await exited).toBe("SIGKILL");

    const text = readFileSync(eventsFile(cwd)!, "utf8");
    expect(text.endsWith("\n")).toBe(true); // whole lines only
    const { events, truncated } = parseEventLog(text);
    expect(truncated).toBe(false);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    expect(events.some((event) => event.type === "run-end")).toBe(false); // it was cut off
    expect(events.filter((event) => event.type === "answer")).toHaveLength(1);
    expect(events.filter((event) => event.type === "round-start")).toHaveLength(3);
    expect(answererDone(text)).toBe(true);
  });
});
