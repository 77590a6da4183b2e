/**
 * `coord logs [summary|tools|list|analyze|open] …` (spec section 4.2; docs/logs.md). The
 * sub-commands, their options and help live in src/commands/logs.ts, which parses the arguments
 * after `logs` itself (imported when the command runs, so `coord --help` stays fast).
 */
import type { Command } from "commander";
import { type CommandModule, processIO } from "./define.js";

export const logsCommand: CommandModule<object, [string[]]> = {
  name: "logs",
  description:
    "summary (default), tools, list, analyze, open over the run logs (coord logs --help)",
  declare: (command: Command) =>
    void command
      .usage("[summary|tools|list|analyze|open] [options]")
      .helpOption(false)
      .passThroughOptions()
      .allowUnknownOption()
      .allowExcessArguments()
      .argument("[subcommand...]"),
  async run([args], _options, context) {
    const { runLogsCommand } = await import("../logs.js");
    return runLogsCommand(args, processIO(context.version));
  },
};
