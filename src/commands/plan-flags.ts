/**
 * The planning flags of `coord` (spec §4.1, §7; docs/planning.md): `--plan`, `--plan-and-execute`,
 * `--execute-plan`, and the ones that steer planning (`--plan-depth`, `--plan-steps`,
 * `--plan-chunks`, `--broadcast`), checked together before anything runs, so no planning flag is
 * accepted and then ignored. Pure.
 */
import type { BroadcastMode, PlanDepth, PlanningSettings } from "../engine/index.js";
import { ConfigError } from "../errors.js";

/** The planning flags as commander gives them. */
export interface PlanFlags {
  plan?: boolean | undefined;
  planAndExecute?: boolean | undefined;
  /** `--execute-plan PATH|ID|latest`. */
  executePlan?: string | undefined;
  planDepth?: PlanDepth | undefined;
  planSteps?: number | undefined;
  planChunks?: number | undefined;
  broadcast?: "human" | "agents" | "false" | undefined;
}

/** What the flags ask for: nothing planning-related, planning (then maybe execution), execution. */
export type PlanRequest =
  | { kind: "none" }
  | { kind: "plan"; execute: boolean; settings: PlanningSettings }
  | { kind: "execute"; ref: string };

/** Other facts of the command line the planning flags depend on. */
export interface PlanContext {
  /** A question was given (argument or stdin). */
  question: boolean;
  web: boolean;
  quick: boolean;
  coordinationMode: string | undefined;
}

const STEERING = [
  ["planDepth", "--plan-depth"],
  ["planSteps", "--plan-steps"],
  ["planChunks", "--plan-chunks"],
  ["broadcast", "--broadcast"],
] as const;

/**
 * Checks the planning flags together.
 * @throws ConfigError (exit 1): two planning modes at once; a steering flag without `--plan` or
 *   `--plan-and-execute` (naming `--plan`); planning without a question; `--execute-plan` with a
 *   question (the plan carries its own); a planning mode with `--web`, `--quick` or
 *   `--coordination-mode`.
 */
export function planRequest(flags: PlanFlags, context: PlanContext): PlanRequest {
  const modes = [
    flags.plan === true ? "--plan" : undefined,
    flags.planAndExecute === true ? "--plan-and-execute" : undefined,
    flags.executePlan !== undefined ? "--execute-plan" : undefined,
  ].filter((flag) => flag !== undefined);
  if (modes.length > 1)
    throw new ConfigError(`${modes.join(" and ")} cannot be combined: pick one`);
  const planning = flags.plan === true || flags.planAndExecute === true;
  for (const [key, flag] of STEERING) {
    if (flags[key] !== undefined && !planning)
      throw new ConfigError(
        `${flag} steers planning: it goes with --plan or --plan-and-execute (coord --plan ${flag} … "<task>")`,
      );
  }
  if (modes.length === 0) return { kind: "none" };
  const mode = modes[0]!;
  if (context.web) throw new ConfigError(`${mode} runs in the terminal: drop --web`);
  if (context.quick)
    throw new ConfigError(`${mode} does not go with --quick: the team votes on plans and results`);
  if (context.coordinationMode !== undefined)
    throw new ConfigError(`${mode} is its own coordination mode: drop --coordination-mode`);
  if (flags.executePlan !== undefined) {
    if (context.question)
      throw new ConfigError(
        `--execute-plan runs the plan's own task: drop the question (coord --execute-plan ${flags.executePlan})`,
      );
    return { kind: "execute", ref: flags.executePlan };
  }
  if (!context.question) throw new ConfigError(`${mode} needs a task: coord ${mode} "<task>"`);
  if (
    flags.planSteps !== undefined &&
    flags.planChunks !== undefined &&
    flags.planChunks > flags.planSteps
  )
    throw new ConfigError(
      `--plan-chunks ${flags.planChunks} is more than --plan-steps ${flags.planSteps}: every chunk needs a task`,
    );
  const broadcast: BroadcastMode =
    flags.broadcast === undefined || flags.broadcast === "false" ? false : flags.broadcast;
  return {
    kind: "plan",
    execute: flags.planAndExecute === true,
    settings: {
      depth: flags.planDepth ?? "dynamic",
      ...(flags.planSteps !== undefined ? { steps: flags.planSteps } : {}),
      ...(flags.planChunks !== undefined ? { chunks: flags.planChunks } : {}),
      broadcast,
    },
  };
}
