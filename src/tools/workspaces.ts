/**
 * The agents' workspaces for one run (docs/tools.md "Workspaces"; MassGen's `backend.cwd`,
 * `orchestrator.snapshot_storage`, `orchestrator.agent_temporary_workspace`):
 *
 * - `<cwd>/.coord/workspaces/<run>/<name>/`: each agent's private workspace, `<run>` claimed with
 *   a non-recursive mkdir so parallel runs never share one;
 * - the latest snapshot of each agent, copied when its answer is accepted, in
 *   `<snapshot_storage>/<run>/<agent id>/` (default `<run folder>/.snapshots/`), and every snapshot
 *   in the run log: `<attempt dir>/<agent id>/snapshots/<label>/`;
 * - each agent's read-only view of the others' latest snapshots, named by their anonymous ids:
 *   `<agent_temporary_workspace>/<run>/<agent id>/agent2/` (default `<run folder>/.views/`),
 *   refreshed before each of its model calls and removed at the end of the run.
 *
 * All copying runs in one queue, in the order it was asked for: a snapshot asked for when an
 * answer is accepted is complete before any later view refresh reads it. Copies go through
 * `../copy-tree.ts`: FIFOs, sockets and devices are skipped, sparse files stay sparse, files
 * over its limits are skipped, and each skip is a notice naming the files.
 */
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { basename, join, normalize, relative, resolve } from "node:path";
import { copyTree, describeSkipped } from "../copy-tree.js";
import { childPath } from "../safe-name.js";
import type { SnapshotReport, ToolNotice, WorkspaceHooks } from "./tool.js";

/** One agent taking part, in config order. */
export interface WorkspaceAgent {
  id: string;
  /** `agent<N>`: the name the others see its work under. */
  anonId: string;
  /** Its workspace folder name (`backend.cwd`), when it has one. */
  workspaceName?: string | undefined;
}

/** Options of {@link createRunWorkspaces}. */
export interface RunWorkspacesOptions {
  /** coord's working directory. */
  cwd: string;
  /** Names the run's folder, e.g. `run_20260101_120000`; `_2`, `_3`, … are added if taken. */
  runName: string;
  agents: readonly WorkspaceAgent[];
  /** `orchestrator.snapshot_storage`, relative to `cwd`. */
  snapshotStorage?: string | undefined;
  /** `orchestrator.agent_temporary_workspace`, relative to `cwd`. */
  temporaryWorkspace?: string | undefined;
  notify: (notice: ToolNotice) => void;
  /** A folder whose contents every workspace starts with (a plan's result so far). */
  seed?: string | undefined;
}

/** The workspaces of one run. */
export interface RunWorkspaces {
  /** `<cwd>/.coord/workspaces/<run>`. */
  readonly root: string;
  /** `<cwd>/.coord/workspaces`: no agent may look inside except at its own folders. */
  readonly allRuns: string;
  /** The agent's workspace, if it has one. */
  workspaceOf(agentId: string): string | undefined;
  /** The folder holding the agent's copies of the others' snapshots (`agent1/`, …). */
  viewOf(agentId: string): string;
  /** Folders no agent may read: the snapshot store and every view (plus {@link allRuns}). */
  hiddenRoots(): string[];
  /** The engine's hooks for one agent. */
  hooksFor(agentId: string): WorkspaceHooks;
  /** Snapshots are also copied into `<dir>/<agent id>/snapshots/<label>/` from now on. */
  attachLog(dir: string): void;
  /** Waits for queued copies, then removes the views. */
  close(): Promise<void>;
  /** Removes every folder of the run (workspaces, snapshots, views): a run that never started. */
  remove(): Promise<void>;
}

/** Claims `<parent>/<name>` (or `<name>_2`, …) with a non-recursive mkdir. */
async function claim(parent: string, name: string): Promise<string> {
  await mkdir(parent, { recursive: true });
  for (let index = 1; ; index++) {
    const path = childPath(parent, index === 1 ? name : `${name}_${index}`);
    try {
      await mkdir(path);
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || index >= 1000) throw error;
    }
  }
}

/** A folder name from `backend.cwd` (`./ws`, `ws/` and `ws` are the same). */
export function workspaceFolderName(name: string): string {
  return basename(normalize(name.trim()));
}

/** Files and bytes under `dir` (links counted as files of size 0). */
async function measure(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isDirectory()) continue;
    files++;
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { files, bytes };
}

/**
 * Creates the run's folders: its workspace root, each agent's workspace, snapshot store and
 * views.
 * @throws the file system error when a folder cannot be created.
 */
export async function createRunWorkspaces(options: RunWorkspacesOptions): Promise<RunWorkspaces> {
  const allRuns = join(options.cwd, ".coord", "workspaces");
  const root = await claim(allRuns, options.runName);
  const run = basename(root);
  const snapshots = options.snapshotStorage
    ? join(resolve(options.cwd, options.snapshotStorage), run)
    : join(root, ".snapshots");
  const views = options.temporaryWorkspace
    ? join(resolve(options.cwd, options.temporaryWorkspace), run)
    : join(root, ".views");
  const workspaces = new Map<string, string>();
  for (const agent of options.agents) {
    if (agent.workspaceName !== undefined) {
      const path = childPath(root, workspaceFolderName(agent.workspaceName));
      await mkdir(path, { recursive: true });
      if (options.seed !== undefined) {
        const skipped = await copyTree(options.seed, path);
        if (skipped.length > 0) {
          options.notify({
            agentId: agent.id,
            source: "workspace",
            message: `copying ${options.seed} into ${path}: ${describeSkipped(skipped)}`,
          });
        }
      }
      workspaces.set(agent.id, path);
    }
    await mkdir(childPath(views, agent.id), { recursive: true });
  }
  await mkdir(snapshots, { recursive: true });

  /** Snapshot generation per agent (0: none yet), and what each view holds of each peer. */
  const generation = new Map<string, number>();
  const seen = new Map<string, Map<string, number>>();
  let logDir: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task);
    queue = next.catch(() => undefined);
    return next;
  };

  const snapshot = (agent: WorkspaceAgent, label: string): Promise<SnapshotReport | undefined> =>
    enqueue(async () => {
      const source = workspaces.get(agent.id)!;
      const latest = childPath(snapshots, agent.id);
      try {
        await rm(latest, { recursive: true, force: true });
        const skipped = await copyTree(source, latest);
        if (skipped.length > 0) {
          options.notify({
            agentId: agent.id,
            source: "workspace",
            message: `snapshot ${label} of ${source}: ${describeSkipped(skipped)}`,
          });
        }
        generation.set(agent.id, (generation.get(agent.id) ?? 0) + 1);
        const report: SnapshotReport = { ...(await measure(latest)), workspace: source };
        if (logDir !== undefined) {
          const kept = childPath(logDir, agent.id, "snapshots", label);
          await copyTree(latest, kept);
          report.logPath = relative(logDir, kept);
        }
        return report;
      } catch (error) {
        options.notify({
          agentId: agent.id,
          source: "workspace",
          message: `snapshot ${label} of ${source} failed: ${(error as Error).message}`,
        });
        return undefined;
      }
    });

  const refreshView = (agent: WorkspaceAgent): Promise<void> =>
    enqueue(async () => {
      const view = childPath(views, agent.id);
      const mine = seen.get(agent.id) ?? new Map<string, number>();
      seen.set(agent.id, mine);
      for (const peer of options.agents) {
        const current = generation.get(peer.id) ?? 0;
        if (peer.id === agent.id || current === 0 || mine.get(peer.id) === current) continue;
        const copy = childPath(view, peer.anonId);
        try {
          await rm(copy, { recursive: true, force: true });
          await copyTree(childPath(snapshots, peer.id), copy);
          mine.set(peer.id, current);
        } catch (error) {
          options.notify({
            agentId: agent.id,
            source: "workspace",
            message: `could not copy ${peer.anonId}'s snapshot into ${view}: ${(error as Error).message}`,
          });
        }
      }
    });

  const byId = new Map(options.agents.map((agent) => [agent.id, agent]));
  return {
    root,
    allRuns,
    workspaceOf: (agentId) => workspaces.get(agentId),
    viewOf: (agentId) => childPath(views, agentId),
    hiddenRoots: () => [snapshots, views],
    hooksFor(agentId) {
      const agent = byId.get(agentId);
      if (agent === undefined) throw new Error(`no agent ${agentId} in this run`);
      return {
        refreshView: () => refreshView(agent),
        ...(workspaces.has(agentId) ? { snapshot: (label: string) => snapshot(agent, label) } : {}),
      };
    },
    attachLog(dir) {
      logDir = dir;
    },
    async close() {
      await queue;
      await rm(views, { recursive: true, force: true }).catch(() => undefined);
    },
    async remove() {
      await queue;
      for (const path of [views, snapshots, root])
        await rm(path, { recursive: true, force: true }).catch(() => undefined);
    },
  };
}
