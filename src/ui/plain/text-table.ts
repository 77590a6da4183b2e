/**
 * Plain-text tables and number formats for `coord logs` (and any other plain renderer):
 * columns padded with two spaces, numbers right-aligned, no trailing spaces, no colour.
 * Widths are terminal columns (`string-width`: a CJK character or an emoji takes two, a
 * combining mark none), so agent ids in any script line up.
 */
import stringWidth from "string-width";

/** `text` padded with spaces to `width` terminal columns (left-aligned, or right with `right`). */
export function padCell(text: string, width: number, align: "left" | "right" = "left"): string {
  const padding = " ".repeat(Math.max(0, width - stringWidth(text)));
  return align === "right" ? padding + text : text + padding;
}

/** The widest of `texts` in terminal columns (0 for none). */
export function columnWidth(texts: readonly string[]): number {
  return Math.max(0, ...texts.map((text) => stringWidth(text)));
}

/** One column: its header and alignment (`right` for numbers). */
export interface TableColumn {
  header: string;
  align?: "left" | "right";
}

/**
 * Renders a table: a header line, the rows, and — when given — a rule and a total row.
 * @returns the lines, without a trailing newline.
 */
export function renderTable(
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
  total?: readonly string[],
): string {
  const all = total === undefined ? rows : [...rows, total];
  const widths = columns.map((column, index) =>
    columnWidth([column.header, ...all.map((row) => row[index] ?? "")]),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, index) => {
        return padCell(cells[index] ?? "", widths[index]!, column.align);
      })
      .join("  ")
      .trimEnd();
  const lines = [line(columns.map((column) => column.header)), ...rows.map(line)];
  if (total !== undefined) {
    lines.push(widths.map((width) => "-".repeat(width)).join("  "));
    lines.push(line(total));
  }
  return lines.join("\n");
}

// The number formats live apart, so a display that needs only them does not load string-width.
export { formatCost, formatCount, formatDuration } from "./number-format.js";
