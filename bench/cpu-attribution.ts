/**
 * Where a process's CPU went, from the `.cpuprofile` files `node --cpu-prof` writes: each
 * sample's self time (its `timeDeltas`, µs) is credited to the place its function lives — an npm
 * package (`@ai-sdk/provider-utils`, `zod`), coord's own folders (`coord src/store`), Node's
 * bundled undici, Node's other internals — or to V8's pseudo-frames (`(garbage collector)`,
 * `(program)`). Idle time is left out.
 *
 * The profile's children write such files for their measured runs alone
 * (`COORD_BENCH_CPU_PROF_DIR`, `profile-child.ts`), so start-up and warm-ups are not counted.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The place a function's script belongs to. */
export function placeOf(url: string, functionName: string): string {
  if (url === "") return functionName === "" ? "(anonymous native)" : functionName;
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const parts = url.slice(modules + "/node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (url.includes("internal/deps/undici")) return "undici (node's fetch)";
  if (url.startsWith("node:")) return "node internals";
  // tsc's output of src/ and bench/, wherever it was built (dist/, a bench build in .cache/).
  const coord = /\/(src|bench)\/(?:([^/]+)\/)?[^/]+\.js$/.exec(url);
  if (coord) return coord[1] === "bench" ? "bench" : `coord src/${coord[2] ?? ""}`;
  const chunk = /\/dist\/bin\/(?:chunks\/)?([^/]+?)(?:-[\w-]{8})?\.js$/.exec(url);
  if (chunk) return `coord bundle ${chunk[1]}`;
  return "other";
}

/** Self time (ms) by place over every profile in `dir`, idle excluded. */
export function selfTimeByPlace(dir: string): Map<string, number> {
  const totals = new Map<string, number>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"))) {
    const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile;
    const place = new Map<number, string>();
    for (const node of profile.nodes) {
      place.set(node.id, placeOf(node.callFrame.url, node.callFrame.functionName));
    }
    profile.samples.forEach((id, index) => {
      // The first sample's delta runs from the profile's start time, before sampling began
      // (under an inspector session, the whole wait for Profiler.start).
      if (index === 0) return;
      const where = place.get(id) ?? "other";
      if (where === "(idle)") return;
      totals.set(where, (totals.get(where) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
    });
  }
  return totals;
}

/**
 * Runs `profiled(dir)` (a process writing its `.cpuprofile` into `dir` and returning how many
 * model calls the profile covers) and returns the self time per call (ms) of every place, largest
 * first.
 */
export async function selfTimePerCall(
  profiled: (dir: string) => Promise<{ calls: number }>,
): Promise<Map<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), "coord-cpu-prof-"));
  try {
    const { calls } = await profiled(dir);
    const totals = [...selfTimeByPlace(dir)].sort((left, right) => right[1] - left[1]);
    return new Map(totals.map(([place, value]) => [place, value / calls]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The places of `run` (ms per call) beside those of `floor`, as
 * `place 0.41 ms (floor 0.12)`, the `top` largest of `run` joined by commas, after the totals.
 */
export function describeAttribution(
  run: ReadonlyMap<string, number>,
  floor: ReadonlyMap<string, number>,
  top = 12,
): string {
  const sum = (places: ReadonlyMap<string, number>) =>
    [...places.values()].reduce((total, value) => total + value, 0);
  const ms = (value: number) => value.toFixed(2);
  const places = [...run]
    .slice(0, top)
    .map(([place, value]) => `${place} ${ms(value)} (${ms(floor.get(place) ?? 0)})`);
  return `sampled ${ms(sum(run))} ms per call (SDK ${ms(sum(floor))}): ${places.join(", ")}`;
}
