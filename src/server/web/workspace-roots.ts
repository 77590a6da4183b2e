/**
 * The directories the workspace browser offers for a run ({@link WorkspaceRoot}), found from the
 * run's log directory. The run log keeps every workspace snapshot of every agent (docs/tools.md
 * "Workspaces"):
 *
 * - `<attempt dir>/<agent id>/snapshots/agent<N>.<M>/`: the agent's workspace when its answer
 *   `agent<N>.<M>` was accepted;
 * - `<attempt dir>/<presenter id>/snapshots/agent<N>.final/`: the presenter's workspace after the
 *   final answer, the run's result.
 *
 * While the run goes on, each agent's live workspace (`.coord/workspaces/<run>/<name>/`, from the
 * run handle) is offered too, before its snapshots.
 *
 * Roots are offered as: the final result first, then each agent in team order with its live
 * workspace and its snapshots newest first. Only snapshot directories that exist are listed, so a
 * run whose agents have no workspace has no roots, and a live run gains roots as answers are
 * accepted. This is the one place that knows the layout.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { childPath, isSafeName } from "../../safe-name.js";
import type { WorkspaceRoot } from "./web-host.js";

/** The folder of `<attempt dir>/<agent id>/` holding that agent's snapshots. */
export const SNAPSHOTS_DIR = "snapshots";
/** The suffix of the final snapshot's label (`agent1.final`). */
export const FINAL_SNAPSHOT_SUFFIX = ".final";
/** The label (and id suffix, `alice/live`) of an agent's live workspace. */
export const LIVE_ROOT = "live";

/**
 * The roots of a run logged in `attemptDir`.
 * @param attemptDir the run's `…/turn_<n>/attempt_<n>` directory; null for an unlogged run.
 * @param agentIds the run's agents in team order; only their folders are looked at.
 * @param live the live workspaces to offer (agent id → absolute path); pass them only while the
 *   run goes on. An agent not in `agentIds` is ignored.
 * @returns the final result (when taken), then every agent's live workspace (id `<agent>/live`)
 *   and snapshots newest first; a snapshot's `id` is its path relative to `attemptDir`
 *   (`alice/snapshots/agent1.2`), stable as roots are added.
 */
export async function logWorkspaceRoots(
  attemptDir: string | null | undefined,
  agentIds: readonly string[],
  live: Readonly<Record<string, string>> = {},
): Promise<WorkspaceRoot[]> {
  const finals: WorkspaceRoot[] = [];
  const answers: WorkspaceRoot[] = [];
  for (const agentId of agentIds) {
    const workspace = live[agentId];
    if (workspace !== undefined) {
      answers.push({
        id: `${agentId}/${LIVE_ROOT}`,
        label: LIVE_ROOT,
        path: workspace,
        agentId,
        snapshot: "",
        final: false,
        live: true,
        latest: false,
      });
    }
    // An id that is no safe name has no folder here (childPath would refuse it).
    if (!attemptDir || !isSafeName(agentId)) continue;
    const folder = childPath(attemptDir, agentId, SNAPSHOTS_DIR);
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
        live: false,
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
