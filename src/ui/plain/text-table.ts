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

/**
 * A duration for people: `0 ms`, `850 ms`, `1.2 s`, `59.9 s`, `2m 05s`, `1h 02m`.
 * @param ms milliseconds; null → `-`.
 */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return "-";
  if (ms < 1000) return `${ms < 10 && ms % 1 !== 0 ? ms.toFixed(1) : Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) {
    return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
  }
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

/** A count with thousands separators: `12,345`. */
export function formatCount(count: number): string {
  return Math.round(count).toLocaleString("en-US");
}

/**
 * A cost in USD: `$1.23`, `$0.0042`, `$0.00`; null (unknown: no price for some call) →
 * `unknown`, never a guessed number.
 */
export function formatCost(usd: number | null): string {
  if (usd === null) return "unknown";
  if (usd === 0) return "$0.00";
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd >= 0.0001) return `$${usd.toFixed(4)}`;
  return "<$0.0001";
}
