/**
 * The real-models matrix in `npm run bench` (docs/real-models.md): every cell of `MATRIX`
 * (test/support/real-models-matrix.ts) — a misbehaviour of the misbehaving-model fake, played by
 * the whole team or one of three agents, in one mode — run once through the built CLI, with the
 * model calls and prompt tokens the fake counted against the cell's call bound (the default
 * budget's `maxCalls + agents − 1` per run, src/engine/budget.ts). Figures only: PASS/MISS says
 * whether the calls stayed within the bound and the run ended with exit 0 (an answer) or 2 (none
 * ever accepted), not a crash.
 *
 *     npm run build && node dist/bench/run.js real-models
 */
import {
  callBound,
  cellName,
  MATRIX,
  runCell,
  type Cell,
} from "../test/support/real-models-matrix.js";
import type { Row } from "./table.js";

/** Every cell of the matrix, in the test files' order. */
export const ALL_CELLS: readonly Cell[] = Object.values(MATRIX).flat();

/**
 * Runs every cell once, one after another, and returns one row per cell: calls against the
 * bound, prompt tokens, exit code, accepted answers and wall time.
 * @param cli the built CLI to run.
 */
export async function realModelsRows(cli: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const cell of ALL_CELLS) {
    const result = await runCell(cell, { cli, timeoutMs: 60_000 });
    const bound = callBound(cell.mode);
    rows.push({
      figure: `real models: ${cellName(cell)}`,
      goal: `≤ ${bound} calls`,
      value: `${result.calls} calls`,
      ratio: `${(result.calls / bound).toFixed(2)}× bound`,
      // A crash (exit other than 0 or 2) or a kill is a miss whatever the calls.
      status: result.calls <= bound && (result.code === 0 || result.code === 2) ? "PASS" : "MISS",
      note: `${result.promptTokens} prompt tokens; exit ${String(result.code)}; ${result.answers} answers accepted; ${result.misbehaved} misbehaved replies; ${(result.wallMs / 1000).toFixed(1)} s`,
    });
  }
  return rows;
}
