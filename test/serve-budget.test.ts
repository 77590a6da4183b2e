/**
 * `coord serve` with a looping team (docs/real-models.md "The run budget"): three agents whose
 * model writes a slightly different answer every round and never votes (the misbehaving-model fake
 * on 127.0.0.1), served with a run budget of 9 model calls. Each request must come back within its
 * own budget (the calls the fake counted, at most `max_calls + agents − 1` per request) with the
 * best answer so far, saying in `coord.degraded` / `coord.limits_reached` that the budget ended it.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { makeSandbox } from "./support/cli.js";
import { misbehavingHandler } from "./support/fake-openai/misbehaving-handler.js";
import { startFakeOpenAIServer, type FakeOpenAIServer } from "./support/fake-openai-server.js";
import { QUESTION } from "./support/real-models-matrix.js";
import { startServe, type ServeProcess } from "./support/serve.js";

const MAX_CALLS = 9;
const AGENTS = 3;

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

interface Completion {
  choices: { message: { content: string; reasoning_content: string } }[];
  coord?: {
    degraded: string[];
    limits_reached: { scope: string; limit: string; max: number; used: number }[];
  };
}

describe("coord serve with a team that never votes", () => {
  test("each request returns within its own call budget with the best answer, saying the budget ended it", async () => {
    const fake = misbehavingHandler();
    provider = await startFakeOpenAIServer(fake.handle);
    const box = await makeSandbox();
    const agents = ["a", "b", "c"].map(
      (id) =>
        `  - id: ${id}\n    backend: { type: chatcompletion, model: "${id}/never-votes", base_url: "${provider!.url}" }`,
    );
    await writeFile(
      join(box.cwd, "team.yaml"),
      [
        "agents:",
        ...agents,
        `budget: { max_calls: ${MAX_CALLS} }`,
        "timeout_settings: { orchestrator_timeout_seconds: 60 }",
        "",
      ].join("\n"),
    );
    serve = await startServe(["--host", "127.0.0.1", "--port", "0", "--config", "team.yaml"], box);

    for (const request of [1, 2]) {
      const before = fake.totals().requests;
      const response = await fetch(`${serve.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "coord", messages: [{ role: "user", content: QUESTION }] }),
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      expect(response.status, text).toBe(200);
      const body = JSON.parse(text) as Completion;
      const calls = fake.totals().requests - before;
      expect(calls, `request ${request}`).toBeLessThanOrEqual(MAX_CALLS + AGENTS - 1);
      // Without the budget the team would go on answering: 5 answers each, then the votes.
      expect(calls, `request ${request}`).toBeGreaterThanOrEqual(MAX_CALLS);
      expect(body.choices[0]!.message.content).toMatch(/The answer is 18\./);
      expect(body.coord?.limits_reached).toContainEqual(
        expect.objectContaining({ scope: "run", limit: "calls", max: MAX_CALLS }),
      );
      expect(body.coord?.degraded.join("\n")).toMatch(/budget of 9 model calls/);
      expect(body.choices[0]!.message.reasoning_content).toMatch(/\[system\] Degraded: /);
    }
  }, 120_000);
});
