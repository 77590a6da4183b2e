/**
 * Measurement helpers for `bench/run.ts`: medians, timed child processes, and the engine-run
 * child. Times are wall-clock milliseconds from `performance.now()`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import type { EngineRunResult } from "./engine-run.js";

/**
 * The package root: the nearest folder above this file whose package.json is coord's
 * (`dist/bench/` is two levels below it; a bench build elsewhere in the tree finds it too).
 */
export const ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));

function packageRoot(from: string): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    const file = join(dir, "package.json");
    if (
      existsSync(file) &&
      (JSON.parse(readFileSync(file, "utf8")) as { name?: string }).name === "coord"
    ) {
      return `${dir}/`;
    }
  }
  return fileURLToPath(new URL("../../", import.meta.url));
}

/** Median of a non-empty list (mean of the middle two for even lengths). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs `node <args>` to completion and returns its wall time and stdout.
 * @throws Error with the child's stderr when it exits non-zero.
 */
export function timedNode(args: readonly string[]): { wallMs: number; stdout: string } {
  const started = performance.now();
  const child = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" });
  const wallMs = performance.now() - started;
  if (child.error) throw child.error;
  if (child.status !== 0) {
    throw new Error(
      `node ${args.join(" ")} exited ${child.status ?? child.signal}: ${child.stderr.trim()}`,
    );
  }
  return { wallMs, stdout: child.stdout };
}

/**
 * Spawns each command `runs` times, interleaved (a, b, a, b, …) so machine noise hits both
 * alike, after `warmups` untimed rounds (file cache). Returns every wall time per command.
 */
export function timeInterleaved(
  commands: ReadonlyArray<readonly string[]>,
  { runs, warmups }: { runs: number; warmups: number },
): number[][] {
  const times = commands.map((): number[] => []);
  for (let round = 0; round < warmups + runs; round++) {
    commands.forEach((args, index) => {
      const { wallMs } = timedNode(args);
      if (round >= warmups) times[index]!.push(wallMs);
    });
  }
  return times;
}

const ENGINE_RUN = fileURLToPath(new URL("./engine-run.js", import.meta.url));

/** One engine run in a fresh process; see `engine-run.ts`. */
export function engineRun(agents: number, delayMs = 0): EngineRunResult {
  const { stdout } = timedNode([ENGINE_RUN, String(agents), String(delayMs)]);
  return JSON.parse(stdout) as EngineRunResult;
}
