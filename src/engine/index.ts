export {
  runCoordination,
  type RunCoordinationOptions,
  type EngineAgent,
  type HistoryTurn,
} from "./run.js";
export { MAX_ATTEMPTS } from "./agent-round.js";
export { MAX_CONSECUTIVE_FAILURES, type CoordinatorSettings } from "./coordinator.js";
