/**
 * `coord completion bash|zsh|fish`: a shell completion script for coord's sub-commands and
 * options, generated from the commander program itself so it never drifts from `--help`
 * (docs/scripting.md "Shell completion"). Install: `coord completion bash >> ~/.bashrc`,
 * `eval "$(coord completion zsh)"` in ~/.zshrc, `coord completion fish >
 * ~/.config/fish/completions/coord.fish`.
 */
import type { Command } from "commander";
import { ConfigError } from "../errors.js";

/** The shells a script can be printed for. */
export const COMPLETION_SHELLS = ["bash", "zsh", "fish"] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

/**
 * One command as completion needs it: its name, one line of help, its long options (with those
 * of its own sub-commands, e.g. `logs list --limit`) and its sub-commands' names.
 */
interface CommandWords {
  name: string;
  description: string;
  subcommands: string[];
  options: { flag: string; description: string; takesValue: boolean }[];
}

/**
 * Reads the words to complete from the program (the root, then each sub-command).
 * @param parsedLater sub-commands that parse their own arguments (`logs`), by name: the program
 *   that does, whose sub-commands and options are completed.
 */
export function completionWords(
  program: Command,
  parsedLater: Readonly<Record<string, Command>> = {},
): { root: CommandWords; commands: CommandWords[] } {
  const optionsOf = (command: Command): Command["options"] => [
    ...command.options,
    ...command.commands.flatMap(optionsOf),
  ];
  const wordsOf = (command: Command, nested: boolean): CommandWords => ({
    name: command.name(),
    description: firstLine(command.description()),
    subcommands: command.commands.map((sub) => sub.name()),
    options: [
      ...(nested ? optionsOf(command) : command.options)
        .filter(
          (option, index, all) =>
            option.long !== undefined &&
            all.findIndex((other) => other.long === option.long) === index,
        )
        .map((option) => ({
          flag: option.long!,
          description: firstLine(option.description),
          takesValue: option.required || option.optional,
        })),
      { flag: "--help", description: "show help", takesValue: false },
    ],
  });
  const commands = program.commands.map((command) => {
    const words = wordsOf(parsedLater[command.name()] ?? command, true);
    return { ...words, name: command.name(), description: firstLine(command.description()) };
  });
  return { root: wordsOf(program, false), commands };
}

/**
 * The completion script for `shell`.
 * @throws ConfigError for a shell that is not bash, zsh or fish.
 */
export function completionScript(
  shell: string,
  program: Command,
  parsedLater: Readonly<Record<string, Command>> = {},
): string {
  const words = completionWords(program, parsedLater);
  switch (shell) {
    case "bash":
      return bashScript(words);
    case "zsh":
      return [
        '# zsh completion for coord: eval "$(coord completion zsh)" in ~/.zshrc',
        "autoload -U +X compinit && compinit",
        "autoload -U +X bashcompinit && bashcompinit",
        bashScript(words).replace(/^#.*\n/, ""),
      ].join("\n");
    case "fish":
      return fishScript(words);
    default:
      throw new ConfigError(
        `coord completion ${shell}: unknown shell; use one of ${COMPLETION_SHELLS.join(", ")}`,
      );
  }
}

function bashScript({ root, commands }: ReturnType<typeof completionWords>): string {
  const flags = (command: CommandWords) => command.options.map((option) => option.flag).join(" ");
  const cases = commands
    .map(
      (command) =>
        `    ${command.name}) options="${flags(command)}"; nested="${command.subcommands.join(" ")}" ;;`,
    )
    .join("\n");
  return `# bash completion for coord: coord completion bash >> ~/.bashrc
_coord() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local commands="${commands.map((command) => command.name).join(" ")}"
  local options="${flags(root)}"
  local sub="" nested="" at=0
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case " $commands " in *" \${COMP_WORDS[i]} "*) sub="\${COMP_WORDS[i]}"; at=$i; break ;; esac
  done
  case "$sub" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$options" -- "$cur") )
  elif [[ -z "$sub" && $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "$commands" -- "$cur") )
  elif [[ -n "$nested" && $COMP_CWORD -eq $((at + 1)) ]]; then
    COMPREPLY=( $(compgen -W "$nested" -- "$cur") )
  fi
}
complete -o default -F _coord coord
`;
}

function fishScript({ root, commands }: ReturnType<typeof completionWords>): string {
  const names = commands.map((command) => command.name).join(" ");
  const lines = [
    "# fish completion for coord: coord completion fish > ~/.config/fish/completions/coord.fish",
  ];
  for (const command of commands) {
    lines.push(
      `complete -c coord -f -n "not __fish_seen_subcommand_from ${names}" -a ${command.name} -d ${quote(command.description)}`,
    );
  }
  const optionLine = (option: CommandWords["options"][number], condition: string) =>
    `complete -c coord -n ${quote(condition)} -l ${option.flag.slice(2)}${option.takesValue ? " -r" : ""} -d ${quote(option.description)}`;
  for (const option of root.options)
    lines.push(optionLine(option, `not __fish_seen_subcommand_from ${names}`));
  for (const command of commands) {
    for (const sub of command.subcommands) {
      lines.push(
        `complete -c coord -f -n ${quote(`__fish_seen_subcommand_from ${command.name}; and not __fish_seen_subcommand_from ${command.subcommands.join(" ")}`)} -a ${sub}`,
      );
    }
    for (const option of command.options)
      lines.push(optionLine(option, `__fish_seen_subcommand_from ${command.name}`));
  }
  return `${lines.join("\n")}\n`;
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").slice(0, 100);
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
