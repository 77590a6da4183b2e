#!/usr/bin/env node
/**
 * The `coord` command line (spec section 4). Assembles the command modules of
 * src/commands/cli/ (one per command: name, options, help, handler) into one commander program,
 * and maps errors to exit codes in one place (docs/architecture.md "Exit codes"). Heavy modules are
 * imported inside the handler that needs them, so `coord --help` stays close to bare node's
 * start-up time.
 */
// First: the colour choice must be made before any display module loads.
import { startupArgv } from "./color-startup.js";
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { CoordError, ExitCode, InternalError } from "./errors.js";
import { redactWrites, registerEnvSecrets } from "./redact.js";
import { errorDetails, errorJson, wantsJson } from "./commands/cli-habits.js";
import {
  addCommand,
  assemble,
  type CliContext,
  type CommandModule,
} from "./commands/cli/define.js";
import { rootCommand } from "./commands/cli/root.js";
import { serveCommand } from "./commands/cli/serve.js";
import { logsCommand } from "./commands/cli/logs.js";
import { viewerCommand } from "./commands/cli/viewer.js";
import { exportCommand } from "./commands/cli/export.js";
import { sharesCommand } from "./commands/cli/shares.js";
import { evalCommand } from "./commands/cli/eval.js";
import { completionCommand } from "./commands/cli/completion.js";

function readVersion(): string {
  for (const relative of ["../package.json", "../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), "utf8")) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === "coord" && pkg.version) return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return "0.0.0";
}

/** The sub-commands, in the order `coord --help` lists them (src/commands/cli/). */
const SUBCOMMANDS: readonly CommandModule[] = [
  serveCommand,
  logsCommand,
  viewerCommand,
  exportCommand,
  sharesCommand,
  evalCommand,
  completionCommand,
];

/** Assembles the program from the command modules; nothing of a handler is loaded. */
function buildProgram(version: string): Command {
  const context: CliContext = {
    version,
    onOutputClosed: (handler) => {
      onOutputClosed = handler;
    },
  };
  const program = new Command(rootCommand.name).description(rootCommand.description);
  assemble(program, rootCommand, context);
  for (const module of SUBCOMMANDS) addCommand(program, module, context);
  return program;
}

/**
 * Prints one line for coord's own errors on stderr and returns their exit code; others are
 * internal. Under `--json` the error is also one JSON object on stdout (src/commands/cli-habits.ts).
 */
function reportError(error: unknown, json: boolean): number {
  if (error instanceof CoordError && !(error instanceof InternalError)) {
    if (json) writeJsonError(error.message, "config", error.exitCode, errorDetails(error));
    process.stderr.write(`coord: ${error.message}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  if (json) writeJsonError(`internal error (please report it): ${message}`, "internal", 2);
  process.stderr.write(`coord: internal error (please report it): ${message}\n`);
  return ExitCode.execution;
}

function writeJsonError(
  message: string,
  code: string,
  exitCode: number,
  details?: ReturnType<typeof errorDetails>,
): void {
  process.stdout.write(`${JSON.stringify(errorJson(message, code, exitCode, details), null, 2)}\n`);
}

/** Set while a single question or an eval runs: then a closed output stops it instead of exiting. */
let onOutputClosed: (() => void) | undefined;

// A closed pipe (`coord … | head`, EPIPE) or a closed terminal (EIO) is not worth a stack trace.
// During a question or an eval it stops the run like Ctrl+C (run-end, metrics, session closed; later
// writes to the dead stream are dropped), and coord exits when the run has ended; otherwise
// coord exits at once.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "EIO") throw error;
    if (onOutputClosed) onOutputClosed();
    else process.exit(process.exitCode ?? 0);
  });
}

// Nothing coord prints may carry a key: every write to stdout and stderr passes through the one
// redactor (src/redact.ts), which knows the environment's keys from here on.
registerEnvSecrets(process.env);
redactWrites(process.stdout);
redactWrites(process.stderr);

const program = buildProgram(readVersion());
program.exitOverride();
const jsonErrors = wantsJson(startupArgv);
/** Under --json, commander's parse error, printed as JSON on stdout too. */
let usageError: string | undefined;
const output = {
  writeErr: (text: string) => {
    if (jsonErrors && text.startsWith("error:")) usageError = text.slice(6).trim();
    process.stderr.write(text.startsWith("error:") ? `coord: ${text}` : text);
  },
};
program.configureOutput(output);
for (const command of program.commands) command.configureOutput(output);
try {
  await program.parseAsync([...process.argv.slice(0, 2), ...startupArgv]);
} catch (error) {
  const code = (error as { code?: string }).code;
  if (typeof code === "string" && code.startsWith("commander.")) {
    // Help and version exit 0; parse errors (already printed) are usage errors.
    process.exitCode =
      code === "commander.helpDisplayed" ||
      code === "commander.version" ||
      code === "commander.help"
        ? 0
        : ExitCode.usage;
    if (usageError !== undefined) writeJsonError(usageError, "usage", ExitCode.usage);
  } else {
    process.exitCode = reportError(error, jsonErrors);
  }
}
