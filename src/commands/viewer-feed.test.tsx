/**
 * The viewer's pipeline with the Ink view: recorded events replayed through the one reducer on a
 * virtual clock (instant and at --replay-speed 1 and 2), and a run followed while it is written.
 */
import { appendFile, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { render } from "ink-testing-library";
import { describe, expect, test, vi } from "vitest";
import { type Clock, createVirtualClock, systemClock } from "../clock.js";
import { parseEventLog, type CoordEvent } from "../events/index.js";
import { initialRunState, replay } from "../session/index.js";
import { createStateStore } from "../ui/terminal/state-store.js";
import { ViewerApp, type ViewerActivity, type ViewerFrame } from "../ui/terminal/viewer-app.js";
import { openViewerFeed } from "./viewer-feed.js";

const THREE_AGENTS = new URL(
  "../../test/fixtures/logs/runs/log_20261121_095544_three_agents/turn_1/attempt_1/events.jsonl",
  import.meta.url,
);

async function fixture(): Promise<{ path: string; events: CoordEvent[]; text: string }> {
  const text = await readFile(THREE_AGENTS, "utf8");
  return { path: THREE_AGENTS.pathname, events: parseEventLog(text).events, text };
}

/** Mounts the viewer screen on a fake terminal, fed by `openViewerFeed`. */
async function view(
  eventsPath: string,
  speed: number | undefined,
  clock: Clock = createVirtualClock(),
) {
  const feed = await openViewerFeed({ eventsPath, speed, follow: true, clock, pollMs: 5 });
  const store = createStateStore<ViewerFrame>({
    state: initialRunState(),
    activity: { kind: "replaying", speed },
  });
  const screen = render(
    <ViewerApp store={store} title="log_test" now={feed.now} onQuit={() => undefined} tickMs={0} />,
  );
  const shown: Array<{ at: number; type: string; frame: string }> = [];
  const activities: ViewerActivity["kind"][] = [];
  const start = clock.now();
  const done = feed.run({
    event(event, state) {
      store.set({ state, activity: store.get().activity });
      const entry = { at: clock.now() - start, type: event.type, frame: "" };
      shown.push(entry);
      // React renders the update in a microtask: read the screen right after it.
      queueMicrotask(() => (entry.frame = screen.lastFrame() ?? ""));
    },
    activity(activity) {
      activities.push(activity.kind);
      store.set({ ...store.get(), activity });
    },
  });
  return { done, shown, activities, screen };
}

describe("coord viewer's replay", () => {
  test("instant: the end state at once, the same state as the run's own replay", async () => {
    const { path, events } = await fixture();
    const { done, shown, activities, screen } = await view(path, undefined);
    const state = await done;
    expect(state).toEqual(replay(events));
    expect(shown.every((entry) => entry.at === 0)).toBe(true);
    expect(activities).toEqual(["replaying", "finished"]);
    const frame = screen.lastFrame() ?? "";
    expect(frame).toContain("coord viewer · log_test");
    expect(frame).toContain("Winner alice");
    expect(frame).toContain("The capital of France is Paris.");
    expect(frame).toContain("replay finished");
    expect(frame).not.toContain("›"); // no input area
  });

  test.each([1, 2])(
    "--replay-speed %i: each event at its recorded offset / speed, the panels in between",
    async (speed) => {
      const { path, events } = await fixture();
      const t0 = Date.parse(events[0]!.time);
      const { done, shown } = await view(path, speed);
      await done;
      expect(shown.map((entry) => entry.type)).toEqual(events.map((event) => event.type));
      expect(shown.map((entry) => entry.at)).toEqual(
        events.map((event) => (Date.parse(event.time) - t0) / speed),
      );
      // Before the winner the tally is open and nobody presents; the elapsed time is the
      // recorded one, not the wall clock's.
      const winnerIndex = events.findIndex((event) => event.type === "winner");
      const before = shown[winnerIndex - 1]!.frame;
      expect(before).not.toContain("Winner");
      expect(before).toContain("answering and voting");
      const elapsed = (Date.parse(events[winnerIndex - 1]!.time) - t0) / 1000;
      expect(before).toContain(`${elapsed.toFixed(1)} s`);
      expect(shown[winnerIndex]!.frame).toContain("Winner alice");
      expect(shown.at(-1)!.frame).toContain("done");
    },
  );

  // Following reads a real file as it grows, so it runs on the system clock (polling every 5 ms);
  // the test waits on what was shown, never for a fixed time.
  test("a run still being written is followed until its run-end", async () => {
    const { text, events } = await fixture();
    const lines = text.split("\n").filter((line) => line !== "");
    const path = join(await mkdtemp(join(tmpdir(), "coord-viewer-feed-")), "events.jsonl");
    await writeFile(path, `${lines.slice(0, 10).join("\n")}\n${lines[10]!.slice(0, 20)}`);
    const { done, shown, activities, screen } = await view(path, undefined, systemClock);
    const waitFor = (count: number) =>
      vi.waitFor(() => expect(shown.length).toBeGreaterThanOrEqual(count), {
        timeout: 8000,
        interval: 5,
      });
    await waitFor(10);
    expect(activities.at(-1)).toBe("following");
    expect(screen.lastFrame()).toContain("following the run as it is written");
    await appendFile(path, `${lines[10]!.slice(20)}\n`);
    await waitFor(11);
    for (const line of lines.slice(11)) await appendFile(path, `${line}\n`);
    const state = await done;
    expect(state).toEqual(replay(events));
    expect(activities.at(-1)).toBe("finished");
    expect(screen.lastFrame()).toContain("replay finished");
  });
});
