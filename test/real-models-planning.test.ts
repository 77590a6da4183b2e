/**
 * Real-models matrix (issue 25), `--plan` and `--plan-and-execute` (planning, then one execution
 * run for the sound plan's one chunk), checked by `checkCell` (test/real-models-check.ts). Left
 * out: `copies-part`, `two-answers` and `small-context` (about answers and votes, covered in
 * voting, whose rounds planning shares); `--plan-and-execute` only with the behaviours that
 * change what execution gets (`plan-text`, `plain-text`, `resubmit`, a rate).
 */
import { describe, test } from "vitest";
import { CELL_TEST_TIMEOUT_MS, checkCell } from "./real-models-check.js";
import type { Cell } from "./support/real-models-matrix.js";

const plan = (behaviour: string, team: Cell["team"]): Cell => ({ behaviour, team, mode: "plan" });
const planAndExecute = (behaviour: string, team: Cell["team"]): Cell => ({
  behaviour,
  team,
  mode: "plan-and-execute",
});

const CELLS: Cell[] = [
  plan("sound", "whole"),
  plan("plan-text", "whole"),
  plan("plan-text", "one"),
  plan("plain-text", "whole"),
  plan("unknown-tool", "whole"),
  plan("resubmit", "whole"),
  plan("never-votes", "whole"),
  plan("cutoff-json", "one"),
  plan("empty", "one"),
  plan("no-required", "whole"),
  planAndExecute("sound", "whole"),
  planAndExecute("plan-text", "whole"),
  planAndExecute("plain-text", "one"),
  planAndExecute("resubmit", "whole"),
  planAndExecute("unknown-tool@30", "whole"),
];

describe("real models, --plan and --plan-and-execute", () => {
  test.each(CELLS)("$behaviour × $team × $mode", checkCell, CELL_TEST_TIMEOUT_MS);
});
