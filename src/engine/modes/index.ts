/**
 * The registry of coordination modes: a mode name to its {@link CoordinationModeSpec}. A new mode
 * is one file in this folder and one line here.
 */
import { decompositionMode } from "./decomposition.js";
import { executionMode } from "./execution.js";
import { planningMode } from "./planning.js";
import type { CoordinationModeSpec } from "./mode.js";
import { quickMode } from "./quick.js";
import { singleMode } from "./single.js";
import { votingMode } from "./voting.js";

export type {
  Conversation,
  CoordinationEnd,
  CoordinationModeSpec,
  ModeContext,
  ModeSettings,
  PrepareContext,
  WinnerChoice,
} from "./mode.js";

/** The modes the engine runs, by name. */
export const COORDINATION_MODES = {
  voting: votingMode,
  quick: quickMode,
  single: singleMode,
  decomposition: decompositionMode,
  planning: planningMode,
  execution: executionMode,
} as const satisfies Record<string, CoordinationModeSpec>;

/** A mode name the engine runs. */
export type EngineModeName = keyof typeof COORDINATION_MODES;
