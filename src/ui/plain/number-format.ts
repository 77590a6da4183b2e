/**
 * Number formats for people (durations, counts, USD), shared by the terminal, the page and
 * `coord logs`. Apart from `./text-table.ts` so that a display needing only these does not load
 * `string-width` (about 20 ms of CPU before a run's first model request).
 */

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
