/**
 * The config a run uses when coord asks for it (spec section 1 "Configuration discovery" and
 * "First-time setup wizard", section 2 "Configuration sources offered by `--select`"):
 *
 * - `coord --setup`: the setup wizard, whatever is configured;
 * - `coord --select`: the picker over the user's, the project's, the directory's and the
 *   built-in configs;
 * - no `--config`, no quick setup and no config on the default path, in a terminal: the wizard.
 *
 * Without a terminal (stdin and stdout), nothing is asked: the run goes on and fails with the
 * "No config found" message as before (or `--setup`/`--select` say they need a terminal).
 */
import { ConfigError } from "../errors.js";
import type { ChatIO } from "./chat.js";

/** The flags that decide whether coord asks. */
export interface FirstRunFlags {
  setup: boolean;
  select: boolean;
  automation: boolean;
  config?: string | undefined;
  backend?: string | undefined;
  model?: string | undefined;
  /** True when a question follows (the wizard's last line says what comes next). */
  question: boolean;
}

/**
 * Asks for the config when the flags call for it.
 * @returns the `--config` argument to run with, or undefined when nothing was asked.
 * @throws ConfigError (exit 1) for `--setup`/`--select` with each other, with `--config`,
 *   `--backend` or `--model`, or without a terminal; SetupCancelled (exit 4) on Ctrl+C or Esc
 *   on the first question.
 */
export async function askForConfig(flags: FirstRunFlags, io: ChatIO): Promise<string | undefined> {
  const named =
    flags.config !== undefined || flags.backend !== undefined || flags.model !== undefined;
  if (flags.setup && flags.select)
    throw new ConfigError("--setup and --select both choose the config: use one of them");
  for (const [on, flag] of [
    [flags.setup, "--setup"],
    [flags.select, "--select"],
  ] as const) {
    if (!on) continue;
    if (named)
      throw new ConfigError(
        `${flag} chooses the config itself: leave out --config, --backend and --model`,
      );
    if (flags.automation)
      throw new ConfigError(`${flag} asks questions: it does not go with --automation`);
    if (!isTerminal(io))
      throw new ConfigError(
        `${flag} needs a terminal (stdin and stdout); without one, name the config with --config PATH`,
      );
  }
  const then = flags.question ? "question" : "chat";
  if (flags.select) return selectConfig(io, then);
  if (flags.setup) return runWizard(io, { explicit: true, then });
  if (named || flags.automation || !isTerminal(io)) return undefined;
  const { discoverConfig } = await import("../config/index.js");
  if ((await discoverConfig({ cwd: io.cwd, home: io.home })) !== undefined) return undefined;
  return runWizard(io, { explicit: false, then });
}

function isTerminal(io: ChatIO): boolean {
  return io.stdin.isTTY === true && io.stdout.isTTY === true;
}

async function runWizard(
  io: ChatIO,
  options: { explicit: boolean; then: "chat" | "question" },
): Promise<string> {
  const setup = await import("../setup/index.js");
  const prompter = await setup.createClackPrompter({
    input: io.stdin,
    output: io.stdout as NodeJS.WriteStream,
  });
  const choice = await setup.runSetupWizard({
    prompter,
    cwd: io.cwd,
    home: io.home,
    env: io.env,
    ...options,
  });
  return choice.configArg;
}

async function selectConfig(io: ChatIO, then: "chat" | "question"): Promise<string> {
  const [setup, config] = await Promise.all([
    import("../setup/index.js"),
    import("../config/index.js"),
  ]);
  const prompter = await setup.createClackPrompter({
    input: io.stdin,
    output: io.stdout as NodeJS.WriteStream,
  });
  prompter.intro("coord --select");
  const env = await config.loadEnvFiles({ home: io.home, env: io.env });
  const categories = await config.listConfigSources({ cwd: io.cwd, home: io.home, env });
  const cancelled = "--select cancelled: no config chosen";
  let entry: Awaited<ReturnType<typeof setup.pickConfig>>;
  try {
    entry = await setup.pickConfig(prompter, categories, {
      message: "Which configs? (Esc quits)",
    });
  } catch (error) {
    // Ctrl+C: the prompter's own "setup cancelled" would name the wrong command.
    if (error instanceof setup.SetupCancelled) throw new setup.SetupCancelled(cancelled);
    throw error;
  }
  if (entry === setup.BACK) throw new setup.SetupCancelled(cancelled);
  prompter.outro(
    `${entry.name}: ${then === "chat" ? "starting the chat…" : "answering your question…"}`,
  );
  return entry.configArg;
}
