/** A plain-text table for `bench/run.ts`: one row per figure, columns padded to fit. */

/**
 * One printed figure: its goal, the measured value, the value's ratio to the goal (or to the
 * baseline it is judged by), and PASS/MISS for figures with a goal.
 */
export interface Row {
  figure: string;
  value: string;
  goal?: string;
  ratio?: string;
  status?: "PASS" | "MISS";
  note?: string;
}

const COLUMNS = ["figure", "goal", "value", "ratio", "status", "note"] as const;

/** Formats rows under a header, each column left-aligned to its widest cell. */
export function formatTable(rows: readonly Row[]): string {
  const cells = [[...COLUMNS], ...rows.map((row) => COLUMNS.map((column) => row[column] ?? ""))];
  const widths = COLUMNS.map((_, index) => Math.max(...cells.map((line) => line[index]!.length)));
  const lines = cells.map((line) =>
    line
      .map((cell, index) => cell.padEnd(widths[index]!))
      .join("  ")
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((width) => "-".repeat(width)).join("  "));
  return lines.join("\n");
}
