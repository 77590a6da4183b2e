/**
 * The run's own events (part of the union in `./events.ts`): `run-start`, `warning`,
 * `workspace-snapshot` and `run-end`, with the run's vocabulary (modes, end reasons).
 */
import { z } from "zod";
import { ev } from "./event-envelope.js";

/**
 * Why a run ended (docs/coordination.md "Events": `run-end.reason`): `completed` (a final answer),
 * `failed` (every agent failed), `timeout` (the orchestrator or a caller's timeout), `interrupted`
 * (Ctrl+C, SIGTERM, a client that went away), `shutdown` (the server stopping).
 */
export const RunEndReason = z.enum(["completed", "failed", "timeout", "interrupted", "shutdown"]);
export type RunEndReason = z.infer<typeof RunEndReason>;

/** Why a run was stopped from outside: the `run-end.reason` it then ends with. */
export const StopReason = z.enum(["timeout", "interrupted", "shutdown"]);
export type StopReason = z.infer<typeof StopReason>;

/** Coordination modes the engine implements (docs/coordination.md "Voting mode", "Other modes"). */
export const CoordinationMode = z.enum([
  "voting",
  "quick",
  "single",
  "decomposition",
  "planning",
  "execution",
]);
export type CoordinationMode = z.infer<typeof CoordinationMode>;

/** Builds the schemas of the run's events (see `buildCoordEventSchema` for why on demand). */
export function runEventSchemas() {
  const agentInfo = z.object({
    id: z.string(),
    /** `agent<N>`: the agent's 1-based position in config order. */
    anonId: z.string(),
    backend: z.string(),
    model: z.string(),
  });
  return {
    runStart: ev("run-start", {
      question: z.string(),
      mode: CoordinationMode,
      agents: z.array(agentInfo),
      /** Earlier turns of a multi-turn conversation, oldest first. */
      historyTurns: z.number().int().nonnegative(),
    }),
    workspaceSnapshot: ev("workspace-snapshot", {
      /**
       * The answer it goes with (`agent<N>.<M>`), or `agent<N>.final` for the presenter's workspace
       * after the final presentation: the run's result (docs/tools.md "Workspaces").
       */
      label: z.string(),
      /** The live workspace that was copied (absolute path). */
      workspace: z.string(),
      files: z.number().int().nonnegative(),
      /** Total size of its files (bytes). */
      bytes: z.number().int().nonnegative(),
      /** Where the run log keeps the copy, relative to the attempt directory; absent without a log. */
      logPath: z.string().optional(),
    }),
    warning: ev("warning", {
      /** Who warns: a provider (`openai/gpt-4o`), `config`, `tools`, … */
      source: z.string(),
      message: z.string(),
    }),
    runEnd: ev("run-end", {
      reason: RunEndReason,
      durationMs: z.number().nonnegative(),
      /** One line saying what went wrong, when `reason` is not `completed`. */
      error: z.string().optional(),
      /**
       * Why the run's answer (or its failure) is degraded, one line per reason: agents removed and
       * what their model did, a budget limit, the orchestrator timeout, a failed presentation.
       * Absent for a clean run. A run that presented an answer keeps `reason: completed`.
       */
      degraded: z.array(z.string()).optional(),
    }),
  };
}
