/**
 * Real-models matrix (docs/real-models.md), --plan and --plan-and-execute: the cells of
 * `MATRIX.planning` (test/support/real-models-matrix.ts, which also names the cells left out), each
 * run through the built CLI against the misbehaving-model fake and checked by `checkCell`
 * (test/real-models-check.ts).
 */
import { describe, test } from "vitest";
import { CELL_TEST_TIMEOUT_MS, checkCell } from "./real-models-check.js";
import { MATRIX } from "./support/real-models-matrix.js";

describe("real models, --plan and --plan-and-execute", () => {
  test.each(MATRIX.planning)("$behaviour × $team × $mode", checkCell, CELL_TEST_TIMEOUT_MS);
});
