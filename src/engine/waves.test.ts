/**
 * The wave structure of voting mode (docs/coordination.md "Voting mode" step 5, "No wasted
 * rounds"): on a virtual clock where every model call takes 500 ms, the model calls that start at
 * the same instant form one wave. Agents that agree finish in three waves: answer, vote, present —
 * also when the later agents' identical answers are heard as votes and they vote again in the
 * round.
 */
import { describe, expect, test } from "vitest";
import type { ScriptedStep } from "../backends/index.js";
import { createVirtualClock } from "../clock.js";
import { runScripted } from "./test-helpers.js";

const CALL_MS = 500;

/** `n` agents that all give the identical answer "4"; each vote goes to agent1; agent1 presents. */
function identicalTeam(n: number): Record<string, ScriptedStep[]> {
  const scripts: Record<string, ScriptedStep[]> = {};
  for (let index = 0; index < n; index++) {
    const steps: ScriptedStep[] = [
      { delay_ms: CALL_MS, answer: "4" },
      { delay_ms: CALL_MS, vote: "agent1", reason: "same answer" },
    ];
    if (index === 0) steps.push({ delay_ms: CALL_MS, text: "The answer is 4." });
    scripts[`agent_${index + 1}`] = steps;
  }
  return scripts;
}

/** Runs the team and returns the virtual start time of every model call, in call order. */
async function callStarts(n: number): Promise<{ starts: number[]; events: string[] }> {
  const clock = createVirtualClock(0);
  const starts: number[] = [];
  const { events, backends } = await runScripted(identicalTeam(n), {
    clock,
    wrapBackend: (backend) => ({
      ...backend,
      stream: (request, options) => {
        starts.push(clock.now());
        return backend.stream(request, options);
      },
    }),
  });
  for (const backend of Object.values(backends)) backend.assertDone();
  expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "completed" });
  return { starts, events: events.map((event) => event.type) };
}

const waves = (starts: readonly number[]) => [...new Set(starts)].sort((a, b) => a - b);

describe("voting waves with defer_voting_until_all_answered", () => {
  test("three agreeing agents: 3 waves (answer, vote, present), 7 calls", async () => {
    const { starts, events } = await callStarts(3);
    expect(waves(starts)).toEqual([0, CALL_MS, 2 * CALL_MS]);
    expect(starts).toHaveLength(7);
    // The two later identical answers were heard as votes for agent1.1, refused as stale (they
    // had not seen it); those agents voted again in the same round.
    expect(events.filter((type) => type === "workflow-invalid")).toHaveLength(0);
    expect(events.filter((type) => type === "vote-refused")).toHaveLength(2);
    expect(events.filter((type) => type === "vote")).toHaveLength(3);
  });

  test("five agreeing agents: 3 waves and 11 calls", async () => {
    const { starts } = await callStarts(5);
    expect(waves(starts)).toEqual([0, CALL_MS, 2 * CALL_MS]);
    expect(starts).toHaveLength(11);
    // Wave by wave: 5 answers, 1 vote round + 4 retried votes, 1 presentation.
    expect(starts.filter((at) => at === 0)).toHaveLength(5);
    expect(starts.filter((at) => at === CALL_MS)).toHaveLength(5);
    expect(starts.filter((at) => at === 2 * CALL_MS)).toHaveLength(1);
  });
});
