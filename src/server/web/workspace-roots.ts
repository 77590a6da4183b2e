/**
 * The directories the workspace browser offers for a run ({@link WorkspaceRoot}), found from the
 * run's log directory. The run log keeps every workspace snapshot of every agent (docs/tools.md
 * "Workspaces", issue 10):
 *
 * - `<attempt dir>/<agent id>/snapshots/agent<N>.<M>/`: the agent's workspace when its answer
 *   `agent<N>.<M>` was accepted;
 * - `<attempt dir>/<presenter id>/snapshots/agent<N>.final/`: the presenter's workspace after the
 *   final answer, the run's result.
 *
 * Roots are offered as: the final result first, then each agent in team order with its snapshots
 * newest first. Only snapshot directories that exist are listed, so a run whose agents have no
 * workspace has no roots, and a live run gains roots as answers are accepted. This is the one
 * place that knows the layout.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { WorkspaceRoot } from "./web-host.js";

/** The folder of `<attempt dir>/<agent id>/` holding that agent's snapshots. */
export const SNAPSHOTS_DIR = "snapshots";
/** The suffix of the final snapshot's label (`agent1.final`). */
export const FINAL_SNAPSHOT_SUFFIX = ".final";

/**
 * The roots of a run logged in `attemptDir`.
 * @param attemptDir the run's `…/turn_<n>/attempt_<n>` directory; null for an unlogged run.
 * @param agentIds the run's agents in team order; only their folders are looked at.
 * @returns the final result (when taken), then every agent's snapshots newest first; `id` is the
 *   snapshot's path relative to `attemptDir` (`alice/snapshots/agent1.2`), stable as roots are added.
 */
export async function logWorkspaceRoots(
  attemptDir: string | null | undefined,
  agentIds: readonly string[],
): Promise<WorkspaceRoot[]> {
  if (!attemptDir) return [];
  const finals: WorkspaceRoot[] = [];
  const answers: WorkspaceRoot[] = [];
  for (const agentId of agentIds) {
    const folder = join(attemptDir, agentId, SNAPSHOTS_DIR);
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    const labels = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    labels.sort(newestFirst);
    labels.forEach((snapshot, index) => {
      const final = snapshot.endsWith(FINAL_SNAPSHOT_SUFFIX);
      const root: WorkspaceRoot = {
        id: `${agentId}/${SNAPSHOTS_DIR}/${snapshot}`,
        label: final ? "Final result" : snapshot,
        path: join(folder, snapshot),
        agentId,
        snapshot,
        final,
        latest: final || index === labels.findIndex((label) => !isFinal(label)),
      };
      (final ? finals : answers).push(root);
    });
  }
  return [...finals, ...answers];
}

function isFinal(label: string): boolean {
  return label.endsWith(FINAL_SNAPSHOT_SUFFIX);
}

/** `agent1.final` first, then `agent1.10`, `agent1.9`, …; other names after, by name. */
function newestFirst(a: string, b: string): number {
  const rank = (label: string): number => {
    if (isFinal(label)) return Number.POSITIVE_INFINITY;
    const match = /\.(\d+)$/.exec(label);
    return match ? Number(match[1]) : -1;
  };
  return rank(b) - rank(a) || a.localeCompare(b);
}
