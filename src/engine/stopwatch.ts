/**
 * Durations of tool calls, measured with the clock's high-resolution {@link Clock.elapsed} when it
 * has one (the system clock), else with `now()` (the virtual clock): a file tool call takes well
 * under a millisecond, and `coord logs tools` should not show it as 0.
 */
import type { Clock } from "../clock.js";

/** Starts a stopwatch; the returned function gives the ms since, rounded to the microsecond. */
export function stopwatch(clock: Clock): () => number {
  const read = clock.elapsed ? () => clock.elapsed!() : () => clock.now();
  const started = read();
  return () => Math.round((read() - started) * 1000) / 1000;
}
