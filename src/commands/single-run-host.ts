/**
 * A {@link WebHost} showing one run and taking no questions: `coord logs analyze --mode self
 * --ui webui` shows its analysis run in the browser UI with it.
 */
import type { RunHandle } from "../runner/index.js";
import {
  feedRun,
  logWorkspaceRoots,
  type SessionView,
  type WebHost,
  WebHostError,
} from "../server/index.js";

/**
 * Creates the host.
 * @param options.id the session id shown (and the run key's first part), e.g. `analysis`.
 */
export function singleRunHost(options: {
  id: string;
  title: string;
  question: string;
  handle: Pick<RunHandle, "live" | "logDir" | "workspaces">;
}): WebHost {
  const { handle } = options;
  const key = `${options.id}/1`;
  const listeners = new Set<(view: SessionView) => void>();
  const view = (): SessionView => ({
    id: options.id,
    title: options.title,
    askable: false,
    busy: !handle.live.ended,
    turns: [
      {
        key,
        turn: 1,
        question: options.question,
        status: handle.live.ended ? (handle.live.state.endReason ?? "failed") : "running",
        logDir: handle.logDir ?? null,
      },
    ],
  });
  void handle.live.done
    .catch(() => undefined)
    .then(() => {
      for (const listener of listeners) listener(view());
    });
  const refuse = (): never => {
    throw new WebHostError(409, `this page shows one run (${options.title}): it opens no sessions`);
  };
  return {
    current: view,
    listSessions: async () => [],
    openSession: async () => refuse(),
    newSession: async () => refuse(),
    ask: async () => {
      throw new WebHostError(
        400,
        `this page shows one run (${options.title}): it takes no questions`,
      );
    },
    async subscribe(runKey, after, listener) {
      if (runKey !== key) throw new WebHostError(404, `no run ${runKey}`);
      return feedRun({ live: handle.live }, after, listener);
    },
    async workspaceRoots(runKey) {
      if (runKey !== key) throw new WebHostError(404, `no run ${runKey}`);
      return logWorkspaceRoots(
        handle.logDir,
        handle.live.state.agents.map((agent) => agent.id),
        handle.live.ended ? {} : handle.workspaces,
      );
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
