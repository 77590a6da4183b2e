/**
 * The one shape every `coord` command has, and the one place its IO is built. A command module
 * (src/commands/cli/*.ts) is a {@link CommandModule}: its name, description, the arguments,
 * options and help it declares, and a handler that receives commander's typed options
 * (`command.opts<T>()`). `cli.ts` only assembles the modules. Only commander is loaded here and in
 * the modules' declarations: each handler imports what it runs when it runs, so `coord --help`
 * stays fast.
 */
import { homedir } from "node:os";
import type { Command } from "commander";
import type { LogsIO } from "../io.js";

/** What `cli.ts` hands every command module. */
export interface CliContext {
  /** coord's version (package.json). */
  version: string;
  /**
   * Sets (a function) or clears (undefined) what a closed stdout or stderr (EPIPE, EIO) calls;
   * `cli.ts` owns the streams' error handler. A run or an eval stops instead of coord exiting.
   */
  onOutputClosed(handler: (() => void) | undefined): void;
}

/** The IO of this process: every command's outside world, with stdin and the platform. */
export interface ProcessIO extends LogsIO {
  stdin: NodeJS.ReadStream;
}

/**
 * The IO of this process, built when a handler runs (cwd and HOME as they are then); the one
 * builder every command uses. `home` is `$HOME`, else the account's home directory; `argv` the
 * arguments after `coord` (recorded in execution_metadata.yaml).
 */
export function processIO(version: string): ProcessIO {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    home: process.env.HOME ?? homedir(),
    argv: process.argv.slice(2),
    version,
    platform: process.platform,
  };
}

/**
 * One command of `coord`: the same shape for the root, every sub-command and `coord logs`'s own
 * sub-commands.
 * @typeParam Options commander's parsed options (camel-cased flag names; `--no-x` gives `x`).
 * @typeParam Args the positional arguments as commander passes them to an action.
 * @typeParam Context what the handler is given besides its arguments ({@link CliContext} for
 *   `coord`'s commands).
 */
export interface CommandModule<
  Options extends object = object,
  Args extends unknown[] = unknown[],
  Context = CliContext,
> {
  name: string;
  /** The one-line description `--help` lists. */
  description: string;
  /** The default sub-command of its parent (`coord shares` is `coord shares list`). */
  isDefault?: boolean;
  /** Declares the arguments, options and help text on `command`; loads no handler module. */
  declare?(command: Command, context: Context): void;
  /** Sub-commands, added after {@link declare} in this order. */
  subcommands?: readonly CommandModule<object, unknown[], Context>[];
  /**
   * Runs the command.
   * @returns the exit code; undefined leaves it as it is.
   * @throws CoordError subclasses for usage, config and run errors; `cli.ts` reports them.
   */
  run?(
    args: Args,
    options: Options,
    context: Context,
    command: Command,
  ): Promise<number | undefined>;
}

/** Where a handler's exit code goes: `process.exitCode` unless a caller collects it. */
export type ExitCodeSink = (code: number) => void;

const setProcessExitCode: ExitCodeSink = (code) => {
  process.exitCode = code;
};

/** Adds `module` (and its sub-commands) under `parent`. */
export function addCommand<Context>(
  parent: Command,
  module: CommandModule<object, unknown[], Context>,
  context: Context,
  exit: ExitCodeSink = setProcessExitCode,
): Command {
  const command = parent
    .command(module.name, { isDefault: module.isDefault === true })
    .description(module.description);
  assemble(command, module, context, exit);
  return command;
}

/** Declares `module` on `command`, adds its sub-commands and binds its handler. */
export function assemble<Context>(
  command: Command,
  module: CommandModule<object, unknown[], Context>,
  context: Context,
  exit: ExitCodeSink = setProcessExitCode,
): void {
  module.declare?.(command, context);
  for (const sub of module.subcommands ?? []) addCommand(command, sub, context, exit);
  if (module.run === undefined) return;
  command.action(async (...params: unknown[]) => {
    // commander calls an action with the arguments, then the options, then the command.
    const self = params[params.length - 1] as Command;
    const code = await module.run!(params.slice(0, -2), self.opts(), context, self);
    if (code !== undefined) exit(code);
  });
}

/** Runs `body` with a signal that Ctrl+C (SIGINT) and SIGTERM abort. */
export async function withStopSignal<T>(body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    return await body(controller.signal);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
