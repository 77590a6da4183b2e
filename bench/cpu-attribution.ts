/**
 * Where a process's CPU went, from the `.cpuprofile` files `node --cpu-prof` writes: each
 * sample's self time (its `timeDeltas`, µs) is credited to the place its function lives — an npm
 * package (`@ai-sdk/provider-utils`, `zod`), coord's own folders (`coord src/store`), Node's
 * bundled undici, Node's other internals — or to V8's pseudo-frames (`(garbage collector)`,
 * `(program)`). Idle time is left out.
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
  const coord = /\/(?:dist|build)\/(src|bench)\/([^/]+)/.exec(url);
  if (coord) return coord[1] === "bench" ? "bench" : `coord src/${coord[2]}`;
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
      const where = place.get(id) ?? "other";
      if (where === "(idle)") return;
      totals.set(where, (totals.get(where) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000);
    });
  }
  return totals;
}

/**
 * Runs `profiled(dir)` (a process writing its `.cpuprofile` into `dir`) and returns the largest
 * places, `place share%` joined by commas.
 */
export async function attributeCpu(
  profiled: (dir: string) => Promise<unknown>,
  top = 10,
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "coord-cpu-prof-"));
  try {
    await profiled(dir);
    const totals = [...selfTimeByPlace(dir)].sort((left, right) => right[1] - left[1]);
    const all = totals.reduce((sum, [, value]) => sum + value, 0);
    return totals
      .slice(0, top)
      .map(([place, value]) => `${place} ${((100 * value) / all).toFixed(0)}%`)
      .join(", ");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
