/**
 * A team on a server that refuses `tool_choice: "required"` (older vLLM, some OpenRouter routes):
 * once failed every agent in 6 requests. Now each agent's first refused request is
 * sent again with `auto`, the agent's later requests send `auto` from the start, the run says so
 * once per agent in a `warning` event, and it ends with the team's answer. In process, through
 * the runner, over a real socket.
 */
import { tmpdir } from "node:os";
import { afterEach, describe, expect, test } from "vitest";
import { systemClock } from "../src/clock.js";
import { parseConfigText } from "../src/config/index.js";
import type { CoordEvent } from "../src/events/index.js";
import { startRun } from "../src/runner/run-team.js";
import {
  coordinationHandler,
  startFakeOpenAIServer,
  type FakeHandler,
  type FakeOpenAIServer,
} from "./support/fake-openai-server.js";

let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("a team on a server that refuses tool_choice: required", () => {
  test("voting: each agent falls back to auto once, is warned once, and the run ends with the answer", async () => {
    const agent = coordinationHandler({ answer: "The answer is 18." });
    const refusing: FakeHandler = (request) =>
      request.body.tool_choice === "required"
        ? { error: { status: 400, message: 'tool_choice = "required" is not supported!' } }
        : agent(request);
    server = await startFakeOpenAIServer(refusing);
    const backend = `{ type: vllm, model: m, base_url: "${server.url}" }`;
    const { config } = parseConfigText(
      `agents:\n  - id: a\n    backend: ${backend}\n  - id: b\n    backend: ${backend}\n`,
      { env: {} },
    );
    const handle = await startRun({
      config,
      mode: "voting",
      agentIndexes: [0, 1],
      question: "What is 3 x 6?",
      env: {},
      cwd: tmpdir(),
      clock: systemClock,
    });
    const { state } = await handle.done;
    const events: readonly CoordEvent[] = handle.live.events;
    expect(state.endReason).toBe("completed");
    const warnings = events.filter(
      (event) => event.type === "warning" && event.message.includes("tool_choice"),
    );
    expect(warnings.map((event) => event.type === "warning" && event.agentId).sort()).toEqual([
      "a",
      "b",
    ]);
    const choices = server.requests
      .filter((request) => request.path === "/v1/chat/completions")
      .map((request) => request.body.tool_choice);
    // One refused `required` per agent; every later workflow request sends `auto`.
    expect(choices.filter((choice) => choice === "required")).toHaveLength(2);
    expect(choices.filter((choice) => choice === "auto").length).toBeGreaterThanOrEqual(4);
    const final = events.find((event) => event.type === "run-end");
    expect(final).toMatchObject({ type: "run-end", reason: "completed" });
  });
});
