/**
 * Real-models matrix (issue 25), `--quick` and `--single-agent a`, checked by `checkCell`
 * (test/real-models-check.ts). In these modes a model answers once and nobody votes, so the
 * behaviours about votes and answers seen (`resubmit`, `copies-part`) are left out, and
 * `--single-agent` has no "one of three" cells (its one agent is the team). Left out besides:
 * `plan-text` (planning only); `--quick` with one misbehaving agent for `empty`, `cutoff-json`,
 * `no-required` (covered with the whole team, and in voting with one agent).
 */
import { describe, test } from "vitest";
import { CELL_TEST_TIMEOUT_MS, checkCell } from "./real-models-check.js";
import type { Cell } from "./support/real-models-matrix.js";

const quick = (behaviour: string, team: Cell["team"]): Cell => ({ behaviour, team, mode: "quick" });
const single = (behaviour: string): Cell => ({ behaviour, team: "whole", mode: "single" });

const CELLS: Cell[] = [
  quick("plain-text", "whole"),
  quick("plain-text", "one"),
  quick("empty", "whole"),
  quick("unknown-tool", "whole"),
  quick("unknown-tool", "one"),
  quick("cutoff-json", "whole"),
  quick("two-answers", "whole"),
  quick("never-votes", "whole"),
  quick("no-required", "whole"),
  quick("small-context-150", "one"),
  quick("unknown-tool@30", "whole"),
  single("plain-text"),
  single("empty"),
  single("unknown-tool"),
  single("cutoff-json"),
  single("two-answers"),
  single("never-votes"),
  single("no-required"),
  single("small-context-150"),
  single("plain-text@30"),
];

describe("real models, --quick and --single-agent", () => {
  test.each(CELLS)("$behaviour × $team × $mode", checkCell, CELL_TEST_TIMEOUT_MS);
});
