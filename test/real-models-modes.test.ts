/**
 * Real-models matrix (issue 25), decomposition (`--coordination-mode decomposition`) and
 * personas (`--personas perspective`), checked by `checkCell` (test/real-models-check.ts). The
 * first agent makes the decomposer or persona call, so "whole team" cells also show a
 * misbehaving planner. Left out: `plan-text` (planning only); decomposition with `two-answers`,
 * `no-required` and personas with `empty`, `cutoff-json`, `copies-part` (each covered in voting,
 * whose rounds these modes share).
 */
import { describe, test } from "vitest";
import { CELL_TEST_TIMEOUT_MS, checkCell } from "./real-models-check.js";
import type { Cell } from "./support/real-models-matrix.js";

const decomposition = (behaviour: string, team: Cell["team"]): Cell => ({
  behaviour,
  team,
  mode: "decomposition",
});
const personas = (behaviour: string, team: Cell["team"]): Cell => ({
  behaviour,
  team,
  mode: "personas",
});

const CELLS: Cell[] = [
  decomposition("sound", "whole"),
  decomposition("copies-part", "whole"),
  decomposition("copies-part", "one"),
  decomposition("resubmit", "whole"),
  decomposition("never-votes", "whole"),
  decomposition("plain-text", "whole"),
  decomposition("empty", "one"),
  decomposition("unknown-tool", "one"),
  decomposition("cutoff-json", "whole"),
  decomposition("small-context-1200", "whole"),
  decomposition("never-votes@50", "whole"),
  personas("plain-text", "whole"),
  personas("plain-text", "one"),
  personas("never-votes", "whole"),
  personas("resubmit", "whole"),
  personas("unknown-tool", "whole"),
  personas("two-answers", "one"),
  personas("no-required", "whole"),
  personas("small-context-1200", "whole"),
  personas("plain-text@30", "whole"),
];

describe("real models, decomposition and personas", () => {
  test.each(CELLS)("$behaviour × $team × $mode", checkCell, CELL_TEST_TIMEOUT_MS);
});
