/**
 * Finding the config when no `--config` is given (spec section 1 "Configuration discovery").
 */
import { stat } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { EXAMPLES_PREFIX, examplesDir, listExamples } from "./examples.js";

/** The project config, relative to the working directory. */
export const PROJECT_CONFIG_PATH = join(".coord", "config.yaml");

/**
 * coord's folder of user files (config.yaml, .env, agents/): `$XDG_CONFIG_HOME/coord` when
 * `XDG_CONFIG_HOME` is set to an absolute path (the XDG Base Directory rule: a relative one is
 * ignored), else `~/.config/coord`.
 * @param env the environment to read `XDG_CONFIG_HOME` from (default: process.env).
 */
export function userConfigDir(
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const xdg = env.XDG_CONFIG_HOME;
  return xdg !== undefined && xdg !== "" && isAbsolute(xdg)
    ? join(xdg, "coord")
    : join(home, ".config", "coord");
}

/** The global default config, `config.yaml` in {@link userConfigDir} (`~/.config/coord/`). */
export function globalConfigPath(
  home: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return join(userConfigDir(home, env), "config.yaml");
}

/**
 * Looks for a config in priority order: `.coord/config.yaml` in `cwd`, then
 * `~/.config/coord/config.yaml` under `home` (`$XDG_CONFIG_HOME/coord/config.yaml` when set).
 *
 * @returns The absolute path of the first one that exists as a file, or `undefined` (the CLI then
 *   starts the setup wizard in a terminal, and prints {@link noConfigMessage} without one).
 */
export async function discoverConfig(options: {
  cwd: string;
  home: string;
}): Promise<string | undefined> {
  for (const candidate of [
    join(options.cwd, PROJECT_CONFIG_PATH),
    globalConfigPath(options.home),
  ]) {
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isFile() === true) return candidate;
  }
  return undefined;
}

/**
 * What to print when no config was found and no terminal is attached for the setup wizard: where
 * coord looked and the commands that fix it (run the wizard in a terminal, copy a built-in
 * example, name one with `--config @examples/NAME`, or use `--backend/--model`).
 * Several lines, no trailing newline.
 */
export function noConfigMessage(): string {
  const examples = listExamples();
  return [
    "No config found: coord looked for .coord/config.yaml (in this directory) and ~/.config/coord/config.yaml.",
    "In a terminal, `coord --setup` asks for your API keys and writes one from a template.",
    "Or create one from a built-in example (then edit it):",
    `  mkdir -p .coord && cp ${quote(join(examplesDir(), "three_agents.yaml"))} .coord/config.yaml`,
    "or run without a config file:",
    `  coord --config ${EXAMPLES_PREFIX}three_agents "your question"`,
    '  coord --backend openai --model gpt-4o-mini "your question"',
    '  coord --backend local --model ./model.gguf "your question"',
    `Built-in examples: ${examples.join(", ")} (${EXAMPLES_PREFIX}scripted_team needs no API key).`,
    "API keys come from the environment or ~/.config/coord/.env (e.g. OPENAI_API_KEY=…).",
  ].join("\n");
}

function quote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
