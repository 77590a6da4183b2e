/**
 * The directories the workspace browser offers for a run ({@link WorkspaceRoot}: each agent's
 * workspace and the final result), found from the run's log directory:
 *
 * - `<attempt dir>/workspaces/<agent id>/` → "<agent id> workspace", for each agent of the run;
 * - `<attempt dir>/final/` → "Final result".
 *
 * Only directories that exist are listed, so a run without workspaces has no roots. This is the
 * one place that knows the layout: the file tools' per-agent workspaces (issue 10) plug in here.
 */
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { WorkspaceRoot } from "./web-host.js";

/** The folder of an attempt directory holding one workspace per agent. */
export const WORKSPACES_DIR = "workspaces";
/** The folder of an attempt directory holding the run's result. */
export const FINAL_RESULT_DIR = "final";

/**
 * The roots of a run logged in `attemptDir`, agents in `agentIds` order first (others by name).
 * @param attemptDir the run's `…/turn_<n>/attempt_<n>` directory; null for an unlogged run.
 */
export async function logWorkspaceRoots(
  attemptDir: string | null | undefined,
  agentIds: readonly string[],
): Promise<WorkspaceRoot[]> {
  if (!attemptDir) return [];
  const roots: WorkspaceRoot[] = [];
  const workspaces = join(attemptDir, WORKSPACES_DIR);
  const names = await readdir(workspaces, { withFileTypes: true }).catch(() => []);
  const dirs = names.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const order = (name: string) => {
    const index = agentIds.indexOf(name);
    return index < 0 ? agentIds.length : index;
  };
  dirs.sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  for (const name of dirs) roots.push({ label: `${name} workspace`, path: join(workspaces, name) });
  const final = join(attemptDir, FINAL_RESULT_DIR);
  if ((await stat(final).catch(() => undefined))?.isDirectory()) {
    roots.push({ label: "Final result", path: final });
  }
  return roots;
}
