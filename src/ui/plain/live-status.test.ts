import { describe, expect, it, vi } from "vitest";
import type { CoordEvent, EventBody } from "../../events/events.js";
import { replay } from "../../session/reducer.js";
import { createLiveStatus } from "./live-status.js";
import { eventsOf } from "../../../test/support/events.js";

function events(costs: (number | undefined)[]): CoordEvent[] {
  const bodies: EventBody[] = [
    {
      type: "run-start",
      question: "q",
      mode: "voting",
      historyTurns: 0,
      agents: [{ id: "a", anonId: "agent1", backend: "openai", model: "gpt-4o-mini" }],
    },
    ...costs.map((costUsd): EventBody => ({
      type: "usage",
      agentId: "a",
      round: 1,
      backend: "openai",
      model: "gpt-4o-mini",
      usage: { inputTokens: 1000, outputTokens: 200, reasoningTokens: 0, cachedInputTokens: 0 },
      ...(costUsd === undefined ? {} : { costUsd }),
      durationMs: 5,
      finishReason: "stop",
    })),
  ];
  return eventsOf(bodies, { start: Date.UTC(2025, 0, 1), stepMs: 1, runId: "r" });
}

/**
 * The first line of the first frame drawn into `written()`: waits for the draw (a timer of
 * `intervalMs: 0`) as a condition, never a fixed sleep.
 */
async function firstLine(written: () => string): Promise<string> {
  await vi.waitFor(() => expect(written()).toContain("\n"), { timeout: 5000, interval: 1 });
  return written().split("\n")[0]!;
}

async function header(costs: (number | undefined)[]): Promise<string> {
  let written = "";
  const live = createLiveStatus(
    { write: (text) => ((written += text), true), columns: 200 },
    { intervalMs: 0, now: () => Date.UTC(2025, 0, 1) },
  );
  live.update(replay(events(costs)));
  const line = await firstLine(() => written);
  live.clear();
  return line;
}

describe("the live status header", () => {
  it("shows tokens and the cost so far", async () => {
    expect(await header([0.00042, 0.0008])).toContain("2,400 tokens · $0.0012");
  });

  it('says "cost unknown" once any call had no price', async () => {
    expect(await header([0.00042, undefined])).toContain("2,400 tokens · cost unknown");
  });

  it("counts failed model calls and says when the budget was reached", async () => {
    let written = "";
    const live = createLiveStatus(
      { write: (text) => ((written += text), true), columns: 300 },
      { intervalMs: 0, now: () => Date.UTC(2025, 0, 1) },
    );
    const extra: EventBody[] = [
      {
        type: "retry",
        agentId: "a",
        round: 1,
        attempt: 1,
        waitMs: 10,
        status: 503,
        errorKind: "http",
        reason: "overloaded",
      },
      {
        type: "limit-reached",
        scope: "run",
        limit: "calls",
        used: 2,
        max: 2,
        message: "the run's budget of 2 model calls was reached",
      },
    ];
    const base = events([0.001]);
    live.update(
      replay([
        ...base,
        ...eventsOf(extra, {
          start: Date.parse(base[0]!.time),
          stepMs: 0,
          runId: "r",
          firstSeq: base.length + 1,
        }),
      ]),
    );
    const line = await firstLine(() => written);
    live.clear();
    expect(line).toContain("$0.0010 · 1 of 2 model calls failed · budget reached");
  });
});
