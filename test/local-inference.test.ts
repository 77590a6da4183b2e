/**
 * Real inference, end to end: the built CLI runs agents on models/stories260K.gguf (shipped)
 * through the `local` backend (node-llama-cpp, CPU). The model writes children's stories, not
 * facts, so these tests check structure: valid workflow calls, a winner, a non-empty answer.
 */
import { describe, expect, test } from "vitest";
import { parseEventLog } from "../src/events/jsonl.js";
import { makeSandbox, onlyAttemptDir, readLog, runCli, TINY_MODEL } from "./support/cli.js";

describe("real inference on the local backend", () => {
  test("quick setup: coord --backend local --model <gguf> prints a final answer", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--backend", "local", "--model", TINY_MODEL, "--no-display", "What is 2+2?"],
      sandbox,
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trim().length).toBeGreaterThan(0);
    const { events } = parseEventLog(
      await readLog(await onlyAttemptDir(sandbox.cwd), "events.jsonl"),
    );
    const usage = events.filter((event) => event.type === "usage");
    expect(usage.length).toBeGreaterThan(0);
    for (const event of usage) {
      if (event.type !== "usage") continue;
      expect(event.usage.inputTokens).toBeGreaterThan(0);
      expect(event.usage.outputTokens).toBeGreaterThan(0);
    }
  });

  test("two local agents (the local_team example) complete a voting run", async () => {
    const sandbox = await makeSandbox();
    const result = await runCli(
      ["--config", "@examples/local_team", "--no-display", "Tell me about a cat."],
      {
        ...sandbox,
        env: { COORD_LOCAL_MODEL: TINY_MODEL },
        timeoutMs: 240_000,
      },
    );
    expect(result.stderr).toContain("[orchestrator] Winner:");
    expect(result.code).toBe(0);
    expect(result.stdout.trim().length).toBeGreaterThan(0);

    const { events } = parseEventLog(
      await readLog(await onlyAttemptDir(sandbox.cwd), "events.jsonl"),
    );
    const answers = events.filter((event) => event.type === "answer");
    const votes = events.filter((event) => event.type === "vote");
    expect(new Set(answers.map((event) => event.agentId))).toEqual(new Set(["local_a", "local_b"]));
    // Every workflow call the engine accepted named a real answer.
    const labels = new Set(answers.map((event) => event.type === "answer" && event.label));
    for (const vote of votes) expect(vote.type === "vote" && labels.has(vote.label)).toBe(true);
    expect(votes.length).toBeGreaterThanOrEqual(2);
    const winner = events.find((event) => event.type === "winner");
    expect(winner).toMatchObject({ basis: "votes" });
    const final = events.find((event) => event.type === "final-answer");
    expect(final?.type === "final-answer" && final.content.trim().length > 0).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  }, 300_000);
});
