/**
 * The straggler rule end to end: the built CLI runs a team in which one agent's
 * provider (a fake OpenAI-compatible server on 127.0.0.1) never answers. The two other agents
 * answer at once; once they are done the hanging agent is cut after
 * `straggler_timeout_seconds` (here 1 s, to keep the test short; the default is 60 s, checked on
 * a virtual clock in src/engine/straggler.test.ts), and the run ends with their answer instead of
 * waiting out the 300 s request timeout and its retries.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { parseEventLog } from "../src/events/index.js";
import { makeSandbox, onlyAttemptDir, runCli } from "./support/cli.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";

let provider: FakeOpenAIServer | undefined;
let release: () => void = () => undefined;
afterEach(async () => {
  release();
  await provider?.close();
  provider = undefined;
});

describe("a hanging provider", () => {
  test("is cut once the others are done; the run completes with their answer", async () => {
    const hung = new Promise<void>((resolve) => (release = resolve));
    provider = await startFakeOpenAIServer(async () => {
      await hung;
      return { text: "too late" };
    });
    const sandbox = await makeSandbox();
    await writeFile(
      join(sandbox.cwd, "team.yaml"),
      `agents:
  - id: alice
    backend:
      type: scripted
      steps: [{ answer: "4" }, { vote: agent1, reason: ok }, { text: "The answer is 4." }]
  - id: bob
    backend: { type: scripted, steps: [{ answer: "Four" }, { vote: agent1, reason: ok }] }
  - id: hanging
    backend: { type: chatcompletion, model: m, base_url: "${provider.url}" }
timeout_settings:
  straggler_timeout_seconds: 1
`,
    );
    const result = await runCli(["--config", "team.yaml", "--no-display", "What is 2+2?"], sandbox);
    expect(result.stderr).toContain(
      "[orchestrator] hanging cut: still working 1 s after every other agent was done; the run goes on without it (timeout_settings.straggler_timeout_seconds)",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The answer is 4.\n");
    expect(provider.requests.filter((request) => request.method === "POST")).toHaveLength(1);

    const { events } = parseEventLog(
      await readFile(join(await onlyAttemptDir(sandbox.cwd), "events.jsonl"), "utf8"),
    );
    expect(events.find((event) => event.type === "straggler-cut")).toMatchObject({
      agentId: "hanging",
      round: 1,
      waitedMs: 1000,
    });
    const end = events.at(-1);
    expect(end).toMatchObject({ type: "run-end", reason: "completed" });
  });
});
