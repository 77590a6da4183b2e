/**
 * Real-models matrix (issue 25), voting mode (the default), the whole team misbehaving: each
 * behaviour of the misbehaving-model fake played by all three agents, checked by `checkCell`
 * (test/real-models-check.ts). Left out: `plan-text` (it only misbehaves where `submit_plan` is
 * offered: see test/real-models-planning.test.ts).
 */
import { describe, test } from "vitest";
import { CELL_TEST_TIMEOUT_MS, checkCell } from "./real-models-check.js";
import type { Cell } from "./support/real-models-matrix.js";

const CELLS: Cell[] = [
  "sound",
  "plain-text",
  "empty",
  "unknown-tool",
  "cutoff-json",
  "two-answers",
  "resubmit",
  "never-votes",
  "copies-part",
  "no-required",
  // Each answer (≈ 400 tokens) fits the 1,200-token window alone, not three in the vote prompt.
  "small-context-1200",
  "unknown-tool@30",
  "never-votes@50",
].map((behaviour) => ({ behaviour, team: "whole", mode: "voting" }));

describe("real models, voting, the whole team misbehaving", () => {
  test.each(CELLS)("$behaviour × whole team × voting", checkCell, CELL_TEST_TIMEOUT_MS);
});
