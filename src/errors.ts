/**
 * The error taxonomy (CONTRIBUTING.md rule 7; docs/architecture.md "Exit codes"). Every error coord
 * raises on purpose is a {@link CoordError} carrying its process exit code, so the CLI maps errors
 * to exit codes in one place (`reportError` in `src/cli.ts`); every message is one line saying what
 * is wrong and what fixes it.
 */

/** Process exit codes (docs/architecture.md "Exit codes"). */
export const ExitCode = {
  success: 0,
  /** Configuration or usage error. */
  usage: 1,
  /** Execution error: every agent failed, provider error. */
  execution: 2,
  timeout: 3,
  /** Ctrl+C, SIGTERM, a closed output pipe, a server shutdown. */
  interrupted: 4,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * The exit code of a run that ended for each `run-end.reason` (docs/coordination.md "Events").
 * Keyed by the reasons' names rather than typed by `RunEndReason`, so this module imports nothing
 * from `events/` (whose log reader throws these errors); indexing it with a `RunEndReason` fails
 * to compile if a reason is missing, and `src/errors.test.ts` checks every reason has a code.
 */
export const EXIT_CODE_FOR_RUN_END = {
  completed: ExitCode.success,
  failed: ExitCode.execution,
  timeout: ExitCode.timeout,
  interrupted: ExitCode.interrupted,
  shutdown: ExitCode.interrupted,
} as const satisfies Record<string, ExitCode>;

/** The base of coord's own errors: a one-line message and the exit code it ends the CLI with. */
export abstract class CoordError extends Error {
  /** The process exit code when this error ends a command. */
  abstract readonly exitCode: ExitCode;
}

/** A bad flag, a bad config file or a missing key: the user can fix it. Exit code 1. */
export class ConfigError extends CoordError {
  readonly exitCode = ExitCode.usage;
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

/** A stored file coord cannot read (an event log, sessions.json): names the file. Exit code 1. */
export class StoredFileError extends CoordError {
  readonly exitCode = ExitCode.usage;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoredFileError";
  }
}

/** The work could not be done (every agent failed, a provider refused). Exit code 2. */
export class ExecutionError extends CoordError {
  readonly exitCode = ExitCode.execution;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ExecutionError";
  }
}

/** A bug in coord itself. Exit code 2, with a request to report it. */
export class InternalError extends CoordError {
  readonly exitCode = ExitCode.execution;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InternalError";
  }
}
