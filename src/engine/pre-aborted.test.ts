/**
 * A run whose signal is already aborted when it starts (a client that went away while the
 * server set the run up) ends at once as `interrupted` instead of waiting for its rounds.
 */
import { expect, test } from "vitest";
import { runScripted } from "./test-helpers.js";

test("an already-aborted signal ends the run as interrupted, without a model call", async () => {
  const controller = new AbortController();
  controller.abort("client gone");
  const { events, backends } = await runScripted(
    { alice: [{ answer: "late", delay_ms: 60_000 }] },
    { mode: "single", signal: controller.signal },
  );
  expect(events.at(-1)).toMatchObject({ type: "run-end", reason: "interrupted" });
  expect(events.some((event) => event.type === "usage")).toBe(false);
  expect(backends.alice!.requests).toHaveLength(0);
});
