/**
 * The commands `execute_command` refuses whatever the config says (docs/tools.md "Commands"):
 * `sudo` (also behind `env`, quotes or backslashes), a recursive `rm` of `/` or the home folder
 * (`rm -r -f ~`, `rm --recursive --force //`, `rm -rf "$HOME"`), `mkfs`, fork bombs under any
 * function name. A courtesy that stops the obvious mistakes with a clear message: it reads the
 * command as text and can be fooled; the sandbox (`./sandbox.ts`) is the protection.
 */
import { RE2JS } from "re2js";

/** Command separators: a new simple command starts after each. */
const SEPARATORS = /[;&|\n()`{}]|\$\(/;

/** Words that run the next word as the command (`env sudo id`, `nohup rm -rf /`). */
const WRAPPERS = new Set(["env", "exec", "command", "nohup", "nice", "time", "xargs", "builtin"]);

/** `s''udo` → `sudo`, `\sudo` → `sudo`, `"${HOME}"` → `$HOME`: quotes and backslashes dropped. */
function unquote(text: string): string {
  return text
    .replace(/\\(.)/gs, "$1")
    .replace(/['"]/g, "")
    .replace(/\$\{HOME\}/g, "$HOME");
}

/** Why `command` is refused, or undefined when it is not on the list. */
export function alwaysRefused(command: string): string | undefined {
  const plain = unquote(command);
  if (/(^|[\s;&|(`{}]|\$\()(sudo|doas)(\s|$|[;&|)])/.test(plain)) return "sudo is not allowed";
  if (/(^|[\s;&|(`])mkfs(\.\w+)?(\s|$)/.test(plain)) return "formatting disks is not allowed";
  if (isForkBomb(plain)) return "fork bombs are not allowed";
  for (const segment of plain.split(SEPARATORS)) {
    if (removesRootOrHome(segment.trim().split(/\s+/))) return "removing / or ~ is not allowed";
  }
  return undefined;
}

/** A shell function definition: its name and its body (RE2: linear time in the command). */
const FUNCTION_DEFINITION = RE2JS.compile("([\\w:.-]+)\\s*(?:\\(\\s*\\))?\\s*\\{([^}]*)\\}");

/**
 * `f(){ f|f& };f`, `:(){ :|:& };:`, `function f { f | f & }` with any name: a function whose body
 * pipes the function into itself.
 */
function isForkBomb(plain: string): boolean {
  const matcher = FUNCTION_DEFINITION.matcher(plain);
  while (matcher.find()) {
    const name = matcher.group(1) ?? "";
    const body = (matcher.group(2) ?? "").replace(/\s+/g, "");
    if (name !== "" && body.includes(`${name}|${name}`)) return true;
  }
  return false;
}

/** True for `rm` with `-r`/`-R`/`--recursive` and a target that is `/` or the home folder. */
function removesRootOrHome(words: readonly string[]): boolean {
  let index = 0;
  while (index < words.length && (WRAPPERS.has(words[index]!) || /^\w+=/.test(words[index]!)))
    index++;
  const program = words[index]?.split("/").at(-1);
  if (program !== "rm") return false;
  let recursive = false;
  const targets: string[] = [];
  let options = true;
  for (const word of words.slice(index + 1)) {
    if (options && word === "--") options = false;
    else if (options && (word === "--recursive" || /^-[a-zA-Z]*[rR]/.test(word))) recursive = true;
    else if (!(options && word.startsWith("-"))) targets.push(word);
  }
  return recursive && targets.some(isRootOrHome);
}

/** `/`, `//`, `/.`, `/*`, `~`, `~/`, `~/*`, `$HOME`, `${HOME}/`, `$HOME/.`. */
function isRootOrHome(target: string): boolean {
  return /^(\/|~|\$HOME|\$\{HOME\})(\/?\.?\/?\*?)?$/.test(target.replace(/\/+/g, "/"));
}
