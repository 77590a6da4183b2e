/**
 * `coord completion bash|zsh|fish`: a shell completion script for coord's sub-commands and
 * options, generated from the commander program itself so it never drifts from `--help`
 * (docs/scripting.md "Shell completion"). Install: `coord completion bash >> ~/.bashrc`,
 * `eval "$(coord completion zsh)"` in ~/.zshrc, `coord completion fish >
 * ~/.config/fish/completions/coord.fish`.
 *
 * Option values are completed too: an option's choices (`--backend`, `--coordination-mode`,
 * `--personas`, …) and, for `--config`, the built-in examples (`@examples/NAME`) beside files.
 */
import type { Command } from "commander";
import { EXAMPLES_PREFIX, listExamples } from "../config/index.js";
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
  options: {
    flag: string;
    /** The short flag (`-b`), if any. */
    short?: string | undefined;
    description: string;
    takesValue: boolean;
    /** The values to complete after the flag: its choices, or `@examples/NAME` for --config. */
    values?: string[] | undefined;
    /** Files complete after the flag too (besides {@link values}). */
    files?: boolean | undefined;
  }[];
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
          short: option.short,
          description: firstLine(option.description),
          takesValue: option.required || option.optional,
          ...optionValues(option.long!, option.argChoices),
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

/** The values completed after an option: its choices; the built-in examples for `--config`. */
function optionValues(
  flag: string,
  choices: readonly string[] | undefined,
): { values?: string[]; files?: boolean } {
  if (choices !== undefined && choices.length > 0) return { values: [...choices] };
  if (flag === "--config")
    return { values: listExamples().map((name) => `${EXAMPLES_PREFIX}${name}`), files: true };
  return {};
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
${bashValues(root, commands)}
_coord() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local prev="\${COMP_WORDS[COMP_CWORD-1]}"
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
  local values
  values="$(_coord_values "$sub" "$prev")"
  if [[ -n "$values" ]]; then
    COMPREPLY=( $(compgen -W "\${values#files }" -- "$cur") )
    if [[ "$values" == "files "* ]]; then COMPREPLY+=( $(compgen -f -- "$cur") ); fi
    return
  fi
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

/**
 * `_coord_values SUB PREV`: the values to complete after option PREV (in sub-command SUB, empty
 * for the root), prefixed by `files ` when files complete too; nothing for other options.
 */
function bashValues(root: CommandWords, commands: readonly CommandWords[]): string {
  const arms: string[] = [];
  for (const command of [root, ...commands]) {
    const sub = command === root ? "" : command.name;
    for (const option of command.options) {
      if (option.values === undefined) continue;
      const flags = [option.flag, ...(option.short ? [option.short] : [])];
      const words = `${option.files ? "files " : ""}${option.values.join(" ")}`;
      arms.push(`    ${flags.map((flag) => `"${sub} ${flag}"`).join("|")}) echo "${words}" ;;`);
    }
  }
  return `_coord_values() {
  case "$1 $2" in
${arms.join("\n")}
  esac
}`;
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
  const optionLine = (option: CommandWords["options"][number], condition: string) => {
    const short = option.short ? ` -s ${option.short.slice(1)}` : "";
    const values =
      option.values === undefined
        ? option.takesValue
          ? " -r"
          : ""
        : ` ${option.files ? "-r" : "-x"} -a ${quote(option.values.join(" "))}`;
    return `complete -c coord -n ${quote(condition)} -l ${option.flag.slice(2)}${short}${values} -d ${quote(option.description)}`;
  };
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
