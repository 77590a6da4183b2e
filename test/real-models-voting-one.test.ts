/**
 * Real-models matrix (issue 25), voting mode (the default), one agent misbehaving beside two sound
 * ones (agent c plays the behaviour), checked by `checkCell` (test/real-models-check.ts). Left
 * out: `plan-text` (it only misbehaves where `submit_plan` is offered).
 */
import { describe, test } from "vitest";
import { CELL_TEST_TIMEOUT_MS, checkCell } from "./real-models-check.js";
import type { Cell } from "./support/real-models-matrix.js";

const CELLS: Cell[] = [
  "plain-text",
  "empty",
  "unknown-tool",
  "cutoff-json",
  "two-answers",
  "resubmit",
  "never-votes",
  "copies-part",
  "no-required",
  // The first prompt (≈ 190 tokens) already exceeds the 150-token window.
  "small-context-150",
  "plain-text@30",
].map((behaviour) => ({ behaviour, team: "one", mode: "voting" }));

describe("real models, voting, one agent misbehaving beside two sound ones", () => {
  test.each(CELLS)("$behaviour × one of three × voting", checkCell, CELL_TEST_TIMEOUT_MS);
});
