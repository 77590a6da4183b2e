/**
 * The outside world of the commands, in one module so command files never import each other
 * for types (no import circles): streams, environment, directories, arguments, version.
 * Injected so tests and the benchmarks can drive a command without a process of its own.
 */

/** A writable stream, with the TTY facts the displays read. */
export type OutputStream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** The outside world of a command. */
export interface CommandIO {
  stdout: OutputStream;
  stderr: OutputStream;
  /** The process environment (`~/.config/coord/.env` is merged under it by `prepareRun`). */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  home: string;
  /** The raw arguments after `coord` (for execution_metadata.yaml). */
  argv: readonly string[];
  /** Stops the run (Ctrl+C, SIGTERM, a closed stdout): it ends as `interrupted`. */
  signal?: AbortSignal;
  version: string;
}

/** `coord logs`: a command's IO plus the platform (it picks the file manager for `open`). */
export interface LogsIO extends CommandIO {
  /** `process.platform`. */
  platform: NodeJS.Platform;
}

/** `coord serve`: it writes only to stderr (stdout stays free). */
export type ServeIO = Pick<CommandIO, "stderr" | "env" | "cwd" | "home" | "argv" | "version">;

/** `coord serve`'s options after flags, environment and defaults are merged. */
export interface ServeSettings {
  host: string;
  port: number;
  config: string | undefined;
  debug: boolean;
  /** Grace period for requests in flight at shutdown, ms. */
  shutdownGraceMs: number;
}
