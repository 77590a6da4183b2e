/**
 * The error taxonomy (STYLE.md rule 7; ARCHITECTURE.md "Exit codes"). The CLI maps these to exit
 * codes in one place (`src/commands/exit-codes.ts`); every message is one line saying what is
 * wrong and what fixes it.
 */

import type { RunEndReason } from "./events/events.js";

/** Process exit codes (ARCHITECTURE.md "Exit codes"). */
export const ExitCode = {
  success: 0,
  /** Configuration or usage error. */
  usage: 1,
  /** Execution error: every agent failed, provider error. */
  execution: 2,
  timeout: 3,
  /** Ctrl+C. */
  interrupted: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit code of a run that ended for each `run-end.reason` (COORDINATION.md "Events"). */
export const EXIT_CODE_FOR_RUN_END: Record<RunEndReason, ExitCode> = {
  completed: ExitCode.success,
  failed: ExitCode.execution,
  timeout: ExitCode.timeout,
  interrupted: ExitCode.interrupted,
  shutdown: ExitCode.interrupted,
};

/** A bad flag, a bad config file or a missing key: the user can fix it. Exit code 1. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly details: {
      /** The config file, when the error is in one. */
      file?: string;
      /** Dotted key path, e.g. `agents[1].backend.model`. */
      path?: string;
      line?: number;
      column?: number;
    } = {},
  ) {
    super(message);
    this.name = "ConfigError";
  }
}

/** The run could not produce an answer (every agent failed). Exit code 2. */
export class ExecutionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ExecutionError";
  }
}

/** A bug in coord itself. Exit code 2, with a request to report it. */
export class InternalError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InternalError";
  }
}
