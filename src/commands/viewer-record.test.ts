/**
 * The viewer's finished record (src/ui/terminal/viewer-record.ts) of the three-agent fixture:
 * every agent's panel with its answers, tool calls and votes, the final answer in full, nothing
 * wider than the terminal (test/viewer.test.ts shows it on screen and scrolls it).
 */
import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import { parseEventLog } from "../events/index.js";
import { replay } from "../session/index.js";
import { viewerRecord } from "../ui/terminal/viewer-record.js";

const THREE_AGENTS = new URL(
  "../../test/fixtures/logs/runs/log_20261121_095544_three_agents/turn_1/attempt_1/events.jsonl",
  import.meta.url,
);

async function fixture() {
  const { events } = parseEventLog(await readFile(THREE_AGENTS, "utf8"));
  return { events, state: replay(events) };
}

const text = (lines: ReturnType<typeof viewerRecord>) =>
  lines.map((line) => line.map((segment) => segment.text).join(""));

describe("the viewer's finished record", () => {
  test("a panel per agent with its tool calls, answers and votes, then the final answer", async () => {
    const { events, state } = await fixture();
    const lines = text(viewerRecord(events, state, 80));
    expect(lines[0]).toBe("Question: What is the capital of France?");
    const headers = lines.filter((line) => line.startsWith("╭─"));
    expect(headers).toEqual([
      expect.stringMatching(/^╭─ alice · planner-large · wrote the final answer · ★ winner ─+╮$/),
      expect.stringMatching(/^╭─ bob · fast-small · voted for alice ─+╮$/),
      expect.stringMatching(/^╭─ carol · fast-small · voted for alice ─+╮$/),
    ]);
    const bob = lines.slice(lines.indexOf(headers[1]!) + 1, lines.indexOf(headers[2]!) - 1);
    expect(bob.map((line) => line.replace(/^│ /, "").replace(/ *│$/, ""))).toEqual([
      "round 1",
      '⚙ web_search {"query":"capital of France"}',
      "  ↳ error: Unknown tool web_search. (0 ms)",
      "✎ answer agent2.1:",
      "  Paris.",
      "↻ sees new answers agent1.1, agent3.1",
      "round 2",
      "✓ voted for alice (agent1.1): “More complete.”",
    ]);
    expect(lines.slice(-2)).toEqual([
      "── Final answer · alice (agent1.final) ──",
      "The capital of France is Paris.",
    ]);
    // The coordination tools show as answer and vote lines, not as raw calls.
    expect(lines.some((line) => line.includes("new_answer"))).toBe(false);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
  });

  test("long answers wrap inside the panel; a narrow width still fits", async () => {
    const { events, state } = await fixture();
    for (const line of text(viewerRecord(events, state, 20)))
      expect([...line].length).toBeLessThanOrEqual(20);
  });
});
