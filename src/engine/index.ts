/**
 * The engine's public surface (docs/architecture.md "Layers": other folders import the engine only
 * through this file).
 */
export {
  runCoordination,
  type RunCoordinationOptions,
  type EngineAgent,
  type HistoryTurn,
  type PersonaOptions,
} from "./run.js";
export { DEFAULT_ANSWERS_WITHOUT_NEWS } from "./modes/decomposition.js";
export type { DiversityMode } from "./personas.js";
export { MAX_ATTEMPTS } from "./agent-round.js";
export {
  BudgetMeter,
  defaultBudget,
  effectiveBudget,
  DEFAULT_CALLS_PER_AGENT,
  DEFAULT_EXTRA_CALLS,
  type BudgetLimits,
  type RunBudget,
} from "./budget.js";
export { DEFAULT_MAX_ANSWERS_PER_AGENT } from "./modes/answers.js";
export { MAX_CONSECUTIVE_FAILURES } from "./coordinator.js";
export {
  COORDINATION_MODES,
  type CoordinationModeSpec,
  type EngineModeName,
  type ModeSettings,
} from "./modes/index.js";
export { RunStopped, stopDetailOf, stopReasonOf } from "./stop-reason.js";
export { NEW_ANSWER, STOP, SUBMIT_PLAN, VOTE, WORKFLOW_TOOL_NAMES } from "./workflow-tools.js";
export {
  type BroadcastMode,
  type ExecutionSettings,
  type HumanChannel,
  type HumanQuestion,
  PLAN_DEPTHS,
  type PlanDepth,
  type PlanningSettings,
} from "./modes/plan-settings.js";
export { MAX_QUESTIONS_PER_AGENT } from "./modes/plan-prompts.js";
