/** `coord completion bash|zsh|fish`: a shell completion script read from the program itself. */
import type { Command } from "commander";
import { type CommandModule, processIO } from "./define.js";

export const completionCommand: CommandModule<object, [string]> = {
  name: "completion",
  description:
    'print a shell completion script: coord completion bash >> ~/.bashrc; eval "$(coord completion zsh)"; coord completion fish > ~/.config/fish/completions/coord.fish',
  declare: (command: Command) => void command.argument("<shell>", "bash, zsh or fish"),
  async run([shell], _options, context, command) {
    const { completionScript } = await import("../completion.js");
    const { buildLogsProgram } = await import("../logs.js");
    // `coord logs` parses its own arguments: its words come from its own program.
    const logs = buildLogsProgram({ ...processIO(context.version), argv: [] }, () => undefined);
    process.stdout.write(completionScript(shell, command.parent!, { logs }));
    return undefined;
  },
};
